# expect: conv-channels-mismatch
import torch
import torch.nn as nn

encoder = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 32, 3, padding=1),
)
encoder = torch.compile(encoder)
grayscale = torch.randn(4, 1, 28, 28)
print(encoder(grayscale).shape)
