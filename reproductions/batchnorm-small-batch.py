"""batchnorm-small-batch: a BatchNorm network trained with batches of two samples.

In training mode BatchNorm normalises each feature with the mean and variance of the current
batch; over two samples those are little more than noise, so the network trains on a noisy,
batch-dependent signal while evaluation (model.eval()) uses the running averages instead. The
training-mode and eval-mode numbers disagree from the first epoch on. `--fixed` uses batches of
64; with so few samples per batch you would use GroupNorm or LayerNorm instead of BatchNorm.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

centers = torch.randn(5, 20)


def make(n: int) -> tuple[torch.Tensor, torch.Tensor]:
    labels = torch.randint(0, 5, (n,))
    return centers[labels] + 0.8 * torch.randn(n, 20), labels


x, y = make(600)
x_val, y_val = make(300)
batch_size = 64 if fixed else 2
loader = DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=True)
model = nn.Sequential(
    nn.Linear(20, 64),
    nn.BatchNorm1d(64),
    nn.ReLU(),
    nn.Linear(64, 64),
    nn.BatchNorm1d(64),
    nn.ReLU(),
    nn.Linear(64, 5),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
print(f"batch_size={batch_size} lr=1e-3")
print(model)

for epoch in range(1, 7):
    model.train()
    total, correct = 0.0, 0
    for xb, yb in loader:
        optimizer.zero_grad()
        logits = model(xb)
        loss = criterion(logits, yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
        correct += (logits.argmax(1) == yb).sum().item()
    model.eval()
    with torch.no_grad():
        logits = model(x_val)
        val_loss = criterion(logits, y_val).item()
        val_acc = (logits.argmax(1) == y_val).float().mean().item()
    print(
        f"epoch {epoch} | loss {total / len(x):.4f} | acc {correct / len(x):.3f} "
        f"| val_loss {val_loss:.4f} | val_acc {val_acc:.3f}"
    )
