# expect: rnn-input-size
import torch
import torch.nn as nn

gru = nn.GRU(input_size=32, hidden_size=64, batch_first=True)
feats = torch.randn(4, 20, 40)
out, h = gru(feats)
