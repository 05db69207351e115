"""checkpoint-write-failed: torch.save into a folder that was never created.

The training script saves its checkpoints as `checkpoints/epoch_1.pt`, a path relative to the
current directory. On the author's machine that folder existed; in a fresh clone, a new output
directory or another working directory it does not, and torch.save does not create folders: "Parent
directory checkpoints does not exist." (older releases: "File checkpoints/epoch_1.pt cannot be
opened."). The run dies at the end of its first epoch, after all the training time. A full disk, a
quota or a read-only mount fail in the same torch.save ("PytorchStreamWriter failed writing file
...: file write failed", "unexpected pos ...").

`--fixed` creates the folder first with os.makedirs(..., exist_ok=True).
"""

import os
import tempfile

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(128, 32), torch.randint(0, 4, (128,))

with tempfile.TemporaryDirectory() as fresh_clone:
    os.chdir(fresh_clone)  # a new working directory: no checkpoints/ folder in it
    ckpt_dir = "checkpoints"
    if fixed:
        os.makedirs(ckpt_dir, exist_ok=True)
    for epoch in range(1, 3):
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.save(
            {"epoch": epoch, "model": model.state_dict(), "optimizer": optimizer.state_dict()},
            os.path.join(ckpt_dir, f"epoch_{epoch}.pt"),
        )
        print(f"epoch {epoch}: loss {loss.item():.3f}, saved {ckpt_dir}/epoch_{epoch}.pt")
    os.chdir(os.path.dirname(fresh_clone))
