# expect: loss-not-decreasing
# A DDPM training step written by hand: the network is supposed to predict the added noise, but
# the noise target is drawn a second time instead of reusing the one that was added, so the
# target is independent of the input and the MSE stays at 1.0.
import torch
import torch.nn as nn

torch.manual_seed(0)
T = 200
betas = torch.linspace(1e-4, 0.02, T)
alpha_bar = torch.cumprod(1 - betas, 0)
data = torch.randn(512, 2) * 0.2 + torch.tensor([1.0, -1.0])
net = nn.Sequential(nn.Linear(3, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for step in range(1, 121):
    x0 = data[torch.randint(0, 512, (128,))]
    t = torch.randint(0, T, (128,))
    ab = alpha_bar[t].unsqueeze(1)
    xt = ab.sqrt() * x0 + (1 - ab).sqrt() * torch.randn_like(x0)
    noise = torch.randn_like(x0)
    pred = net(torch.cat([xt, t.unsqueeze(1) / T], 1))
    loss = nn.functional.mse_loss(pred, noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(f"step {step} | loss {loss.item():.4f}")
