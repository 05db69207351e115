# expect: state-dict-mismatch
# The model was wrapped in torch.compile for training and its state_dict saved from the compiled
# wrapper (keys start with "_orig_mod."); the inference script loads it into a plain model.
import os
import tempfile

import torch
import torch.nn as nn


def build():
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))


ckpt = os.path.join(tempfile.mkdtemp(), "best.pt")

# train.py
model = torch.compile(build())
torch.save(model.state_dict(), ckpt)

# predict.py
model = build()
model.load_state_dict(torch.load(ckpt))
model.eval()
