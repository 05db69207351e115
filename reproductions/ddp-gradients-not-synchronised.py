"""ddp-gradients-not-synchronised: the forward calls `model.module`, around the DDP wrapper.

Two ranks (gloo, on the CPU) train one model with DistributedDataParallel, each on its own half
of the data. DDP averages the gradients during backward, but only for a forward that went through
the wrapper: here the loss comes from `ddp_model.module(x)`, so each rank steps with its own
gradient and the two copies of the model drift apart at the first step. Nothing fails, and each
rank's loss looks normal. `diagnoser.watch` (when installed) compares a checksum of every
gradient across the ranks before each sampled optimizer step.

`--fixed` calls `ddp_model(x)`: the gradients are averaged and the replicas stay equal.
"""

import torch
from _common import fixed_flag, print_sums_per_rank, run_on_two_ranks
from torch import nn
from torch.nn.parallel import DistributedDataParallel


def train(rank: int, world: int, fixed: bool) -> None:
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
    first = ddp_model.module[0].weight
    print_sums_per_rank(first, rank, world, "the first layer's weights after 3 steps")


if __name__ == "__main__":
    run_on_two_ranks(train, fixed_flag(__doc__))
