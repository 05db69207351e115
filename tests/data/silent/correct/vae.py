# summary: pytorch/examples vae: linear encoder/decoder, reparameterisation, BCE(sum) + KLD loss, Adam, a test pass in eval mode
import torch
from torch import nn, optim
from torch.nn import functional as F
from torch.utils.data import DataLoader, TensorDataset

import diagnoser


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 400)
        self.fc21 = nn.Linear(400, 20)
        self.fc22 = nn.Linear(400, 20)
        self.fc3 = nn.Linear(20, 400)
        self.fc4 = nn.Linear(400, 784)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        return self.decode(self.reparameterize(mu, logvar)), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


torch.manual_seed(1)
images = torch.rand(96, 1, 28, 28)
train_loader = DataLoader(TensorDataset(images[:64]), batch_size=16, shuffle=True)
model = VAE()
optimizer = optim.Adam(model.parameters(), lr=1e-3)
with diagnoser.watch(model) as w:
    for epoch in range(2):
        model.train()
        for (data,) in train_loader:
            optimizer.zero_grad()
            recon_batch, mu, logvar = model(data)
            loss = loss_function(recon_batch, data, mu, logvar)
            loss.backward()
            optimizer.step()
            w.step(loss)
        model.eval()
        with torch.no_grad():
            recon, mu, logvar = model(images[64:])
            test_loss = loss_function(recon, images[64:], mu, logvar).item()
