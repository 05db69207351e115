"""overfitting: a large MLP trained for hundreds of epochs on 200 noisy samples, unregularised.

The network has far more weights than there are training samples, a fifth of the training
labels are wrong, and nothing holds it back (no weight decay, no dropout, no early stopping): it
memorises the training set, so train_loss falls towards 0 while val_loss, after a few epochs,
rises and keeps rising, and val_acc stops improving.

`--fixed` keeps the same data and budget but adds dropout, weight decay (AdamW) and early
stopping on val_loss (restoring the best weights): training stops when validation stops
improving, and val_loss stays close to train_loss.
"""

import copy

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.set_num_threads(1)  # a tiny model: extra threads only add overhead and nondeterminism
torch.manual_seed(0)


def make_data(n: int, noise: float) -> tuple[torch.Tensor, torch.Tensor]:
    x = torch.randn(n, 5)
    y = (x[:, 0] + x[:, 1] > 0).long()
    flip = torch.rand(n) < noise
    return x, torch.where(flip, 1 - y, y)


x_train, y_train = make_data(200, noise=0.2)  # small and noisy
x_val, y_val = make_data(500, noise=0.2)

drop = 0.5 if fixed else 0.0
model = nn.Sequential(
    nn.Linear(5, 256),
    nn.ReLU(),
    nn.Dropout(drop),
    nn.Linear(256, 256),
    nn.ReLU(),
    nn.Dropout(drop),
    nn.Linear(256, 2),
)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.1 if fixed else 0.0)
criterion = nn.CrossEntropyLoss()

best_val, best_state, patience, bad_epochs = float("inf"), None, 5, 0
for epoch in range(1, 201):
    model.train()
    optimizer.zero_grad()
    loss = criterion(model(x_train), y_train)  # full batch: the whole training set is 200 rows
    loss.backward()
    optimizer.step()

    model.eval()
    with torch.no_grad():
        train_loss = criterion(model(x_train), y_train).item()
        val_logits = model(x_val)
        val_loss = criterion(val_logits, y_val).item()
        val_acc = (val_logits.argmax(1) == y_val).float().mean().item()
    if epoch <= 5 or epoch % 25 == 0 or fixed:
        print(
            f"epoch {epoch:3d} | train_loss {train_loss:.4f} | val_loss {val_loss:.4f} "
            f"| val_acc {val_acc:.3f}"
        )

    if fixed:  # early stopping on val_loss
        if val_loss < best_val - 1e-4:
            best_val, best_state, bad_epochs = val_loss, copy.deepcopy(model.state_dict()), 0
        else:
            bad_epochs += 1
            if bad_epochs >= patience:
                print(f"early stop at epoch {epoch}: no val improvement in {patience} epochs")
                break

if best_state is not None:
    model.load_state_dict(best_state)  # keep the weights from the best validation epoch
