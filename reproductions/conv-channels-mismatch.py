"""conv-channels-mismatch: channels-last NumPy images fed straight into a Conv2d.

The images come from NumPy (as PIL, OpenCV or a TensorFlow pipeline gives them): a batch of shape
(N, H, W, C) = (8, 32, 32, 3). `torch.from_numpy` keeps that layout, and Conv2d reads dim 1 as the
channels, so it sees 32 channels where it expects 3: "expected input[8, 32, 32, 3] to have 3
channels, but got 32 channels instead". `--fixed` moves the channels to dim 1 with
`permute(0, 3, 1, 2)`, giving (N, C, H, W).
"""

import torch
from _common import fixed_flag, not_installed
from torch import nn

fixed = fixed_flag(__doc__)

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

torch.manual_seed(0)

model = nn.Sequential(
    nn.Conv2d(3, 16, kernel_size=3, padding=1),
    nn.BatchNorm2d(16),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(16, 10),
)

rng = np.random.default_rng(0)
images = rng.integers(0, 256, size=(8, 32, 32, 3), dtype=np.uint8)  # (N, H, W, C), like PIL/cv2
x = torch.from_numpy(images).float() / 255
if fixed:
    x = x.permute(0, 3, 1, 2)  # (N, H, W, C) -> (N, C, H, W)
logits = model(x)
print("input:", tuple(x.shape), "logits:", tuple(logits.shape))
