# expect: mha-mask-shape
import torch
import torch.nn as nn

seq_len, batch, d = 12, 4, 32
layer = nn.TransformerEncoderLayer(d_model=d, nhead=4, dim_feedforward=64)
encoder = nn.TransformerEncoder(layer, num_layers=2)
src = torch.randn(seq_len, batch, d)
lengths = torch.tensor([12, 9, 7, 3])
pad_mask = torch.arange(seq_len).unsqueeze(1) >= lengths.unsqueeze(0)  # (seq_len, batch)
out = encoder(src, src_key_padding_mask=pad_mask)
print(out.shape)
