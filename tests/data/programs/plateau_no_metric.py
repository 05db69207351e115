# expect: plateau-step-metric
import torch
import torch.nn as nn

m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
for epoch in range(2):
    opt.step()
    sched.step()
