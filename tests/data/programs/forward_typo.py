# expect: module-missing-forward
import torch
import torch.nn as nn


class Autoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(784, 32)
        self.dec = nn.Linear(32, 784)

    def foward(self, x):
        return torch.sigmoid(self.dec(torch.relu(self.enc(x))))


model = Autoencoder()
x = torch.rand(16, 784)
recon = model(x)
loss = nn.functional.mse_loss(recon, x)
