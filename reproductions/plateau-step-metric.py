"""plateau-step-metric: ReduceLROnPlateau stepped like every other scheduler, with no value.

StepLR or CosineAnnealingLR are stepped with `scheduler.step()`; ReduceLROnPlateau decides from a
metric whether training has stalled, so its step needs that metric (usually the validation loss).
`--fixed` passes the validation loss: `scheduler.step(val_loss)`.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=1)
x, y = torch.randn(64, 4), torch.randn(64, 1)
xv, yv = torch.randn(32, 4), torch.randn(32, 1)

for epoch in range(1, 4):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        val_loss = nn.functional.mse_loss(model(xv), yv).item()
    if fixed:
        scheduler.step(val_loss)
    else:
        scheduler.step()
    lr = optimizer.param_groups[0]["lr"]
    print(f"epoch {epoch} | loss {loss.item():.4f} | val_loss {val_loss:.4f} | lr {lr}")
