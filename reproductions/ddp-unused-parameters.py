"""ddp-unused-parameters: a DDP model with a branch that some iterations do not use.

The classifier has an auxiliary head that is only used when `use_aux=True` (a later training
phase). DistributedDataParallel registers a gradient hook on every parameter and, at the start of
each iteration, expects all of them to have been reduced in the previous one. In the first phase the
aux head takes no part in the loss, its weight and bias never get a gradient, and the second
iteration fails with "Expected to have finished reduction in the prior iteration before starting a
new one ... Parameter indices which did not receive grad for rank 0: 4 5".

`--fixed` passes `find_unused_parameters=True`, so DDP walks the autograd graph after each forward
and marks the parameters that were not used as ready. (When a branch is never used, deleting it is
cheaper; when every output should be trained, add it to the loss instead.)

Runs one CPU process (gloo, world_size=1): enough for DDP's bookkeeping to fail the same way.
"""

import tempfile
from pathlib import Path

import torch
import torch.distributed as dist
from _common import fixed_flag
from torch import nn
from torch.nn import functional as F

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.backbone = nn.Linear(16, 32)  # parameters 0, 1
        self.head = nn.Linear(32, 4)  # parameters 2, 3
        self.aux_head = nn.Linear(32, 2)  # parameters 4, 5: only trained with use_aux=True

    def forward(self, x: torch.Tensor, use_aux: bool = False) -> torch.Tensor:
        h = torch.relu(self.backbone(x))
        out = self.head(h)
        if use_aux:
            out = out + self.aux_head(h).mean(dim=1, keepdim=True)
        return out


with tempfile.TemporaryDirectory() as tmp:
    # a file store instead of a TCP port: no port to collide with other jobs on this machine
    dist.init_process_group("gloo", init_method=Path(tmp, "store").as_uri(), rank=0, world_size=1)
    model = nn.parallel.DistributedDataParallel(Classifier(), find_unused_parameters=fixed)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(64, 16), torch.randint(0, 4, (64,))
    for step in range(3):
        loss = F.cross_entropy(model(x, use_aux=False), y)  # phase 1: aux head not used
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.3f}")
    dist.destroy_process_group()
print("DDP trained 3 steps with an unused branch")
