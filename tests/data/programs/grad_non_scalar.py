# expect: grad-non-scalar
import torch
import torch.nn as nn

model = nn.Linear(10, 2)
x = torch.randn(4, 10)
y = torch.randn(4, 2)
loss = nn.MSELoss(reduction="none")(model(x), y)
loss.backward()
