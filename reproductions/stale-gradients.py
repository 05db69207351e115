"""stale-gradients: a training loop without optimizer.zero_grad().

`loss.backward()` adds to `.grad`, so without `optimizer.zero_grad()` the gradient used at step n
is the sum of every gradient since the start: each step re-applies all the earlier ones, the
effective learning rate grows step after step, and the loss, after falling for a few steps,
climbs and oscillates. No error is raised. `diagnoser.watch` (when installed) names it at the
second step, the first whose backward adds to a gradient already used.

`--fixed` calls `optimizer.zero_grad()` before each backward: the loss falls steadily.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

try:  # the check that names the problem; the harm below shows without it
    from diagnoser import watch
except ImportError:
    watch = None

x = torch.randn(256, 16)
y = (x[:, :4].sum(1) > 0).long()
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

w = watch(model, label="model").attach() if watch else None
losses = []
for _ in range(200):
    if fixed:
        optimizer.zero_grad()
    idx = torch.randint(0, len(x), (32,))
    loss = nn.functional.cross_entropy(model(x[idx]), y[idx])
    loss.backward()  # without zero_grad, this adds to every earlier step's gradient
    optimizer.step()
    losses.append(loss.item())
    if w:
        w.step(loss)
if w:
    w.detach()
with torch.no_grad():
    full = nn.functional.cross_entropy(model(x), y).item()
grad = model[0].weight.grad.norm().item()
print(f"200 steps: loss on all samples {full:.4f}; gradient norm of the first layer {grad:.4g}")
