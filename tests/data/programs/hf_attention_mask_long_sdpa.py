# expect: sdpa-mask-dtype
# The tokenizer's attention_mask (int64 ones and zeros) passed straight to
# F.scaled_dot_product_attention as attn_mask, which wants bool or float.
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
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        mask = attention_mask[:, None, None, :]  # (B, 1, 1, T)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.out(y.transpose(1, 2).reshape(B, T, C))


batch = {
    "input_ids": torch.randint(0, 100, (2, 6)),
    "attention_mask": torch.tensor([[1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 1, 1]]),
}
emb = nn.Embedding(100, 64)
attn = SelfAttention()
print(attn(emb(batch["input_ids"]), batch["attention_mask"]).shape)
