# expect: tensor-format-string
import torch
import torch.nn as nn

model = nn.Linear(10, 1)
x, y = torch.randn(64, 10), torch.randn(64, 1)
crit = nn.MSELoss(reduction="none")
for epoch in range(2):
    loss = crit(model(x), y)
    print("epoch {} loss {:.4f}".format(epoch, loss.mean(1)))
