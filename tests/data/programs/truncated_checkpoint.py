# expect: checkpoint-corrupted
import os
import tempfile

import torch

path = os.path.join(tempfile.mkdtemp(), "best.pt")
torch.save({"w": torch.zeros(1000)}, path)
with open(path, "r+b") as f:  # the copy from the server stopped half-way
    f.truncate(os.path.getsize(path) // 2)
state = torch.load(path)
