"""cuda-not-compiled: training code that hard-codes "cuda", run with a CPU-only build of torch.

The script was written on a GPU machine: it moves the model and every batch to "cuda"
unconditionally. Run with a CPU-only torch wheel (the default `pip install torch` on macOS and
Windows, or a `+cpu` build), the first `.to("cuda")` fails with "AssertionError: Torch not compiled
with CUDA enabled". `--fixed` picks the device from what this torch can use (CUDA, then Apple MPS,
then the CPU). On a CUDA build of torch the mistake cannot be shown, so the default mode exits 77.
"""

import torch
from _common import fixed_flag, skip
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

if fixed:
    if torch.cuda.is_available():
        device = torch.device("cuda")
    elif torch.backends.mps.is_available():
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
else:
    if torch.backends.cuda.is_built():
        skip(f"needs a CPU-only build of torch; this one was built with CUDA {torch.version.cuda}")
    device = torch.device("cuda")  # hard-coded on the GPU machine this script came from

data = TensorDataset(torch.randn(128, 20), torch.randint(0, 3, (128,)))
loader = DataLoader(data, batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for x, y in loader:
    x, y = x.to(device), y.to(device)
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()

print(f"one epoch on {device}; last loss {loss.item():.4f}")
