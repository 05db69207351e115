"""gradient-explosion: a deep MLP trained with a learning rate too large and no gradient clipping.

A 4-layer ReLU MLP (128 units each) is trained with SGD, lr=0.2, momentum=0.9: a recipe that is
fine for a shallow model. After a few steps one update overshoots, the next gradients are larger,
so the next update overshoots more: the total gradient norm (computed with
`clip_grad_norm_(params, float("inf"))`, which measures without clipping) grows by orders of
magnitude from step to step, overflows to inf, and the loss turns nan.

`--fixed` lowers the learning rate to 0.05 and clips the total gradient norm to 1.0 before each
step: the printed grad norm (before clipping) stays bounded and the loss falls.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

x = torch.randn(512, 16)
y = torch.tanh(x @ torch.randn(16, 8) / 4) @ torch.randn(8, 1)

layers: list[nn.Module] = []
width = 16
for _ in range(4):
    layers += [nn.Linear(width, 128), nn.ReLU()]
    width = 128
model = nn.Sequential(*layers, nn.Linear(width, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05 if fixed else 0.2, momentum=0.9)
max_norm = 1.0 if fixed else float("inf")  # inf: only measure the norm, never clip

for step in range(1, 31):
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    grad_norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm)  # norm before clipping
    optimizer.step()
    print(f"step {step:2d} | loss {loss.item():.4e} | grad_norm {grad_norm.item():.4e}")
