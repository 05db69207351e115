"""illegal-memory-access: a hand-written Triton kernel trusts token ids read with the wrong dtype.

Like nanoGPT's prepare.py, the data step wrote the token ids as uint16 (`tokens.tofile(...)`); the
training step reads the file back with `np.fromfile(path, dtype=np.int64)`, so every "id" packs
four tokens into one number around 10^18. The ids go to a fused embedding-lookup kernel written in
Triton which, like most hand-written kernels, does not check its indices: it loads from
`table + id * dim`, far outside the table, and the GPU faults. Kernels run asynchronously, so
PyTorch notices at the next call that waits for the GPU (`loss.item()`), which raises "CUDA error:
an illegal memory access was encountered" (torch's own nn.Embedding checks its ids and would raise
a device-side assert instead). There is no CPU path for this error: without CUDA, Triton or a C
compiler (Triton builds its launcher with one) both modes exit 77.
`--fixed` reads the file with the dtype it was written with (uint16, widened to int64), checks the
ids against the table on the host, masks the kernel's loads with the same bounds, and compares the
result with nn.functional.embedding.
"""

import os
import shutil
import tempfile

import torch
from _common import fixed_flag, not_installed, skip

try:
    import triton
    import triton.language as tl
except ImportError:  # the CPU builds of torch come without Triton
    triton = None

fixed = fixed_flag(__doc__)

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

if not torch.cuda.is_available():
    skip("needs CUDA: an illegal memory access is a fault of a kernel running on the GPU")
if triton is None:
    skip(
        "needs Triton (installed with the CUDA builds of torch): the faulty kernel is a Triton one"
    )
if not (os.environ.get("CC") or shutil.which("gcc") or shutil.which("clang")):
    skip("needs a C compiler (gcc or clang): Triton compiles its kernel launcher with one")


@triton.jit
def embedding_kernel(
    ids_ptr, table_ptr, out_ptr, vocab, dim, CHECKED: tl.constexpr, BLOCK: tl.constexpr
):
    row = tl.program_id(0)
    token = tl.load(ids_ptr + row)  # int64, taken on trust
    cols = tl.arange(0, BLOCK)
    in_row = cols < dim
    mask = in_row
    if CHECKED:
        same = tl.zeros((BLOCK,), tl.int64) + token  # the id, once per column
        mask = in_row & (same >= 0) & (same < vocab)
    vec = tl.load(table_ptr + token * dim + cols, mask=mask, other=0.0)
    tl.store(out_ptr + row * dim + cols, vec, mask=in_row)


def fused_embedding(ids: torch.Tensor, table: torch.Tensor, checked: bool) -> torch.Tensor:
    vocab, dim = table.shape
    out = torch.empty(ids.numel(), dim, device=table.device, dtype=table.dtype)
    block = triton.next_power_of_2(dim)
    embedding_kernel[(ids.numel(),)](ids, table, out, vocab, dim, CHECKED=checked, BLOCK=block)
    return out


torch.manual_seed(0)
VOCAB, DIM = 1024, 256
tokens = np.random.default_rng(0).integers(0, VOCAB, size=4096, dtype=np.uint16)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "train.bin")
    tokens.tofile(path)  # the data step: uint16, two bytes per token
    if fixed:
        ids_np = np.fromfile(path, dtype=np.uint16).astype(np.int64)
        assert ids_np.min() >= 0 and ids_np.max() < VOCAB, (ids_np.min(), ids_np.max())
    else:
        ids_np = np.fromfile(path, dtype=np.int64)  # wrong dtype: 4 tokens per "id"

device = torch.device("cuda")
table = torch.randn(VOCAB, DIM, device=device)
ids = torch.from_numpy(ids_np).to(device)
hidden = fused_embedding(ids, table, checked=fixed)  # the kernel faults here, asynchronously
loss = hidden.pow(2).mean()
print(f"{ids.numel()} ids looked up, mean square {loss.item():.3f}")  # ...and it surfaces here

if fixed:
    torch.testing.assert_close(hidden, torch.nn.functional.embedding(ids, table))
    print("the fused lookup matches nn.functional.embedding")
