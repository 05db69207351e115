# expect: mha-mask-shape
import torch
import torch.nn as nn

mha = nn.MultiheadAttention(16, 4, batch_first=True)
x = torch.randn(2, 7, 16)
mask = torch.zeros(2, 7, dtype=torch.bool)
mha(x, x, x, attn_mask=mask)
