"""result-type-cast: integer multi-label targets fed to BCEWithLogitsLoss.

A multi-label tagger (5 independent tags per sample) keeps its 0/1 label matrix as int64, the
default for integer NumPy arrays. BCEWithLogitsLoss computes with the target, and its float result
cannot be written back into a Long tensor, so torch raises "result type Float can't be cast to the
desired output type Long". `--fixed` makes the targets float (`.float()`), as the loss expects.
"""

import torch
from _common import fixed_flag, not_installed
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)

X = rng.normal(size=(256, 10)).astype(np.float32)
tags = (X[:, :5] + 0.3 * rng.normal(size=(256, 5)) > 0).astype(np.int64)  # 0/1 per tag

targets = torch.from_numpy(tags)
if fixed:
    targets = targets.float()  # BCE targets are probabilities: float, same shape as the logits

loader = DataLoader(TensorDataset(torch.from_numpy(X), targets), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 5))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.BCEWithLogitsLoss()

for xb, yb in loader:
    optimizer.zero_grad()
    loss = criterion(model(xb), yb)
    loss.backward()
    optimizer.step()

print(f"one epoch; targets {targets.dtype}, last loss {loss.item():.4f}")
