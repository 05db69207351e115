# expect: optimizer-step-no-update
# fault-step: 0
# source: https://velog.io/@rhss10/기본-optimizer.zerograd는-어디에-넣어주어야-할까
# summary: optimizer.zero_grad() placed between loss.backward() and optimizer.step(): every step runs on cleared gradients and the weights never move
import torch
from torch import nn

import diagnoser

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)
with diagnoser.watch(model) as w:
    for _ in range(6):
        x, y = torch.randn(16, 10), torch.randint(0, 2, (16,))
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.zero_grad()
        optimizer.step()
        scheduler.step()
        w.step(loss)
