# expect: checkpoint-write-failed
import os
import tempfile

import torch
import torch.nn as nn

run_dir = tempfile.mkdtemp()
model = nn.Linear(4, 2)
for epoch in range(1, 3):
    # ... train ...
    torch.save(model.state_dict(), os.path.join(run_dir, "checkpoints", f"epoch_{epoch}.pt"))
