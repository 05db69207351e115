"""embedding-index-out-of-range: a word the vocabulary has never seen gets an id past the table.

The vocabulary is built from the training sentences only, and an unknown word is encoded as
`len(vocab)` ("one past the last word"), but nn.Embedding was created with `len(vocab)` rows, so
its valid ids are 0..len(vocab)-1. Training works; the first validation sentence with a new word
looks up a row that does not exist and raises "IndexError: index out of range in self" (on a GPU
the same lookup is a device-side assert, "Assertion `srcIndex < srcSelectDimSize` failed"). The
run is on the CPU everywhere, so the message is the same on every machine.
`--fixed` reserves id 0 for padding and id 1 for unknown words inside the vocabulary, sizes the
embedding from the finished vocabulary, and checks the ids of every batch against it.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

train_texts = [
    "the movie was great",
    "a great cast and a great story",
    "the plot was boring",
    "boring and far too long",
]
train_labels = torch.tensor([1, 1, 0, 0])
val_texts = ["the story was great", "an awful movie"]  # "an" and "awful" never seen in training

words = sorted({w for text in train_texts for w in text.split()})
if fixed:
    vocab = {"<pad>": 0, "<unk>": 1}
    vocab.update({w: i + 2 for i, w in enumerate(words)})
    unk = vocab["<unk>"]
else:
    vocab = {w: i for i, w in enumerate(words)}
    unk = len(vocab)  # "one past the last word": but that row does not exist


def encode(texts: list[str]) -> torch.Tensor:
    ids = [[vocab.get(w, unk) for w in text.split()] for text in texts]
    longest = max(map(len, ids))
    return torch.tensor([seq + [0] * (longest - len(seq)) for seq in ids])


class BagOfWords(nn.Module):
    def __init__(self, vocab_size: int) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, 16, padding_idx=0 if fixed else None)
        self.head = nn.Linear(16, 2)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        if fixed:  # a wrong id fails here, readably, on any device
            assert int(ids.max()) < self.embedding.num_embeddings, int(ids.max())
        return self.head(self.embedding(ids).mean(dim=1))


model = BagOfWords(len(vocab))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
x_train = encode(train_texts)
for _ in range(20):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x_train), train_labels)
    loss.backward()
    optimizer.step()

with torch.no_grad():
    predictions = model(encode(val_texts)).argmax(dim=1)  # IndexError: index out of range in self
print(f"vocabulary of {len(vocab)} ids; validation predictions {predictions.tolist()}")
