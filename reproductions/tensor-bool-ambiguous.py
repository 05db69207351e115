"""tensor-bool-ambiguous: a Python `if` on a whole batch, in a hand-written loss.

A smooth-L1 (Huber) loss is written the way the formula reads, with `if diff < beta:`. That works
for one number, but `diff` holds one value per prediction (a [32, 1] batch), so `diff < beta` is a
tensor of 32 True/False values, and Python's `if` needs exactly one: "Boolean value of Tensor with
more than one value is ambiguous".

`--fixed` chooses per element with `torch.where(diff < beta, ...)` and then averages.
(`nn.SmoothL1Loss` / `nn.HuberLoss` do the same.)
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


def smooth_l1(pred: torch.Tensor, target: torch.Tensor, beta: float = 1.0) -> torch.Tensor:
    diff = (pred - target).abs()
    if fixed:
        return torch.where(diff < beta, 0.5 * diff**2 / beta, diff - 0.5 * beta).mean()
    if diff < beta:  # one True/False per element: ambiguous for `if`
        return 0.5 * diff**2 / beta
    return diff - 0.5 * beta


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
inputs, targets = torch.randn(32, 6), torch.randn(32, 1)

for step in range(3):
    loss = smooth_l1(model(inputs), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
