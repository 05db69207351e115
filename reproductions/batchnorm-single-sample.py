"""batchnorm-single-sample: the last batch of the epoch holds one sample, and BatchNorm1d fails.

65 training samples with batch_size=16 make four full batches and a last batch of 1. In training
mode BatchNorm needs more than one value per channel to compute a variance, so the epoch ends with
"Expected more than 1 value per channel when training, got input size torch.Size([1, 64])".
`--fixed` passes drop_last=True to the DataLoader, so every batch has 16 samples.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

features = torch.randn(65, 20)
labels = torch.randint(0, 3, (65,))
loader = DataLoader(TensorDataset(features, labels), batch_size=16, shuffle=True, drop_last=fixed)

model = nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss()

model.train()
for x, y in loader:
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
print(f"epoch done, {len(loader)} batches, last loss {loss.item():.4f}")
