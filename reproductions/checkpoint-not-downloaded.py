"""checkpoint-not-downloaded: torch.load on a Git LFS pointer instead of the real weights.

A project keeps its pretrained weights in Git LFS. Cloned on a machine without git-lfs (or with
GIT_LFS_SKIP_SMUDGE=1, or downloaded as a GitHub zip), `weights/encoder.pth` is not the real
checkpoint but the three-line text file LFS leaves in its place ("version
https://git-lfs.github.com/spec/v1 / oid sha256:... / size ..."). torch.load reads it as a pickle
and stops at the first byte, 'v' (118): "Weights only load failed ... Unsupported operand 118" with
the torch >= 2.6 default weights_only=True, "invalid load key, 'v'." with weights_only=False or an
older torch. An HTML page saved instead of the file (a login or virus-scan page) starts with '<'
(60) and fails the same way.

`--fixed` checks the file's first bytes before loading, and fetches the real file when it finds a
pointer (what `git lfs pull` does; here the real checkpoint is written in its place).
"""

import os
import tempfile

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

POINTER = (
    "version https://git-lfs.github.com/spec/v1\n"
    "oid sha256:5f0e3c2b8d1a9e7f4c6b2a1d0e9f8c7b6a5d4e3f2c1b0a9f8e7d6c5b4a3f2e1d\n"
    "size 41231\n"
)


def encoder() -> nn.Module:
    return nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 32))


def git_lfs_pull(path: str) -> None:
    """Stands in for `git lfs pull`: the pointer is replaced by the real file."""
    torch.save(encoder().state_dict(), path)


def is_lfs_pointer_or_html(path: str) -> bool:
    with open(path, "rb") as f:
        head = f.read(64)
    return head.startswith(b"version https://git-lfs") or head.lstrip().startswith(b"<")


with tempfile.TemporaryDirectory() as repo:
    # --- what `git clone` left without git-lfs installed
    os.makedirs(os.path.join(repo, "weights"))
    path = os.path.join(repo, "weights", "encoder.pth")
    with open(path, "w") as f:
        f.write(POINTER)

    # --- inference.py
    if fixed and is_lfs_pointer_or_html(path):
        print(f"{path} is a Git LFS pointer ({os.path.getsize(path)} bytes): fetching it")
        git_lfs_pull(path)
    model = encoder()
    model.load_state_dict(torch.load(path, map_location="cpu"))
    print("loaded", os.path.getsize(path), "bytes; output", tuple(model(torch.randn(2, 64)).shape))
