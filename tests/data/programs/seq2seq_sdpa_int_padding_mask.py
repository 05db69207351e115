# expect: sdpa-mask-dtype
# A seq2seq encoder built on F.scaled_dot_product_attention; the padding mask comes from the
# tokenizer as 0/1 integers (like attention_mask) and is passed to SDPA unchanged.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
B, L, D, H = 4, 10, 64, 4
lengths = torch.tensor([10, 7, 5, 9])
attention_mask = (torch.arange(L)[None, :] < lengths[:, None]).long()  # 1 = token, 0 = pad
x = torch.randn(B, L, D)
qkv = nn.Linear(D, 3 * D)
q, k, v = qkv(x).chunk(3, dim=-1)
q, k, v = (t.view(B, L, H, D // H).transpose(1, 2) for t in (q, k, v))
mask = attention_mask[:, None, None, :]
print("q", tuple(q.shape), "mask", tuple(mask.shape), mask.dtype)
out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
print("encoder out", tuple(out.transpose(1, 2).reshape(B, L, D).shape))
