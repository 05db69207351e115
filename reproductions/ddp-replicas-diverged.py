"""ddp-replicas-diverged: a checkpoint loaded on rank 0 alone, after the DDP wrapper was made.

DistributedDataParallel broadcasts rank 0's weights once, when the wrapper is made. Here the
pretrained weights are loaded afterwards, and only on rank 0 (the usual `if rank == 0:` around
file access): rank 1 keeps its random initialisation. The gradients are averaged at every step as
they should be, yet the two ranks now train two different models; evaluation on rank 0 and the
checkpoint saved by rank 0 describe a model the others never had. `diagnoser.watch` (when
installed) compares a checksum of every weight across the ranks after each sampled optimizer step.

`--fixed` loads the checkpoint on every rank before wrapping the model (DDP then starts every
rank from the same weights): the replicas stay equal.
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


def build() -> nn.Module:
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))


def train(rank: int, world: int, port: int, fixed: bool) -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        import diagnoser
    except ImportError:
        diagnoser = None
    torch.manual_seed(1234)
    pretrained = build().state_dict()  # stands for torch.load("pretrained.pt")
    torch.manual_seed(rank)
    model = build()
    if fixed:
        model.load_state_dict(pretrained)  # every rank, before the wrapper broadcasts
        ddp_model = DistributedDataParallel(model)
    else:
        ddp_model = DistributedDataParallel(model)
        if rank == 0:  # the mistake: after the broadcast, and on one rank
            ddp_model.module.load_state_dict(pretrained)
    optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.1)
    watch = diagnoser.watch(ddp_model, label=f"rank{rank}").attach() if diagnoser else None
    torch.manual_seed(100 + rank)  # each rank its own shard of the data
    x, y = torch.randn(64, 8), torch.randn(64, 1)
    for _ in range(3):
        loss = nn.functional.mse_loss(ddp_model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if watch is not None:
        watch.detach()
    total = ddp_model.module[0].weight.detach().double().sum().reshape(1)
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
