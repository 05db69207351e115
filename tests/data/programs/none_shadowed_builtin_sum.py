# expect: none
# A variable named sum shadows the builtin, then sum() is called: TypeError: 'float' object is not
# callable. Plain Python in a training loop.
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
losses = []
sum = 0.0
for step in range(5):
    loss = nn.functional.mse_loss(model(torch.randn(8, 4)), torch.randn(8, 1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    sum += loss.item()
print("mean loss", sum(losses) / len(losses))
