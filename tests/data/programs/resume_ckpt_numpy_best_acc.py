# expect: weights-only-load
# After https://github.com/deepmodeling/deepmd-kit/pull/4147 and
# https://github.com/suno-ai/bark/pull/653 (Weights only load failed ... Unsupported global:
# numpy.core.multiarray.scalar): a metric kept as a numpy float inside the checkpoint.
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

model = nn.Linear(8, 2)
optimizer = torch.optim.Adam(model.parameters())
val_scores = np.array([0.61, 0.74, 0.72])
path = os.path.join(tempfile.mkdtemp(), "last.ckpt")
torch.save(
    {
        "epoch": 3,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "best_acc": val_scores.max(),
    },
    path,
)
print("checkpoint written")

# --- resume ---
ckpt = torch.load(path)
model.load_state_dict(ckpt["model"])
optimizer.load_state_dict(ckpt["optimizer"])
print("resumed from epoch", ckpt["epoch"], "best", ckpt["best_acc"])
