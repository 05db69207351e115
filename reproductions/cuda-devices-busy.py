"""cuda-devices-busy: the GPU is in exclusive-process mode and another process holds it.

Cluster GPUs are often set to the EXCLUSIVE_PROCESS compute mode (`nvidia-smi -c 3`): only one
process at a time may create a CUDA context on each. A second process (a leftover run, a notebook
kernel, DataLoader workers or spawned ranks all told to use GPU 0) then fails at its first CUDA
call with "CUDA error: all CUDA-capable devices are busy or unavailable"
(cudaErrorDevicesUnavailable, "cuda runtime error (46)" in old releases). The script runs that:
a child process takes GPU 0 and keeps it while the parent tries to use it. Without CUDA, or where
GPU 0 is not in an exclusive mode (then both processes may share it), there is nothing to
reproduce and it exits 77.
`--fixed` waits for the other process to release the GPU before using it (on a cluster: ask the
scheduler for your own GPU, or pick a free one with CUDA_VISIBLE_DEVICES).
"""

import subprocess
import sys
import time

import torch
from _common import fixed_flag, skip

fixed = fixed_flag(__doc__)
if not torch.cuda.is_available():  # cudaGetDeviceCount: no context is created yet
    skip("needs CUDA: this error comes from creating a CUDA context")
try:
    mode = subprocess.run(
        ["nvidia-smi", "-i", "0", "--query-gpu=compute_mode", "--format=csv,noheader"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
except (OSError, subprocess.CalledProcessError):
    mode = "unknown"
if "Exclusive" not in mode:
    skip(f"needs GPU 0 in an exclusive compute mode (nvidia-smi -c 3); it is {mode}")

holder = subprocess.Popen(
    [sys.executable, "-c", "import torch, time; torch.zeros(1, device='cuda'); time.sleep(8)"]
)
time.sleep(5)  # the other process now owns GPU 0
if fixed:
    holder.wait()  # wait for it to release the GPU (or use another GPU)
try:
    x = torch.randn(1024, 1024, device="cuda")  # broken: GPU 0 is exclusively held by `holder`
    print(f"matmul on {torch.cuda.get_device_name(0)}: {(x @ x).norm().item():.1f}")
finally:
    holder.wait()
