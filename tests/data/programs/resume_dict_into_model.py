# expect: state-dict-mismatch
import os
import tempfile

import torch
import torch.nn as nn

path = os.path.join(tempfile.mkdtemp(), "checkpoint_epoch5.pth")
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
opt = torch.optim.Adam(model.parameters())
torch.save({"epoch": 5, "model_state": model.state_dict(), "opt_state": opt.state_dict()}, path)

# evaluation script
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
model.load_state_dict(torch.load(path))
