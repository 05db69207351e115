"""bce-target-size: a binary classifier with one output unit and labels of shape (N,).

`nn.Linear(hidden, 1)` returns logits of shape (16, 1), while the DataLoader yields one label per
sample, shape (16,). BCEWithLogitsLoss compares them element by element and refuses: "Target size
(torch.Size([16])) must be the same as input size (torch.Size([16, 1]))". `--fixed` squeezes the
output dimension with `logits.squeeze(1)`, so both are (16,).
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

features = torch.randn(64, 10)
labels = (features[:, 0] > 0).float()  # one 0/1 label per sample: shape (64,)
loader = DataLoader(TensorDataset(features, labels), batch_size=16, shuffle=True)

model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 1))
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(2):
    for x, y in loader:
        logits = model(x)  # shape (16, 1)
        if fixed:
            logits = logits.squeeze(1)  # (16, 1) -> (16,), same shape as y
        loss = criterion(logits, y)  # the mistake (unfixed): (16, 1) against (16,)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch + 1}: loss {loss.item():.4f}")
