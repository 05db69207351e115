# expect: backward-twice
import torch
import torch.nn as nn

G = nn.Linear(4, 4)
D = nn.Linear(4, 1)
z = torch.randn(8, 4)
fake = G(z)
d_loss = D(fake).mean()
d_loss.backward()
g_loss = -D(fake).mean()
g_loss.backward()
loss_total = d_loss + g_loss
loss_total.backward()
