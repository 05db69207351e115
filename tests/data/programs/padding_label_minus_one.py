# expect: target-out-of-bounds
import torch
import torch.nn as nn

vocab, n_tags, pad = 200, 7, -1
tokens = torch.randint(0, vocab, (4, 12))
tags = torch.randint(0, n_tags, (4, 12))
tags[:, 9:] = pad  # padded positions
model = nn.Sequential(nn.Embedding(vocab, 16), nn.Linear(16, n_tags))
logits = model(tokens)
loss = nn.NLLLoss()(logits.log_softmax(-1).view(-1, n_tags), tags.view(-1))
loss.backward()
