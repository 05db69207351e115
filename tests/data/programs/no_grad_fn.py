# expect: no-grad-fn
import torch
import torch.nn as nn

model = nn.Linear(3, 1)
with torch.no_grad():
    loss = model(torch.randn(4, 3)).pow(2).mean()
loss.backward()
