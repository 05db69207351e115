"""autocast-not-applied: mixed precision switched on around a model that autocast never casts.

The data came from numpy as float64 and the model was made `.double()` to match it; then
`torch.autocast(device_type="cpu", dtype=torch.bfloat16)` was added for speed. Autocast only
casts float32 tensors, so every Linear layer still computes in float64: no error, no warning,
the same speed and memory as without AMP (on a GPU, the same happens with
`torch.autocast("cuda")` around a model left on the CPU, or `"cpu"` around one on the GPU).
`diagnoser.watch` (when installed) reports the first layer that runs in full precision inside
autocast.

`--fixed` keeps the model and the data in float32 (`torch.from_numpy(x).float()`): inside autocast
the layers compute in bfloat16.
"""

import sys

import torch
from _common import fixed_flag, not_installed
from torch import nn

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
try:  # the check that names the problem; the harm below shows without it
    import diagnoser
except ImportError:
    diagnoser = None

features = np.random.default_rng(0).normal(size=(512, 64))  # numpy: float64
targets = torch.from_numpy(features[:, :1] * 2.0)
inputs = torch.from_numpy(features)
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 1))
if fixed:
    inputs, targets = inputs.float(), targets.float()
else:
    model = model.double()  # to match the float64 data
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
seen = []
model[0].register_forward_hook(lambda m, a, out: seen.append(out.dtype))
watch = diagnoser.watch(model).attach() if diagnoser else None
for _ in range(5):
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        loss = nn.functional.mse_loss(model(inputs).float(), targets.float())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
if watch is not None:
    watch.detach()
dtype = str(seen[-1]).removeprefix("torch.")
print(f"inside torch.autocast(cpu, bfloat16) the first Linear layer computed in {dtype}")
sys.stdout.flush()
