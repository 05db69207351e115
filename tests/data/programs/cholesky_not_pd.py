# expect: none
import torch

# Gaussian process posterior, kernel matrix built without jitter
x = torch.linspace(0, 1, 50).unsqueeze(1).double()
x = torch.cat([x, x])  # duplicated inputs
K = torch.exp(-0.5 * (x - x.T) ** 2 / 0.1**2)
K[0, 1] += 1e-3
L = torch.linalg.cholesky(K)
print(L.diag()[:5])
