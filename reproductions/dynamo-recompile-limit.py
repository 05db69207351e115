"""dynamo-recompile-limit: a compiled function is recompiled for every new input, up to the limit.

Each compiled graph is guarded on what it was traced with (shapes, dtypes, Python constants).
An input that fails every guard means a new compilation, and after config.recompile_limit (8)
of them for one function dynamo gives up: it logs "torch._dynamo hit config.recompile_limit (8)"
(before torch 2.6: config.cache_size_limit) and runs that function eagerly from then on, slow but
working. With fullgraph=True (or torch._dynamo.config.fail_on_recompile_limit_hit = True) it is an
error: FailOnRecompileLimitHit. The script compiles a model with dynamic=False and feeds batches
padded to their own longest sequence, so every new length is a recompilation.
`--fixed` leaves dynamic at its default, so the sequence dimension becomes symbolic after the first
new length and one graph serves them all. backend="eager" keeps the script fast: the limit is
dynamo's, whatever the backend.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
if fixed:
    compiled = torch.compile(model, fullgraph=True, backend="eager")
else:
    compiled = torch.compile(model, dynamic=False, fullgraph=True, backend="eager")

lengths = range(5, 18)
for seq_len in lengths:  # each batch padded to its longest sequence
    batch = torch.randn(4, seq_len, 16)
    logits = compiled(batch)
print(f"{len(lengths)} batches of lengths 5..17 compiled: last {tuple(logits.shape)}")
