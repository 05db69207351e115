# expect: inplace-modified
import torch
import torch.nn as nn

w = torch.randn(5, 5, requires_grad=True)
x = torch.randn(3, 5)
h = torch.sigmoid(x @ w)
h += 1  # in-place after sigmoid
h.sum().backward()
