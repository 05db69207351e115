# expect: bce-input-range
# After "all elements of input should be between 0 and 1" reports: nn.BCELoss on raw logits, the
# training loop drawing a tqdm-style bar with carriage returns before it fails.
import sys

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 1))
criterion = nn.BCELoss()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
n = 20
for epoch in range(3):
    for i in range(n):
        x = torch.randn(32, 10)
        y = (x[:, 0] > 0).float().unsqueeze(1)
        out = model(x)
        loss = criterion(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        done = (i + 1) * 20 // n
        sys.stderr.write(f"\rEpoch {epoch}: {100 * (i + 1) // n:3d}%|{'█' * done}{' ' * (20 - done)}| {i + 1}/{n} [loss={loss.item():.3f}]")
    sys.stderr.write("\n")
