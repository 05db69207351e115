"""loss-oscillates: Adam with a learning rate fifty times too large for this classifier.

Every step overshoots the minimum it is heading for, so the loss printed every 20 steps jumps
between almost 0 and several units instead of settling: the run makes no net progress although
nothing diverges to inf or nan. `--fixed` uses Adam's usual learning rate, 1e-3: the loss falls
and stays low.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

centers = torch.randn(10, 32) * 2
labels = torch.randint(0, 10, (4096,))
x = centers[labels] + torch.randn(4096, 32) * 2.5  # ten overlapping clusters
loader = DataLoader(TensorDataset(x, labels), batch_size=32, shuffle=True)

model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 10))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3 if fixed else 0.05)
criterion = nn.CrossEntropyLoss()

step = 0
for epoch in range(1, 4):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        step += 1
        if step % 20 == 0:
            print(f"epoch {epoch} | step {step:3d} | loss {loss.item():.4f}")
