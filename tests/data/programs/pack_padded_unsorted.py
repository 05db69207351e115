# expect: pack-padded-unsorted
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence

batch = torch.randn(3, 6, 4)
lengths = torch.tensor([3, 6, 2])
packed = pack_padded_sequence(batch, lengths, batch_first=True)
out, _ = nn.LSTM(4, 8, batch_first=True)(packed)
