"""loss-all-zero: nn.CrossEntropyLoss on a binary classifier that outputs a single logit.

The model ends in `nn.Linear(..., 1)` and the labels are float 0/1 of shape [N, 1], as for
BCEWithLogitsLoss, but the loss is `nn.CrossEntropyLoss`. Since torch 1.10 a float target of the
input's shape is read as class probabilities, so no error is raised; with one class, softmax over
that class is always 1, its log is 0, and the loss is exactly 0 (torch prints -0.) for every
batch. The gradient is 0 too, so the model never learns.

`--fixed` uses `nn.BCEWithLogitsLoss`, the loss for one logit per sample: it starts near
log(2) = 0.69 and falls.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.set_num_threads(1)  # a tiny model: extra threads only add overhead and nondeterminism
torch.manual_seed(0)

x = torch.randn(512, 10)
y = (x[:, 0] - x[:, 1] > 0).float().unsqueeze(1)  # shape [512, 1], float 0/1
loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))  # one logit per sample
criterion = nn.BCEWithLogitsLoss() if fixed else nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(1, 11):
    total = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
    print(f"Epoch {epoch}/10 - loss: {total / len(x):.4f}")
