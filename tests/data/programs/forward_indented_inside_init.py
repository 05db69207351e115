# expect: module-missing-forward
# After 'is missing the required "forward" function' reports: forward written one indentation
# level too deep, so it is a local function of __init__.
import torch
import torch.nn as nn


class AutoEncoder(nn.Module):
    def __init__(self, dim=784, hidden=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU())
        self.decoder = nn.Sequential(nn.Linear(hidden, dim), nn.Sigmoid())

        def forward(self, x):
            return self.decoder(self.encoder(x))


model = AutoEncoder()
x = torch.rand(4, 784)
recon = model(x)
print(nn.functional.mse_loss(recon, x).item())
