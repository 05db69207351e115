# expect: bce-target-size
import torch
import torch.nn as nn

model = nn.Linear(20, 1)
x = torch.randn(32, 20)
y = torch.randint(0, 2, (32,)).float()
loss = nn.BCEWithLogitsLoss()(model(x), y)
