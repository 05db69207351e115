# expect: weights-only-load
import argparse
import io

import torch
import torch.nn as nn

args = argparse.Namespace(lr=0.1, epochs=3)
model = nn.Linear(2, 2)
buf = io.BytesIO()
torch.save({"model": model.state_dict(), "args": args, "epoch": 3}, buf)
buf.seek(0)
ckpt = torch.load(buf)
model.load_state_dict(ckpt["model"])
