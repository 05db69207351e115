# expect: stale-gradients
# fault-step: 1
# source: https://stackoverflow.com/questions/48001598/why-do-we-need-to-call-zero-grad-in-pytorch
# summary: a training loop with loss.backward() and optimizer.step() but no zero_grad(): each step re-applies every earlier gradient
import torch
from torch import nn

import diagnoser

torch.manual_seed(0)
W = torch.randn(4, 3)
data = torch.randn(64, 4)
targets = data @ W + 0.1 * torch.randn(64, 3)
model = nn.Linear(4, 3)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.MSELoss()

with diagnoser.watch(model) as w:
    for i in range(0, 64, 8):
        sample, target = data[i : i + 8], targets[i : i + 8]
        output = model(sample)
        loss = loss_fn(output, target)
        loss.backward()
        optimizer.step()
        w.step(loss)
