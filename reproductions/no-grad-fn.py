"""no-grad-fn: a loss rebuilt with torch.tensor() from per-sample .item() values.

The training loop computes one loss value per sample (to log or weight them), collects them with
`.item()` and turns the list back into a tensor with `torch.tensor(...)`. `.item()` returns plain
Python floats, so the new tensor has no connection to the model: it does not require grad and has
no grad_fn, and `loss.backward()` fails with "element 0 of tensors does not require grad and does
not have a grad_fn".

`--fixed` keeps the per-sample losses as tensors (reduction="none") and averages them, so the loss
is computed from the model output and backward reaches the weights.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss(reduction="none")
inputs = torch.randn(64, 20)
targets = torch.randint(0, 3, (64,))

for step in range(3):
    logits = model(inputs)
    if fixed:
        per_sample = criterion(logits, targets)  # shape [64], still attached to the graph
        loss = per_sample.mean()
    else:
        per_sample = [criterion(logits[i : i + 1], targets[i : i + 1]).item() for i in range(64)]
        loss = torch.tensor(per_sample).mean()  # a new tensor: the graph is gone
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
