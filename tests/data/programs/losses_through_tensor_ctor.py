# expect: no-grad-fn
import torch
import torch.nn as nn

model = nn.Linear(10, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = nn.CrossEntropyLoss()
x = torch.randn(16, 10)
y = torch.randint(0, 3, (16,))

losses = []
for chunk_x, chunk_y in zip(x.split(4), y.split(4)):
    losses.append(crit(model(chunk_x), chunk_y).item())
loss = torch.tensor(losses).mean()
opt.zero_grad()
loss.backward()
opt.step()
