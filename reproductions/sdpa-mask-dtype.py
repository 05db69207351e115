"""sdpa-mask-dtype: a tokenizer's integer attention_mask passed to scaled_dot_product_attention.

The batch holds padded sentences with an `attention_mask` of 1 (real token) and 0 (padding), as
tokenizers return it: an int64 tensor. The self-attention layer hands it, reshaped to
(batch, 1, 1, seq_len), straight to F.scaled_dot_product_attention. SDPA only takes a bool mask
(True = may attend) or a float mask that is added to the scores, so it refuses: "RuntimeError:
Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype:
long int and  query.dtype: float instead." (nn.MultiheadAttention refuses the same mask with
"only bool and floating types of key_padding_mask are supported".)

`--fixed` converts it with `.bool()`: True where the token is real, which is what SDPA expects.
"""

import torch
import torch.nn.functional as F
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


class SelfAttention(nn.Module):
    def __init__(self, dim: int = 32, heads: int = 4) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        mask = attention_mask[:, None, None, :]  # (B, 1, 1, T): every query sees the same keys
        if fixed:
            mask = mask.bool()  # True = a real token that may be attended to
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.out(y.transpose(1, 2).reshape(B, T, C))


lengths = torch.tensor([7, 5, 3, 6])
attention_mask = (torch.arange(7)[None, :] < lengths[:, None]).long()  # 1 = token, 0 = padding
x = torch.randn(4, 7, 32)
out = SelfAttention()(x, attention_mask)
print(f"attention output {tuple(out.shape)}, finite: {bool(out.isfinite().all())}")
