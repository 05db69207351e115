# expect: mha-mask-shape
# A transformer decoder for seq2seq written with nn.MultiheadAttention; the causal mask is built
# per example (batch, tgt, tgt), as the user thought every sequence needs its own mask.
import torch
import torch.nn as nn

torch.manual_seed(0)
batch, tgt_len, d_model, heads = 16, 12, 64, 4
tgt = torch.randn(batch, tgt_len, d_model)
self_attn = nn.MultiheadAttention(d_model, heads, batch_first=True)
causal = torch.triu(torch.ones(tgt_len, tgt_len, dtype=torch.bool), diagonal=1)
causal = causal.unsqueeze(0).expand(batch, -1, -1)
print("mask", tuple(causal.shape))
out, _ = self_attn(tgt, tgt, tgt, attn_mask=causal)
print("decoder out", tuple(out.shape))
