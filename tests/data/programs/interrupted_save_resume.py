# expect: checkpoint-corrupted
import os
import tempfile

import torch
import torch.nn as nn

path = os.path.join(tempfile.mkdtemp(), "last.ckpt")
torch.save({"model": nn.Linear(256, 256).state_dict(), "epoch": 7}, path)
# the job was killed by the cluster while writing the checkpoint
with open(path, "r+b") as f:
    f.truncate(os.path.getsize(path) // 2)

state = torch.load(path, map_location="cpu")
