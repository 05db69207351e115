# expect: grad-non-scalar
import torch
import torch.nn as nn

model = nn.Linear(10, 1)
crit = nn.BCEWithLogitsLoss(reduction="none")  # to weight the positives
x = torch.randn(32, 10)
y = torch.randint(0, 2, (32, 1)).float()
weights = torch.where(y == 1, 5.0, 1.0)
loss = crit(model(x), y) * weights
loss.backward()
