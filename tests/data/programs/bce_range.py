# expect: bce-input-range
import torch
import torch.nn as nn

scores = torch.randn(6, 1) * 3
targets = torch.ones(6, 1)
loss = nn.BCELoss()(scores, targets)
