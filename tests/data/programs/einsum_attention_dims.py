# expect: shape-matmul
# (einsum's "subscript d has size 32 ... does not broadcast": families.yaml files it under shape-matmul)
import torch

b, h, t, d = 2, 4, 10, 16
q = torch.randn(b, h, t, d)
k = torch.randn(b, h, t, d * 2)  # key projection built with the wrong head dim
scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / d**0.5
print(scores.shape)
