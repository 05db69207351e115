"""numpy-object-dtype: variable-length sequences packed into a NumPy object array.

A sequence classifier stores its tokenised sentences (different lengths) with
`np.array(sequences, dtype=object)`, the only way NumPy accepts a ragged list, and hands the array
to `torch.tensor`. Torch cannot make a tensor from an array of Python objects: "can't convert
np.ndarray of type numpy.object_". `--fixed` pads the sequences to one length with
`nn.utils.rnn.pad_sequence` (keeping the lengths) and trains a GRU on the padded batch.
"""

import torch
from _common import fixed_flag, not_installed
from torch import nn
from torch.nn.utils.rnn import pad_sequence

fixed = fixed_flag(__doc__)

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)

VOCAB = 30
sequences = [rng.integers(1, VOCAB, size=rng.integers(4, 15)) for _ in range(64)]
labels = torch.tensor([int(s[0] > VOCAB // 2) for s in sequences])

if fixed:
    tokens = pad_sequence([torch.from_numpy(s) for s in sequences], batch_first=True)  # [64, 14]
    lengths = torch.tensor([len(s) for s in sequences])
else:
    tokens = torch.tensor(np.array(sequences, dtype=object))  # ragged: an array of arrays

embed, rnn, head = (
    nn.Embedding(VOCAB, 16, padding_idx=0),
    nn.GRU(16, 32, batch_first=True),
    nn.Linear(32, 2),
)
params = [*embed.parameters(), *rnn.parameters(), *head.parameters()]
optimizer = torch.optim.Adam(params, lr=1e-2)
for _ in range(5):
    packed = nn.utils.rnn.pack_padded_sequence(
        embed(tokens), lengths, batch_first=True, enforce_sorted=False
    )
    _, hidden = rnn(packed)
    loss = nn.functional.cross_entropy(head(hidden[-1]), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print(f"padded batch {tuple(tokens.shape)}; loss after 5 steps {loss.item():.4f}")
