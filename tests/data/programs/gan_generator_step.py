# expect: inplace-modified
import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 2))
D = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
bce = nn.BCEWithLogitsLoss()

for it in range(2):
    real = torch.randn(32, 2) + 3
    fake = G(torch.randn(32, 16))
    d_fake = D(fake)
    loss_d = bce(D(real), torch.ones(32, 1)) + bce(d_fake, torch.zeros(32, 1))
    loss_g = bce(d_fake, torch.ones(32, 1))

    opt_d.zero_grad()
    loss_d.backward(retain_graph=True)
    opt_d.step()

    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    print(it, loss_d.item(), loss_g.item())
