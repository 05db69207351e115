# expect: batchnorm-single-sample
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 2))
data = TensorDataset(torch.randn(33, 8), torch.randint(0, 2, (33,)))
opt = torch.optim.Adam(model.parameters())
for x, y in DataLoader(data, batch_size=16):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
