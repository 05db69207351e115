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

import torch
from _common import fixed_flag, print_sums_per_rank, run_on_two_ranks
from torch import nn
from torch.nn.parallel import DistributedDataParallel


def build() -> nn.Module:
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))


def train(rank: int, world: int, fixed: bool) -> None:
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
    first = ddp_model.module[0].weight
    print_sums_per_rank(first, rank, world, "the first layer's weights after 3 steps")


if __name__ == "__main__":
    run_on_two_ranks(train, fixed_flag(__doc__))
