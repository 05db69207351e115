# expect: state-dict-mismatch
# After https://github.com/bearpaw/pytorch-classification/issues/27 and
# https://github.com/NVlabs/AL-MDN/issues/8 (Error(s) in loading state_dict for DataParallel:
# Missing key(s) "module...."): weights saved from a plain model, loaded into a DataParallel one.
import os
import tempfile

import torch
import torch.nn as nn


def build_model():
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))


ckpt = os.path.join(tempfile.mkdtemp(), "best.pth")
# train.py (single GPU) saved this
torch.save({"epoch": 12, "state_dict": build_model().state_dict()}, ckpt)

# evaluate.py
model = build_model()
model = nn.DataParallel(model)
checkpoint = torch.load(ckpt, map_location="cpu")
model.load_state_dict(checkpoint["state_dict"])
model.eval()
print(model(torch.randn(2, 20)))
