# expect: model-is-state-dict
# Training saved model.state_dict(); the prediction script does model = torch.load(...) and calls
# the result as if it were the model.
import os
import tempfile

import torch
import torch.nn as nn

path = os.path.join(tempfile.mkdtemp(), "model.pth")
torch.save(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)).state_dict(), path)

model = torch.load(path)
sample = torch.tensor([[5.1, 3.5, 1.4, 0.2]])
with torch.no_grad():
    probs = torch.softmax(model(sample), dim=1)
print(probs)
