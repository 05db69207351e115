"""dtype-mismatch: float64 features from NumPy fed to a float32 model.

A tabular regression: the feature matrix is built with NumPy, whose default dtype is float64, and
`torch.from_numpy` keeps it, so the first nn.Linear (float32 weights, PyTorch's default) gets a
Double input against Float weights. `--fixed` casts the data to float32 where it enters PyTorch
(`torch.from_numpy(X).float()`).
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
rng = np.random.default_rng(0)

X = rng.normal(size=(256, 8))  # float64, as everything NumPy makes by default
y = X @ rng.normal(size=(8, 1)) + 0.1 * rng.normal(size=(256, 1))

features, targets = torch.from_numpy(X), torch.from_numpy(y)
if fixed:
    features, targets = features.float(), targets.float()

loader = DataLoader(TensorDataset(features, targets), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.MSELoss()

for _ in range(3):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
print(f"trained 3 epochs on {features.dtype} features; last batch loss {loss.item():.4f}")
