# expect: weights-only-load
# The checkpoint also stores the training config as a dataclass; torch.load's default
# weights_only=True (torch >= 2.6) refuses to unpickle the user's class.
import os
import tempfile
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class TrainConfig:
    lr: float = 3e-4
    batch_size: int = 32
    hidden: int = 128


cfg = TrainConfig()
model = nn.Linear(cfg.hidden, 10)
path = os.path.join(tempfile.mkdtemp(), "last.pt")
torch.save({"model": model.state_dict(), "config": cfg, "epoch": 12}, path)

state = torch.load(path, map_location="cpu")
model.load_state_dict(state["model"])
print("resumed from epoch", state["epoch"])
