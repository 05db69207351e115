"""bce-input-range: nn.BCELoss fed the model's raw scores (logits) instead of probabilities.

The binary classifier ends in nn.Linear(16, 1), so its outputs are unbounded logits; nn.BCELoss
takes the log of its input and first checks that every value lies in [0, 1], which raw scores do
not. `--fixed` keeps the logits and uses nn.BCEWithLogitsLoss, which applies the sigmoid inside the
loss in a numerically stable way.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))  # logits, no sigmoid
criterion = nn.BCEWithLogitsLoss() if fixed else nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

x = torch.randn(64, 8)
y = (x[:, 0] > 0).float().unsqueeze(1)
for step in range(1, 4):
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    print(f"step {step} | loss {loss.item():.4f}")
