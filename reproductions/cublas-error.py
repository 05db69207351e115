"""cublas-error: a token id past the embedding table, then the first matrix multiplication.

A character-level bigram language model (an nn.Embedding, then an nn.Linear head without bias, as
in nanoGPT) is sized with `vocab_size = len(chars)`, but the encoder appends an end-of-text token
whose id is `len(chars)`: one past the last row. On the GPU the lookup does not fail at once: its
kernel trips a device-side assert ("Assertion `srcIndex < srcSelectDimSize` failed") while Python
goes on, and from then on the CUDA context is broken. The next library call that needs the GPU is
cuBLAS creating its handle for the first matrix multiplication of the process, so what the user
sees is "CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`" (or
CUBLAS_STATUS_ALLOC_FAILED; once a handle exists, CUBLAS_STATUS_EXECUTION_FAILED when calling
`cublasSgemm(...)`): an error about a library that is not at fault. On the CPU the same lookup
raises "IndexError: index out of range in self", so without CUDA both modes exit 77. Which call
reports an asynchronous error depends on timing: if this GPU reported the failed lookup from
another call, the script says which and exits 77 too.
`--fixed` sizes the embedding and the head from the finished vocabulary, end token included,
checks the ids of the batch against the table before the forward pass, and trains a few steps.
"""

import torch
from _common import fixed_flag, skip
from torch import nn
from torch.nn import functional as F

fixed = fixed_flag(__doc__)
if not torch.cuda.is_available():
    skip(
        "needs CUDA: on the CPU the same lookup fails at once with an IndexError of its own, "
        "not with a cuBLAS error"
    )

torch.manual_seed(0)
device = torch.device("cuda")
text = "to be, or not to be, that is the question: whether 'tis nobler in the mind to suffer "
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
EOT = len(chars)  # end-of-text, added after the vocabulary was counted
vocab_size = len(chars) + 1 if fixed else len(chars)  # the bug: the end token has no row


def encode(s: str) -> list[int]:
    return [stoi[c] for c in s] + [EOT]


class BigramLM(nn.Module):
    def __init__(self, vocab_size: int, n_embd: int = 64) -> None:
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        return self.lm_head(self.tok_emb(idx))  # the first matmul of the process


model = BigramLM(vocab_size).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
data = torch.tensor(encode(text) * 4, device=device)
x, y = data[:-1].view(1, -1), data[1:].view(1, -1)
if fixed:
    top = int(x.max())
    assert top < model.tok_emb.num_embeddings, f"id {top} has no row in the embedding"


def train_step() -> float:
    logits = model(x)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss.item()


if fixed:
    losses = [train_step() for _ in range(20)]
    print(f"20 steps on {torch.cuda.get_device_name(0)}: loss {losses[0]:.3f} -> {losses[-1]:.3f}")
else:
    try:
        train_step()
    except RuntimeError as err:  # torch.AcceleratorError is a RuntimeError too
        if "CUBLAS_STATUS" not in str(err):
            first = str(err).strip().splitlines()[0]
            skip(f"needs cuBLAS to be the first to see the failed lookup; this run got: {first}")
        raise
