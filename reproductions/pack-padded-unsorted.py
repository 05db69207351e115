"""pack-padded-unsorted: a batch of padded sentences packed in dataset order, not sorted by length.

A sentiment classifier pads its sentences to one length and packs them so that the LSTM skips the
padding. The batch comes straight from a shuffled DataLoader, so its lengths (5, 9, 3, 7) are not
in decreasing order, and pack_padded_sequence (enforce_sorted=True by default) refuses them.
`--fixed` passes enforce_sorted=False: PyTorch sorts the batch itself and hands the outputs back
in the original order, so they still line up with the labels.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, vocab: int = 100, dim: int = 16, classes: int = 2) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, 32, batch_first=True)
        self.head = nn.Linear(32, classes)

    def forward(self, tokens: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        packed = pack_padded_sequence(
            self.embed(tokens), lengths, batch_first=True, enforce_sorted=not fixed
        )
        _, (h, _) = self.lstm(packed)
        return self.head(h[-1])  # the last real step of each sentence


sentences = [torch.randint(1, 100, (n,)) for n in (5, 9, 3, 7)]  # a shuffled batch
labels = torch.tensor([1, 0, 0, 1])
tokens = pad_sequence(sentences, batch_first=True)  # (4, 9), padded with 0
lengths = torch.tensor([len(s) for s in sentences])
model = Classifier()
loss = nn.functional.cross_entropy(model(tokens, lengths), labels)
loss.backward()
print(f"lengths {lengths.tolist()} packed unsorted, loss: {loss.item():.4f}")
