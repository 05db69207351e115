# expect: none
# Correct: a regression with a tqdm-like progress line per epoch (carriage returns) and a summary
# with train and validation MSE falling together.
import sys

import torch
import torch.nn as nn

torch.manual_seed(2)
X = torch.rand(800, 4)
Y = X @ torch.tensor([[2.0], [-1.0], [0.5], [3.0]]) + 0.1 * torch.randn(800, 1)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
steps = 20
for epoch in range(1, 6):
    for s in range(steps):
        idx = torch.randint(0, 600, (32,))
        loss = nn.functional.mse_loss(model(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        bar = "#" * ((s + 1) * 20 // steps)
        sys.stdout.write(f"\rEpoch {epoch}: {bar:<20} {s + 1}/{steps} loss={loss.item():.4f}")
    with torch.no_grad():
        train_mse = nn.functional.mse_loss(model(X[:600]), Y[:600]).item()
        val_mse = nn.functional.mse_loss(model(X[600:]), Y[600:]).item()
    print(f"\nepoch {epoch} train_mse={train_mse:.4f} val_mse={val_mse:.4f}")
