"""torch-version-too-old: code written for a newer PyTorch run on an older one.

A model file written today calls `torch.compile` (added in 2.0), builds `nn.RMSNorm` (2.4) and
passes `enable_gqa=True` to `F.scaled_dot_product_attention` (2.5). On an older torch each of them
fails with Python's plain message, which does not say the API is simply newer than the install:
"AttributeError: module 'torch' has no attribute 'compile'", "module 'torch.nn' has no attribute
'RMSNorm'", "scaled_dot_product_attention() got an unexpected keyword argument 'enable_gqa'".
The script runs that code as written. On a torch older than 2.5 it fails with the real error; on
this machine's torch everything exists, so it exits 77 (needs an older torch).
`--fixed` checks the installed version and falls back where the API is missing: no compile before
2.0, a small RMSNorm module before 2.4, key/value heads repeated by hand instead of enable_gqa
before 2.5. It runs on any torch from 1.x to now.
"""

import torch
from _common import fixed_flag, skip
from torch import nn
from torch.nn import functional as F

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
version = tuple(int(part) for part in torch.__version__.split("+")[0].split(".")[:2])
if not fixed and version >= (2, 5):
    skip(
        f"needs a torch older than 2.5: torch {torch.__version__} has torch.compile, nn.RMSNorm "
        "and enable_gqa, the APIs this script uses"
    )


class SimpleRMSNorm(nn.Module):  # what nn.RMSNorm computes, for torch < 2.4
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Attention(nn.Module):
    """Grouped-query attention: 4 query heads share 2 key/value heads."""

    def __init__(self, dim: int = 32, heads: int = 4, kv_heads: int = 2) -> None:
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, dim // heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * kv_heads * self.head_dim)
        if fixed and not hasattr(nn, "RMSNorm"):
            self.norm = SimpleRMSNorm(dim)
        else:
            self.norm = nn.RMSNorm(dim)  # torch >= 2.4

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        x = self.norm(x)
        q = self.q(x).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k, v = self.kv(x).view(b, t, 2, self.kv_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        if fixed and version < (2, 5):
            repeat = self.heads // self.kv_heads
            k, v = k.repeat_interleave(repeat, dim=1), v.repeat_interleave(repeat, dim=1)
            if hasattr(F, "scaled_dot_product_attention"):  # torch >= 2.0
                out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            else:
                scores = q @ k.transpose(-2, -1) / self.head_dim**0.5
                causal = torch.ones(t, t, dtype=torch.bool).tril()
                out = scores.masked_fill(~causal, float("-inf")).softmax(-1) @ v
        else:
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        return out.transpose(1, 2).reshape(b, t, -1)


model = Attention()
if not fixed or hasattr(torch, "compile"):
    # compiling needs a C++ toolchain and takes a while; the point is the attribute
    model.forward = torch.compile(model.forward, backend="eager")  # torch >= 2.0
out = model(torch.randn(2, 8, 32))
print(f"torch {torch.__version__}: attention output {tuple(out.shape)}")
