# expect: sdpa-mask-dtype
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, attention_mask):
        b, t, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        mask = attention_mask[:, None, None, :]  # (b, 1, 1, t), 1 = keep, 0 = pad
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.out(y.transpose(1, 2).reshape(b, t, d))


tokens = torch.randn(2, 10, 64)
attention_mask = torch.tensor([[1] * 10, [1] * 6 + [0] * 4])  # as a tokenizer returns it
print(SelfAttention()(tokens, attention_mask).shape)
