# expect: stale-gradients
# fault-step: 1
# source: https://github.com/pytorch/pytorch/issues/47175
# summary: optimizer.zero_grad() called at the beginning of each epoch instead of each iteration: within an epoch every step re-applies the gradients of all earlier batches
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

import diagnoser

torch.manual_seed(0)
x = torch.randn(96, 12)
y = (x[:, :4].sum(1) > 0).long()
loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)
model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
with diagnoser.watch(model) as w:
    for epoch in range(2):
        optimizer.zero_grad()
        for xb, yb in loader:
            loss = nn.functional.cross_entropy(model(xb), yb)
            loss.backward()
            optimizer.step()
            w.step(loss)
