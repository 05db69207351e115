# expect: unpack-mismatch
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, batch_first=True)
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        out = self.lstm(x)
        return self.head(out)


Tagger()(torch.randn(2, 5, 8))
