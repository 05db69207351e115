# expect: broadcast-mismatch
import torch

a = torch.randn(8, 3)
b = torch.randn(8, 4)
c = a + b
