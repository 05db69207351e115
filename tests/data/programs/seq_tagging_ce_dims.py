# expect: batch-size-mismatch
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, vocab=500, n_tags=9):
        super().__init__()
        self.emb = nn.Embedding(vocab, 32)
        self.lstm = nn.LSTM(32, 64, batch_first=True)
        self.out = nn.Linear(64, n_tags)

    def forward(self, x):
        h, _ = self.lstm(self.emb(x))
        return self.out(h)  # (batch, seq, tags)


model = Tagger()
tokens = torch.randint(0, 500, (8, 20))
tags = torch.randint(0, 9, (8, 20))
loss = nn.CrossEntropyLoss()(model(tokens), tags)
loss.backward()
