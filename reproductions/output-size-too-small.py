"""output-size-too-small: a VGG-style net designed for 32x32 images, fed 28x28 MNIST digits.

The network halves the feature map five times, which takes 32x32 down to 1x1. A 28x28 digit goes
28 -> 14 -> 7 -> 3 -> 1, and the fifth MaxPool2d(2) gets a 1x1 map: "Given input size: (128x1x1).
Calculated output size: (128x0x0). Output size is too small". `--fixed` pads the digits to 32x32
(the classic LeNet trick), so every pooling layer gets a map at least 2x2.
"""

import torch
import torch.nn.functional as F
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


def block(c_in: int, c_out: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))


model = nn.Sequential(
    block(1, 16),  # 32 -> 16
    block(16, 32),  # 16 -> 8
    block(32, 64),  # 8 -> 4
    block(64, 128),  # 4 -> 2
    block(128, 128),  # 2 -> 1
    nn.Flatten(),
    nn.Linear(128, 10),
)

digits = torch.rand(16, 1, 28, 28)  # a batch of MNIST-sized images
if fixed:
    digits = F.pad(digits, (2, 2, 2, 2))  # 28x28 -> 32x32, the size the network was built for
logits = model(digits)
print("input:", tuple(digits.shape), "logits:", tuple(logits.shape))
