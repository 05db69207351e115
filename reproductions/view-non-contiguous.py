"""view-non-contiguous: multi-head self-attention that merges the heads with .view().

After attention the output has shape (batch, heads, tokens, head_dim); `transpose(1, 2)` makes it
(batch, tokens, heads, head_dim) without moving any data, so the tensor is non-contiguous and
`.view(B, T, C)` cannot merge the last two dimensions: "view size is not compatible with input
tensor's size and stride". `--fixed` uses `.reshape(B, T, C)`, which copies when it must.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


class SelfAttention(nn.Module):
    def __init__(self, dim: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        qkv = self.qkv(x).view(B, T, 3, self.heads, C // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)  # each (B, heads, T, head_dim)
        att = (q @ k.transpose(-2, -1)) / (C // self.heads) ** 0.5
        out = att.softmax(dim=-1) @ v  # (B, heads, T, head_dim)
        out = out.transpose(1, 2)  # (B, T, heads, head_dim), non-contiguous
        # The mistake: .view() cannot merge heads and head_dim of a transposed tensor.
        out = out.reshape(B, T, C) if fixed else out.view(B, T, C)
        return self.proj(out)


attn = SelfAttention(dim=64, heads=4)
tokens = torch.randn(8, 16, 64)  # 8 sequences of 16 tokens
out = attn(tokens)
print("attention output:", tuple(out.shape))
