# expect: checkpoint-not-downloaded
import os
import tempfile

import torch

# what `git clone` leaves behind when git-lfs is not installed
path = os.path.join(tempfile.mkdtemp(), "pytorch_model.bin")
with open(path, "w") as f:
    f.write(
        "version https://git-lfs.github.com/spec/v1\n"
        "oid sha256:3f0c3b9a8e6d1d5c0f2b7f0e0e2c6b0b3a7a3d9e2c8f1b7d4e6a9c0b1d2e3f4a\n"
        "size 440473133\n"
    )
state = torch.load(path, map_location="cpu")
print(len(state))
