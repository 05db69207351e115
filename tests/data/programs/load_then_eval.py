# expect: model-is-state-dict
import os
import tempfile

import torch
import torch.nn as nn

path = os.path.join(tempfile.mkdtemp(), "model.pt")
torch.save(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).state_dict(), path)

# inference script
model = torch.load(path, map_location="cpu")
model.eval()
print(model(torch.randn(1, 4)))
