"""cudnn-error: a word id past the embedding table, then the first convolution (a TextCNN).

A sentence classifier in the style of Kim's TextCNN: nn.Embedding, then an nn.Conv2d that slides
over whole word vectors. The vocabulary maps unknown words to `len(vocab)`, one past the last row
of the embedding. On the GPU the lookup does not fail at once: its kernel trips a device-side
assert ("Assertion `srcIndex < srcSelectDimSize` failed") while Python goes on, and from then on
the CUDA context is broken. The next library that needs the GPU is cuDNN, starting up for the
first convolution of the process, so the error the user sees is a cuDNN one ("cuDNN error:
CUDNN_STATUS_...", or with the cuDNN v8 API "... was unable to find an engine to execute this
computation", because every engine it tries fails): about a library that is not at fault, as in
github.com/Mukosame/AODA/issues/11. On the CPU the same lookup raises "IndexError: index out of
range in self", so without CUDA (or with cuDNN disabled) both modes exit 77. Which call reports an
asynchronous error depends on timing: if this GPU reported the failed lookup from another call, or
as CUDNN_STATUS_ALLOC_FAILED (which this knowledge base files under cuda-oom), the script says
which and exits 77 too.
`--fixed` reserves ids for padding and unknown words inside the vocabulary, sizes the embedding
from it, checks the ids of the batch before the forward pass, and trains a few steps.
"""

import torch
from _common import fixed_flag, skip
from torch import nn
from torch.nn import functional as F

fixed = fixed_flag(__doc__)
if not torch.cuda.is_available():
    skip(
        "needs CUDA: on the CPU the same lookup fails at once with an IndexError of its own, "
        "not with a cuDNN error"
    )
if not torch.backends.cudnn.is_available() or not torch.backends.cudnn.enabled:
    skip("needs cuDNN: this PyTorch runs convolutions without it")

torch.manual_seed(0)
device = torch.device("cuda")
train_texts = ["a great movie", "a great cast", "boring and long", "far too long"]
test_texts = ["a great plot", "an awful movie"]  # "plot", "an", "awful": never seen in training

words = sorted({w for t in train_texts for w in t.split()})
if fixed:
    vocab = {"<pad>": 0, "<unk>": 1} | {w: i + 2 for i, w in enumerate(words)}
    unk = vocab["<unk>"]
else:
    vocab = {w: i for i, w in enumerate(words)}
    unk = len(vocab)  # "one past the last word": that row does not exist


def encode(texts: list[str], length: int = 6) -> torch.Tensor:
    ids = [[vocab.get(w, unk) for w in t.split()][:length] for t in texts]
    pad = vocab.get("<pad>", 0)
    return torch.tensor([seq + [pad] * (length - len(seq)) for seq in ids], device=device)


class TextCNN(nn.Module):
    def __init__(self, vocab_size: int, dim: int = 32, filters: int = 16, width: int = 3) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim)
        self.conv = nn.Conv2d(1, filters, kernel_size=(width, dim))  # n-grams of word vectors
        self.head = nn.Linear(filters, 2)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        x = self.embedding(ids).unsqueeze(1)  # (batch, 1, words, dim)
        x = F.relu(self.conv(x)).squeeze(3)  # the first cuDNN call of the process
        return self.head(x.amax(dim=2))


model = TextCNN(len(vocab)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
# The first batch mixes training sentences with new ones (a curriculum, a data mix-up...).
batch = encode(train_texts[:2] + test_texts)
batch_labels = torch.tensor([1, 1, 1, 0], device=device)
if fixed:
    top = int(batch.max())
    assert top < model.embedding.num_embeddings, f"id {top} has no row in the embedding"


def train_step(ids: torch.Tensor, y: torch.Tensor) -> float:
    loss = F.cross_entropy(model(ids), y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss.item()


if fixed:
    losses = [train_step(batch, batch_labels) for _ in range(20)]
    print(f"20 steps on {torch.cuda.get_device_name(0)}: loss {losses[0]:.3f} -> {losses[-1]:.3f}")
else:
    try:
        train_step(batch, batch_labels)
    except RuntimeError as err:  # torch.AcceleratorError is a RuntimeError too
        message = str(err)
        is_cudnn = "cudnn" in message.lower() or "find an engine" in message
        if not is_cudnn or "CUDNN_STATUS_ALLOC_FAILED" in message:
            first = message.strip().splitlines()[0]
            skip(f"needs cuDNN to be the first to see the failed lookup; this run got: {first}")
        raise
