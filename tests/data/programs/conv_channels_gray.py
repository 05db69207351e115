# expect: conv-channels-mismatch
import torch
import torch.nn as nn

backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
gray = torch.rand(2, 1, 64, 64)  # MNIST-like grayscale
feat = backbone(gray)
