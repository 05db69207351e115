# expect: conv-input-dims
# (the entry that owns "Kernel size can't be greater than actual input size": current torch
# says so for a feature map shrunk below the kernel, where torch 0.x said "Output size is too small")
import torch
import torch.nn as nn

net = nn.Sequential(
    nn.Conv2d(1, 4, 3), nn.MaxPool2d(2), nn.Conv2d(4, 8, 3), nn.MaxPool2d(2), nn.Conv2d(8, 8, 3)
)
net(torch.randn(1, 1, 12, 12))
