# expect: batchnorm-single-sample
# After https://github.com/scverse/scvi-tools/issues/2314 and
# https://github.com/yassouali/pytorch-segmentation/issues/8 (Expected more than 1 value per
# channel when training): 65 samples, batch size 32, the last batch holds one.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

X = torch.randn(65, 12)
y = torch.randint(0, 2, (65,))
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)

model = nn.Sequential(nn.Linear(12, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    total = 0.0
    for i, (xb, yb) in enumerate(loader):
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        print(f"Epoch {epoch + 1}/3 [{i + 1}/{len(loader)}] loss: {loss.item():.4f}")
