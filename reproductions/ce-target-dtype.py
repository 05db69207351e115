"""ce-target-dtype: class labels kept as float, so CrossEntropyLoss rejects the target.

A tabular classifier reads one numeric table whose last column is the class id (0, 1 or 2). The
whole table is turned into a float32 tensor and sliced into features and labels, so the labels
are Float (0.0, 1.0, 2.0) and nn.CrossEntropyLoss, which reads a [N] target as class indices,
refuses them ("expected target dtype to be Long or Byte, but got Float"; older torch: "expected
scalar type Long but found Float"). `--fixed` casts the label column with `.long()`.
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

# 300 rows: 4 features, then the class id in the last column (as in a CSV file).
features = rng.normal(size=(300, 4))
classes = (features[:, 0] > 0).astype(int) + (features[:, 1] > 0.5).astype(int)
table = np.column_stack([features, classes])

data = torch.tensor(table, dtype=torch.float32)
X, y = data[:, :-1], data[:, -1]  # y: tensor([1., 0., 2., ...]), dtype float32
if fixed:
    y = y.long()  # class indices must be int64

loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.CrossEntropyLoss()

for _ in range(3):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()

print(f"trained 3 epochs; last loss {loss.item():.4f}, target dtype {y.dtype}")
