"""index-dtype: token ids padded into a float array, so nn.Embedding gets float indices.

A small text classifier pads its tokenised sentences into a matrix made with `np.zeros(...)`,
whose default dtype is float64. `torch.from_numpy` keeps it, so the batch of token ids is a
DoubleTensor and nn.Embedding, which looks rows up by integer index, refuses it ("Expected tensor
for argument #1 'indices' to have one of the following scalar types: Long, Int; but got
torch.DoubleTensor instead"). `--fixed` builds the padded matrix as int64 (`dtype=np.int64`).
"""

import torch
from _common import fixed_flag, not_installed
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)

VOCAB, MAX_LEN = 50, 12
sentences = [rng.integers(1, VOCAB, size=rng.integers(3, MAX_LEN + 1)) for _ in range(200)]
labels = np.array([int(s.mean() > VOCAB / 2) for s in sentences])

# Pad with 0: one row per sentence.
ids = np.zeros((len(sentences), MAX_LEN), dtype=np.int64 if fixed else float)
for row, sentence in enumerate(sentences):
    ids[row, : len(sentence)] = sentence


class BagOfEmbeddings(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16, padding_idx=0)
        self.head = nn.Linear(16, 2)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(self.embed(tokens).mean(dim=1))


loader = DataLoader(TensorDataset(torch.from_numpy(ids), torch.from_numpy(labels)), batch_size=32)
model = BagOfEmbeddings()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for tokens, y in loader:
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(tokens), y)
    loss.backward()
    optimizer.step()

print(f"one epoch; token ids {tokens.dtype}, last loss {loss.item():.4f}")
