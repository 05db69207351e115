# expect: view-non-contiguous
import torch

x = torch.randn(4, 6, 8)
y = x.transpose(1, 2)
z = y.view(4, -1)
