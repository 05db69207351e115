# expect: conv-input-dims
import torch
import torch.nn as nn

conv = nn.Conv2d(3, 8, 3)
single = torch.randn(3, 32)
conv(single)
