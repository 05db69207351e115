# expect: gradient-none
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
unused_head = nn.Linear(8, 3)
params = list(model.parameters()) + list(unused_head.parameters())
loss = model(torch.randn(5, 4)).sum()
loss.backward()
total = 0.0
for p in params:
    total += p.grad.norm().item() ** 2
print("grad norm", total ** 0.5)
