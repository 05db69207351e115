"""underfitting: a linear classifier for classes whose boundaries are curved.

The four classes are separated by wavy boundaries (a sine of the other coordinate); a single
nn.Linear can only draw straight lines. The loss falls for two epochs and then levels off high,
and the training accuracy stays near the validation accuracy, both around 0.6: the model is too
weak for the task even on the data it trains on. `--fixed` gives the model two hidden layers; the
same data and optimizer reach about 0.95.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)


def make(n: int) -> tuple[torch.Tensor, torch.Tensor]:
    x = torch.randn(n, 2) * 1.5
    above = (x[:, 0] + 1.5 * torch.sin(2 * x[:, 1]) > 0).long()
    right = (x[:, 1] + 1.5 * torch.sin(2 * x[:, 0]) > 0).long()
    return x, 2 * above + right


x, y = make(4000)
x_val, y_val = make(1000)
loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)

if fixed:
    hidden = 64
    model = nn.Sequential(
        nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 4)
    )
else:
    model = nn.Linear(2, 4)  # the mistake: straight boundaries only
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.CrossEntropyLoss()

for epoch in range(1, 16):
    total, correct = 0.0, 0
    for xb, yb in loader:
        optimizer.zero_grad()
        logits = model(xb)
        loss = criterion(logits, yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
        correct += (logits.argmax(1) == yb).sum().item()
    with torch.no_grad():
        val_acc = (model(x_val).argmax(1) == y_val).float().mean().item()
    print(
        f"epoch {epoch:2d} | loss {total / len(x):.4f} | acc {correct / len(x):.3f} "
        f"| val_acc {val_acc:.3f}"
    )
