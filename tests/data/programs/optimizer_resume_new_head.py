# expect: optimizer-state-mismatch
import os
import tempfile

import torch
import torch.nn as nn

ckpt = os.path.join(tempfile.mkdtemp(), "last.pt")

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
model(torch.randn(4, 10)).sum().backward()
opt.step()
torch.save({"model": model.state_dict(), "optimizer": opt.state_dict()}, ckpt)

# resume training, now with a classifier head on top
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
state = torch.load(ckpt)
model.load_state_dict(state["model"], strict=False)
opt.load_state_dict(state["optimizer"])
print("resumed")
