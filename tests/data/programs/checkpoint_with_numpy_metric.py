# expect: weights-only-load
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
model = nn.Linear(4, 2)
val_scores = np.array([0.71, 0.74, 0.78])
torch.save({"state_dict": model.state_dict(), "best_acc": val_scores.max(), "epoch": 12}, path)

ckpt = torch.load(path)
model.load_state_dict(ckpt["state_dict"])
print("resumed from epoch", ckpt["epoch"], "best", ckpt["best_acc"])
