"""checkpoint-corrupted: resuming from a checkpoint whose write was cut off half-way.

The training loop saves `last.pt` at the end of every epoch, straight onto the final path. During
the second save the job dies (a time limit, the OOM killer, Ctrl-C, a node that goes away): the
process stops with only the first half of the file written. torch.save writes a zip archive whose
table of contents (the "central directory") comes last, so the half file has none, and the next run,
which resumes from `last.pt`, fails in torch.load with "PytorchStreamReader failed reading zip
archive: failed finding central directory". A download or copy that stopped early leaves the same
kind of file. Here the kill is simulated by writing only the first half of the serialized bytes.

`--fixed` saves atomically: it writes `last.pt.tmp` and then os.replace()s it over `last.pt`. The
kill now hits the temporary file, `last.pt` still holds the complete checkpoint of epoch 1, and the
resume loads it.
"""

import io
import os
import tempfile

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)


def write_file(path: str, data: bytes, killed: bool) -> None:
    with open(path, "wb") as f:
        # a killed process stops in the middle of the write (simulated: only half gets written)
        f.write(data[: len(data) // 2] if killed else data)


def save_checkpoint(state: dict, path: str, killed: bool = False) -> None:
    buffer = io.BytesIO()
    torch.save(state, buffer)
    if fixed:  # write next to the target, then swap it in: the old file stays whole until then
        write_file(path + ".tmp", buffer.getvalue(), killed)
        if not killed:
            os.replace(path + ".tmp", path)
    else:
        write_file(path, buffer.getvalue(), killed)


model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 10))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
x, y = torch.randn(64, 256), torch.randint(0, 10, (64,))

with tempfile.TemporaryDirectory() as run_dir:
    last = os.path.join(run_dir, "last.pt")
    # --- train.py: two epochs; the job is killed while it writes the second checkpoint
    for epoch in (1, 2):
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        state = {"epoch": epoch, "model": model.state_dict(), "optimizer": optimizer.state_dict()}
        save_checkpoint(state, last, killed=epoch == 2)

    # --- the next run resumes from the last checkpoint
    ckpt = torch.load(last, map_location="cpu")
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    print(f"resumed from epoch {ckpt['epoch']} ({os.path.getsize(last)} bytes)")
