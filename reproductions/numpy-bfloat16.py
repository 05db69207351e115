"""numpy-bfloat16: saving the embeddings of a bfloat16 model with numpy.

To halve its memory, the encoder runs in bfloat16 (`model.to(torch.bfloat16)`, as large language
models are usually loaded). Its embeddings come out as bfloat16 tensors, and numpy has no bfloat16
dtype, so `emb.cpu().numpy()` (and np.asarray(emb), np.save, plt.plot, sklearn, which call it for
you) fails with "TypeError: Got unsupported ScalarType BFloat16". detach() and cpu() do not help:
they keep the dtype.

`--fixed` casts to float32 first: `emb.float().cpu().numpy()`.
"""

import torch
from _common import fixed_flag, not_installed
from torch import nn

fixed = fixed_flag(__doc__)

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

torch.manual_seed(0)

encoder = nn.Sequential(nn.Embedding(1000, 64), nn.Linear(64, 64), nn.Tanh())
encoder = encoder.to(torch.bfloat16).eval()  # half the memory of float32

token_ids = torch.randint(0, 1000, (8, 16))  # 8 sentences of 16 tokens
with torch.inference_mode():
    emb = encoder(token_ids).mean(dim=1)  # (8, 64) sentence embeddings, dtype torch.bfloat16

if fixed:
    emb = emb.float()  # numpy has float32, not bfloat16
vectors = emb.cpu().numpy()  # .cpu() keeps the dtype: a bfloat16 tensor stays bfloat16

vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
similarity = vectors @ vectors.T
print(f"embeddings {vectors.shape} {vectors.dtype}, mean cosine similarity {similarity.mean():.3f}")
