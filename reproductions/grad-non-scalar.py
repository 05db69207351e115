"""grad-non-scalar: backward() on a per-sample loss (reduction="none") that was never reduced.

To weight the samples of an imbalanced data set, the criterion is built with reduction="none",
which returns one loss per sample (shape [64]), and each is multiplied by its weight. The
reduction to one number was forgotten, so `loss.backward()` is called on a 64-element tensor and
torch cannot create the starting gradient: "grad can be implicitly created only for scalar
outputs".

`--fixed` reduces the weighted per-sample losses to a scalar (a weighted mean) before backward.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss(reduction="none")  # one loss per sample
class_weight = torch.tensor([0.2, 0.8])

inputs = torch.randn(64, 10)
targets = (torch.rand(64) < 0.2).long()  # imbalanced: about 20% positives

for step in range(3):
    per_sample = criterion(model(inputs), targets)  # shape [64]
    weights = class_weight[targets]
    weighted = per_sample * weights  # still shape [64]
    loss = weighted.sum() / weights.sum() if fixed else weighted  # fixed: a scalar
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
