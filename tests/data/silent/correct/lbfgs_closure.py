# summary: full-batch regression with torch.optim.LBFGS and a closure that zeroes the gradients, computes the loss and backpropagates (several function evaluations per step)
import torch
from torch import nn

import diagnoser

torch.manual_seed(0)
x = torch.linspace(-2, 2, 128)[:, None]
y = torch.sin(2 * x) + 0.05 * torch.randn_like(x)
model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, history_size=10, line_search_fn="strong_wolfe")
print(diagnoser.preflight(model, (x, y), nn.MSELoss(), optimizer))
with diagnoser.watch(model) as w:
    for step in range(5):
        def closure():
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            return loss

        loss = optimizer.step(closure)
        w.step(loss)
