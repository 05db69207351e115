# expect: dtype-mismatch
# After "Input type (unsigned char) and bias type (float) should be the same" reports: raw image
# bytes read with np.frombuffer (torch warns the array is not writable first), fed to a conv
# without converting to float.
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

path = os.path.join(tempfile.mkdtemp(), "frames.raw")
with open(path, "wb") as f:
    f.write(np.random.default_rng(0).integers(0, 255, 4 * 3 * 32 * 32, dtype=np.uint8).tobytes())

with open(path, "rb") as f:
    raw = np.frombuffer(f.read(), dtype=np.uint8)
frames = torch.from_numpy(raw).view(4, 3, 32, 32)

model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 2))
print(model(frames).softmax(dim=1))
