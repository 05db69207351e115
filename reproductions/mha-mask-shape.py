"""mha-mask-shape: batch-first tensors given to nn.MultiheadAttention built without batch_first.

nn.MultiheadAttention reads its inputs as (seq_len, batch, embed) unless batch_first=True. The
data is (batch=16, seq_len=50, embed=32), so the layer takes 16 as the sequence length and 50 as
the batch, and the padding mask, correctly (batch, seq_len) = (16, 50), no longer fits.
`--fixed` builds the layer with batch_first=True.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

batch, seq_len, embed = 16, 50, 32
attn = nn.MultiheadAttention(embed, num_heads=4, batch_first=fixed)
x = torch.randn(batch, seq_len, embed)
lengths = torch.randint(10, seq_len + 1, (batch,))
padding_mask = torch.arange(seq_len)[None, :] >= lengths[:, None]  # (batch, seq_len), True = pad
out, _ = attn(x, x, x, key_padding_mask=padding_mask)
print("attention output:", tuple(out.shape))
