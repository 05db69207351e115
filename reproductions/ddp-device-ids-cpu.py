"""ddp-device-ids-cpu: a GPU training script's `DDP(model, device_ids=[local_rank])` run on CPU.

The script was written for one GPU per process: it wraps the model with
`DistributedDataParallel(model, device_ids=[local_rank])`. Run on a machine without CUDA (gloo
backend, model left on the CPU), the same call is refused, because `device_ids` and
`output_device` name CUDA devices and only make sense for a module that lives on one GPU:
"ValueError: DistributedDataParallel device_ids and output_device arguments only work with
single-device/multiple-device GPU modules or CPU modules, but got device_ids [0], output_device
None, and module parameters {device(type='cpu')}."

`--fixed` chooses the device first and passes `device_ids` only when the model is on a GPU
(`device_ids=None` for a CPU module, the same for a module split over several GPUs).

Runs one CPU process (gloo, world_size=1).
"""

import os
import tempfile
from pathlib import Path

import torch
import torch.distributed as dist
from _common import fixed_flag
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

local_rank = int(os.environ.get("LOCAL_RANK", 0))
use_cuda = torch.cuda.is_available()
device = torch.device("cuda", local_rank) if use_cuda else torch.device("cpu")

with tempfile.TemporaryDirectory() as tmp:
    # a file store instead of a TCP port: no port to collide with other jobs on this machine
    dist.init_process_group(
        "nccl" if use_cuda else "gloo",
        init_method=Path(tmp, "store").as_uri(),
        rank=0,
        world_size=1,
    )
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
    if fixed:
        model = DDP(model, device_ids=[local_rank] if device.type == "cuda" else None)
    else:
        model = DDP(model, device_ids=[local_rank])  # the mistake: a GPU index for a CPU model
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(64, 20, device=device), torch.randint(0, 2, (64,), device=device)
    for step in range(3):
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.3f}")
    dist.destroy_process_group()
print(f"DDP trained 3 steps on {device}")
