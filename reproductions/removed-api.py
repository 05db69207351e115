"""removed-api: old code calls torch.solve, which newer torch releases removed.

A closed-form ridge-regression readout (an echo-state network, a linear probe) written for torch
1.x solves (XᵀX + λI) W = XᵀY with `torch.solve(B, A).solution`. torch.solve was deprecated in 1.9
and removed later (torch.symeig, torch.eig, torch.lstsq and torch.matrix_rank with it); in current
releases the name is only a stub that raises "RuntimeError: This function was deprecated since
version 1.9 and is now removed. `torch.solve` is deprecated in favor of `torch.linalg.solve`...".
The old FFT functions (torch.rfft, torch.irfft) are gone entirely: "module 'torch' has no attribute
'rfft'".

`--fixed` calls torch.linalg.solve(A, B): the arguments are the other way round, and it returns the
solution itself, not a (solution, LU) tuple.
"""

import torch
from _common import fixed_flag

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

features = torch.randn(500, 64, dtype=torch.float64)  # e.g. reservoir states
true_w = torch.randn(64, 3, dtype=torch.float64)
targets = features @ true_w + 0.01 * torch.randn(500, 3, dtype=torch.float64)

ridge = 1e-3
A = features.T @ features + ridge * torch.eye(64, dtype=torch.float64)
B = features.T @ targets
# torch 1.x: torch.solve(B, A) returned (solution, LU); torch.linalg.solve takes (A, B)
W = torch.linalg.solve(A, B) if fixed else torch.solve(B, A).solution
error = (features @ W - targets).pow(2).mean().item()
print(f"readout {tuple(W.shape)}, training MSE {error:.2e}")
