"""ddp-grad-strides-warning: a model turned channels_last after DistributedDataParallel wrapped it.

DDP lays each gradient out in a flat bucket when it is constructed, with the strides the parameters
have then (contiguous here). `ddp.to(memory_format=torch.channels_last)` afterwards changes the
conv weights' strides, so backward produces channels_last gradients that no longer match their
bucket views, and the reducer copies every one of them each step: "UserWarning: Grad strides do
not match bucket view strides. This may indicate grad was not created according to the gradient
layout contract, or that the param's strides changed since DDP was constructed." The warning does
not stop training, so this script turns UserWarning into an error, as `python -W
error::UserWarning` or pytest's `filterwarnings = error` do: torch's own warning is raised from
backward with its traceback.

`--fixed` converts the model to channels_last first and wraps it in DDP afterwards, so the buckets
are laid out like the gradients; it runs with every warning an error.

Runs one CPU process (gloo, a file store, world size 1): the reducer checks the layout on any
backend.
"""

import tempfile
import warnings
from pathlib import Path

import torch
import torch.distributed as dist
from _common import fixed_flag
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

fixed = fixed_flag(__doc__)
warnings.simplefilter("error", UserWarning)  # like `python -W error::UserWarning train.py`
torch.manual_seed(0)
torch.set_num_threads(1)

with tempfile.TemporaryDirectory() as tmp:
    # a file store instead of a TCP port: no port to collide with other jobs on this machine
    dist.init_process_group("gloo", init_method=Path(tmp, "store").as_uri(), rank=0, world_size=1)
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Conv2d(8, 8, 3), nn.Flatten())
    if fixed:
        warnings.simplefilter("error")  # not a single warning is allowed in the fixed loop
        model = model.to(memory_format=torch.channels_last)  # layout first...
        ddp = DDP(model)  # ...then DDP: its buckets match the gradients
    else:
        ddp = DDP(model)
        ddp = ddp.to(memory_format=torch.channels_last)  # the mistake: strides change after DDP
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.01)
    x = torch.randn(4, 3, 16, 16).to(memory_format=torch.channels_last)
    for step in range(3):
        loss = ddp(x).square().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")
    dist.destroy_process_group()
print("trained 3 steps with channels_last and DDP, no warnings")
