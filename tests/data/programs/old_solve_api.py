# expect: removed-api
import torch

A = torch.randn(3, 3) + 3 * torch.eye(3)
b = torch.randn(3, 1)
x, lu = torch.solve(b, A)
print(x)
