# expect: vmap-batchnorm
import torch
import torch.nn as nn
from torch.func import vmap

# run the same CNN on 4 augmented views of the batch at once
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1),
    nn.BatchNorm2d(16),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(16, 10),
)
views = torch.randn(4, 8, 3, 32, 32)  # (views, batch, C, H, W)
logits = vmap(model)(views)
print(logits.shape)
