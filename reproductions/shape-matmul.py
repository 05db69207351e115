"""shape-matmul: a classifier head whose in_features was computed for another input size.

The conv stack turns a 1x28x28 image into 16 channels of 2x2 = 64 features, but the head was
written for 128 (as if the images were larger). `--fixed` lets nn.LazyLinear infer the size.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

head = nn.LazyLinear(10) if fixed else nn.Linear(128, 10)
model = nn.Sequential(
    nn.Conv2d(1, 16, kernel_size=5),
    nn.ReLU(),
    nn.MaxPool2d(4),  # 28 -> 24 -> 6
    nn.Conv2d(16, 16, kernel_size=3),
    nn.ReLU(),
    nn.MaxPool2d(2),  # 6 -> 4 -> 2
    nn.Flatten(),
    head,
)
images = torch.randn(32, 1, 28, 28)
logits = model(images)
print("logits:", tuple(logits.shape))
