"""forward-missing-arg: a model whose forward needs two inputs, called with one.

A part-of-speech tagger packs its padded batch with the true sentence lengths, so its forward is
`forward(self, tokens, lengths)`. The DataLoader yields (tokens, lengths, tags), but the training
loop, copied from an image classifier, calls `model(tokens)`. nn.Module.__call__ passes the
arguments on to forward unchanged, and Python reports the missing one by name:
"TypeError: Tagger.forward() missing 1 required positional argument: 'lengths'".

`--fixed` passes every input forward() declares: `model(tokens, lengths)`.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)


class Tagger(nn.Module):
    def __init__(self, vocab=100, n_tags=12, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, n_tags)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(
            self.embed(tokens), lengths, batch_first=True, enforce_sorted=False
        )
        hidden, _ = self.lstm(packed)
        hidden, _ = pad_packed_sequence(hidden, batch_first=True, total_length=tokens.size(1))
        return self.out(hidden)


lengths = torch.randint(3, 10, (32,))
tokens = torch.randint(1, 100, (32, 10)) * (torch.arange(10) < lengths[:, None])
tags = torch.randint(0, 12, (32, 10))
loader = DataLoader(TensorDataset(tokens, lengths, tags), batch_size=8)

model = Tagger()
optimizer = torch.optim.Adam(model.parameters())
for tokens, lengths, tags in loader:
    logits = model(tokens, lengths) if fixed else model(tokens)
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), tags.flatten())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"trained one epoch, last loss {loss.item():.3f}")
