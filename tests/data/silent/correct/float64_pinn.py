# summary: a physics-informed network in float64 (model.double()): the loss uses autograd.grad of the output with respect to the input (create_graph=True), Adam
import torch
from torch import nn

import diagnoser

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1)).double()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
with diagnoser.watch(model) as w:
    for step in range(8):
        x = torch.rand(64, 1, dtype=torch.float64, requires_grad=True) * 2 - 1
        u = model(x)
        du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
        residual = du + u  # u' = -u
        boundary = model(torch.zeros(1, 1, dtype=torch.float64)) - 1.0
        loss = residual.pow(2).mean() + boundary.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        w.step(loss)
