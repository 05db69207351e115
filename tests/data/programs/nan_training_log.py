# expect: nan-loss
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=10.0)
x = torch.randn(256, 10) * 50
y = torch.randn(256, 1)
for step in range(1, 31):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step} | loss {loss.item():.4f}")
