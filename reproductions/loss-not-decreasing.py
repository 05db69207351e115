"""loss-not-decreasing: optimizer.zero_grad() called between loss.backward() and optimizer.step().

The loop computes the loss, runs backward, and then clears the gradients "to be safe" before
stepping. `optimizer.step()` therefore sees all-zero gradients and changes nothing: the weights
never move, every epoch's loss and accuracy are the same numbers, and no error is raised.

`--fixed` clears the gradients at the start of the iteration (before backward), so the step uses
the gradients that backward just computed: the loss falls and the accuracy rises.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

x = torch.randn(512, 16)
y = (x[:, :4].sum(1) > 0).long()  # a learnable two-class problem
loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss()

for epoch in range(1, 11):
    total, correct = 0.0, 0
    for xb, yb in loader:
        if fixed:
            optimizer.zero_grad()  # clear last step's gradients *before* backward
        logits = model(xb)
        loss = criterion(logits, yb)
        loss.backward()
        if not fixed:
            optimizer.zero_grad()  # the mistake: wipes the gradients backward just computed
        optimizer.step()
        total += loss.item() * len(xb)
        correct += (logits.argmax(1) == yb).sum().item()
    print(f"epoch {epoch:2d} | loss {total / len(x):.4f} | acc {correct / len(x):.3f}")
