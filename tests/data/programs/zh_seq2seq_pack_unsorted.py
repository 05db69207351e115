# expect: pack-padded-unsorted
# 机器翻译的encoder，用pack_padded_sequence跳过padding，但batch没有按长度排序。
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
源句子 = [torch.randint(1, 500, (n,)) for n in (7, 12, 5, 9)]
长度 = torch.tensor([len(s) for s in 源句子])
src = pad_sequence(源句子, batch_first=True, padding_value=0)
emb = nn.Embedding(500, 64, padding_idx=0)
encoder = nn.GRU(64, 128, batch_first=True, bidirectional=True)

print("src:", src.shape, "长度:", 长度.tolist())
packed = pack_padded_sequence(emb(src), 长度, batch_first=True)
out, h = encoder(packed)
out, _ = pad_packed_sequence(out, batch_first=True)
print("encoder 输出:", out.shape)
