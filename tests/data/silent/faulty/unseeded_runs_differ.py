# expect: results-not-reproducible
# fault-step: 0
# source: https://github.com/pytorch/pytorch/issues/31246
# summary: no seed anywhere: the weights, the shuffling and the random numbers drawn while loading differ on every run, so two runs of one script never agree
import random

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

import diagnoser


class ScaleAugmented(Dataset):
    def __init__(self, n: int = 64) -> None:
        self.x = torch.linspace(-1, 1, n)[:, None].repeat(1, 8)
        self.y = (self.x.sum(1) > 0).long()

    def __len__(self) -> int:
        return len(self.y)

    def __getitem__(self, i: int):
        return self.x[i] * random.uniform(0.8, 1.2), self.y[i]


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(ScaleAugmented(), batch_size=8, shuffle=True)
print(diagnoser.preflight(model, loader, nn.CrossEntropyLoss(), optimizer))
with diagnoser.watch(model) as w:
    for x, y in loader:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        w.step(loss)
