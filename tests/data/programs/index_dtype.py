# expect: index-dtype
import torch

table = torch.randn(10, 4)
idx = torch.tensor([1.0, 3.0])
rows = table[idx]
