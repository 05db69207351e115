# expect: dtype-mismatch
# After "mat1 and mat2 must have the same dtype" / "expected scalar type Float but found Double"
# reports on time series: windows cut from a float64 numpy series go straight into an LSTM.
import numpy as np
import torch
import torch.nn as nn

series = np.sin(np.linspace(0, 20, 500))  # float64, as pandas gives it
window = 30
X = np.stack([series[i:i + window] for i in range(len(series) - window)])[:, :, None]
y = series[window:][:, None]
X_t, y_t = torch.from_numpy(X), torch.from_numpy(y)


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 32, batch_first=True)
        self.out = nn.Linear(32, 1)

    def forward(self, x):
        h, _ = self.lstm(x)
        return self.out(h[:, -1])


model = Forecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    pred = model(X_t[:64])
    loss = nn.functional.mse_loss(pred, y_t[:64])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
