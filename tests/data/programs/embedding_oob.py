# expect: embedding-index-out-of-range
import torch
import torch.nn as nn

vocab = {"<pad>": 0, "hello": 1, "world": 2}
emb = nn.Embedding(len(vocab), 16)
ids = torch.tensor([[1, 2, 3]])  # 3 is the <unk> id added later
out = emb(ids)
