"""broadcast-mismatch: normalising an image batch with per-channel mean and std of shape (3,).

Broadcasting aligns shapes from the last dimension, so a (3,) vector meets the image width (32)
of a (64, 3, 32, 32) batch, not its channels: "The size of tensor a (32) must match the size of
tensor b (3) at non-singleton dimension 3". `--fixed` gives mean and std the shape (1, 3, 1, 1),
so they line up with the channel dimension and repeat over batch, height and width.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

mean = torch.tensor([0.4914, 0.4822, 0.4465])  # CIFAR-10 channel statistics
std = torch.tensor([0.2470, 0.2435, 0.2616])
if fixed:
    mean, std = mean.view(1, 3, 1, 1), std.view(1, 3, 1, 1)

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10))
images = torch.rand(64, 3, 32, 32)  # a batch straight from ToTensor(): values in [0, 1]
images = (images - mean) / std  # the mistake: (64, 3, 32, 32) - (3,)
logits = model(images)
print("normalised batch:", tuple(images.shape), "logits:", tuple(logits.shape))
