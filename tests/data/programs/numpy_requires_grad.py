# expect: numpy-requires-grad
import torch
import torch.nn as nn

model = nn.Linear(3, 1)
preds = model(torch.randn(5, 3))
import numpy as np

print(np.mean(preds.numpy()))
