"""ddp-gradients-not-synchronised: the forward calls `model.module`, around the DDP wrapper.

Two ranks (gloo, on the CPU) train one model with DistributedDataParallel, each on its own half
of the data. DDP averages the gradients during backward, but only for a forward that went through
the wrapper: here the loss comes from `ddp_model.module(x)`, so each rank steps with its own
gradient and the two copies of the model drift apart at the first step. Nothing fails, and each
rank's loss looks normal. `diagnoser.watch` (when installed) compares a checksum of every
gradient across the ranks before each sampled optimizer step.

`--fixed` calls `ddp_model(x)`: the gradients are averaged and the replicas stay equal.
"""

import os
import socket
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from _common import fixed_flag
from torch import nn
from torch.nn.parallel import DistributedDataParallel


def train(rank: int, world: int, port: int, fixed: bool) -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        import diagnoser
    except ImportError:
        diagnoser = None
    torch.manual_seed(0)
    ddp_model = DistributedDataParallel(
        nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    )
    optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.1)
    watch = diagnoser.watch(ddp_model, label=f"rank{rank}").attach() if diagnoser else None
    torch.manual_seed(rank)  # each rank its own shard of the data
    x, y = torch.randn(64, 8), torch.randn(64, 1)
    for _ in range(3):
        out = ddp_model(x) if fixed else ddp_model.module(x)  # the mistake: around the wrapper
        loss = nn.functional.mse_loss(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if watch is not None:
        watch.detach()
    weight = ddp_model.module[0].weight.detach()
    total = weight.double().sum().reshape(1)
    sums = [torch.zeros(1, dtype=torch.float64) for _ in range(world)]
    dist.all_gather(sums, total)
    if rank == 0:
        values = ", ".join(f"{float(s):.6f}" for s in sums)
        print(f"sum of the first layer's weights on each rank after 3 steps: {values}")
    dist.barrier()  # every rank done before any closes its connections (gloo aborts otherwise)
    dist.destroy_process_group()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


if __name__ == "__main__":
    fixed = fixed_flag(__doc__)
    mp.spawn(train, args=(2, free_port(), fixed), nprocs=2)
    sys.stdout.flush()
