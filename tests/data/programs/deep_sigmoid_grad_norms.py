# expect: vanishing-gradient
import torch
import torch.nn as nn

torch.manual_seed(0)
layers = []
for _ in range(12):
    layers += [nn.Linear(64, 64), nn.Sigmoid()]
model = nn.Sequential(*layers, nn.Linear(64, 1))
x, y = torch.randn(128, 64), torch.randn(128, 1)
loss = nn.functional.mse_loss(model(x), y)
loss.backward()
for name, p in model.named_parameters():
    if name.endswith("weight"):
        print(f"{name:10s} grad norm: {p.grad.norm().item():.3e}")
