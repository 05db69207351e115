# expect: rnn-input-size
import torch
import torch.nn as nn


class Seq2One(nn.Module):
    def __init__(self, n_feat=6, hidden=64):
        super().__init__()
        self.hidden = hidden
        self.lstm = nn.LSTM(n_feat, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, 1)

    def forward(self, x):
        h0 = torch.zeros(1, x.size(1), self.hidden)
        c0 = torch.zeros(1, x.size(1), self.hidden)
        out, _ = self.lstm(x, (h0, c0))
        return self.fc(out[:, -1])


x = torch.randn(16, 30, 6)  # (batch, time, features)
print(Seq2One()(x).shape)
