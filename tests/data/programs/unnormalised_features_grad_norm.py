# expect: gradient-explosion
import torch
import torch.nn as nn

torch.manual_seed(0)
# house prices: features not normalised (square metres, year built...)
x = torch.randn(256, 6) * torch.tensor([50.0, 10.0, 3.0, 1.0, 20.0, 5.0])
y = x @ torch.randn(6, 1) + 3
model = nn.Sequential(nn.Linear(6, 32), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
for step in range(10):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf"))
    print(f"step {step:2d}  loss {loss.item():.4e}  grad_norm {grad_norm.item():.4e}")
    opt.step()
