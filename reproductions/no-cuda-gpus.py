"""no-cuda-gpus: CUDA_VISIBLE_DEVICES names a GPU the machine does not have.

The training script was copied from a multi-GPU server where its author pinned it to "the second
GPU" with `os.environ["CUDA_VISIBLE_DEVICES"] = "1"`. On a machine with fewer GPUs that index does
not exist, CUDA sees no device at all, and the first `.to("cuda")` fails with "RuntimeError: No
CUDA GPUs are available" although `nvidia-smi` lists a GPU. To fail the same way on every machine,
the launcher picks the index one past the last GPU (`torch.cuda.device_count()`) and runs the
training part in a child process, because CUDA reads the variable only once, when it starts.
`--fixed` makes only existing GPUs visible (index 0) and chooses the device with
`torch.cuda.is_available()`. Without CUDA both modes exit 77.
"""

import os
import subprocess
import sys

import torch
from _common import fixed_flag, skip
from torch import nn

fixed = fixed_flag(__doc__)
CHILD = "NO_CUDA_GPUS_REPRO_GPU"

if CHILD not in os.environ:  # the launcher
    if not torch.cuda.is_available():
        skip("needs CUDA: 'No CUDA GPUs are available' comes from a CUDA build of torch")
    gpu = "0" if fixed else str(torch.cuda.device_count())  # an index this machine lacks
    env = {**os.environ, CHILD: gpu}
    sys.exit(subprocess.run([sys.executable, __file__, *sys.argv[1:]], env=env).returncode)

# The training script. The author's server had several GPUs; this pins the job to one of them.
os.environ["CUDA_VISIBLE_DEVICES"] = os.environ[CHILD]  # read by CUDA when it starts
torch.manual_seed(0)
if fixed:
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
else:
    device = torch.device("cuda")  # the author's machine always had a GPU
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 20, device=device), torch.randint(0, 3, (64,), device=device)
for _ in range(5):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
print(f"trained on {device} (CUDA_VISIBLE_DEVICES={os.environ['CUDA_VISIBLE_DEVICES']})")
