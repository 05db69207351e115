"""invalid-device-ordinal: the job asks for a GPU index the machine does not have.

The training config was written for a bigger server: it lists one GPU more than this machine has
(`gpu_ids = [0, ..., N]` where only cuda:0 ... cuda:N-1 exist), and the script pins itself to the
last one with `torch.cuda.set_device(...)`, as a per-rank script does with its LOCAL_RANK. CUDA
rejects the index: "CUDA error: invalid device ordinal" (a RuntimeError, torch.AcceleratorError on
recent torch). `--fixed` takes the GPU list from `torch.cuda.device_count()` instead of the config.
Without CUDA both modes exit 77.
"""

import torch
from _common import fixed_flag, skip
from torch import nn

fixed = fixed_flag(__doc__)
if not torch.cuda.is_available():
    skip("needs CUDA: 'invalid device ordinal' is an error of the CUDA runtime")

torch.manual_seed(0)
available = torch.cuda.device_count()
config_gpu_ids = list(range(available + 1))  # written for a machine with one more GPU
gpu_ids = list(range(available)) if fixed else config_gpu_ids

torch.cuda.set_device(gpu_ids[-1])  # the last GPU of the list, like rank N of N+1 processes
device = torch.device("cuda", gpu_ids[-1])
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 20, device=device), torch.randint(0, 3, (64,), device=device)
for _ in range(5):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
print(f"trained on {device} ({available} GPU(s) visible); last loss {loss.item():.4f}")
