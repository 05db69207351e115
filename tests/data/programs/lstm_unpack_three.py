# expect: unpack-mismatch
# nn.LSTM returns output and a (h, c) tuple; the forward unpacks three values as if it returned
# output, h, c.
import torch
import torch.nn as nn


class Forecaster(nn.Module):
    def __init__(self, n_features=6, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, num_layers=2, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, h, c = self.lstm(x)  # noqa: RUF059
        return self.head(out[:, -1])


model = Forecaster()
window = torch.randn(16, 24, 6)  # 24 time steps, 6 sensor readings
pred = model(window)
print(pred.shape)
