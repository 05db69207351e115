"""spawn-main-guard: worker processes started at module level, without `if __name__ == "__main__":`.

A data-parallel training script written as a flat file: the worker function and the
`torch.multiprocessing.spawn(train, nprocs=WORLD_SIZE)` call both sit at module level. spawn (the
only start method on Windows, the default on macOS, what `mp.spawn` always uses) starts each worker
as a fresh Python interpreter that re-imports this file to find `train`. Re-importing runs the
module-level `mp.spawn(...)` again, inside the child, before the child has finished starting, and
Python's multiprocessing refuses: "RuntimeError: An attempt has been made to start a new process
before the current process has finished its bootstrapping phase." The child dies with exit code 1
and the parent reports "ProcessExitedException: process 0 terminated with exit code 1". A
DataLoader with num_workers > 0 on Windows / macOS (or Linux with Python 3.14's forkserver) fails
the same way.

`--fixed` moves the work into main() and calls it under `if __name__ == "__main__":`, so the
children import the file without starting anything, and the workers train.
"""

import torch
import torch.multiprocessing as mp
from _common import fixed_flag
from torch import nn
from torch.nn import functional as F

fixed = fixed_flag(__doc__)
WORLD_SIZE = max(torch.cuda.device_count(), 1)  # one process per GPU; 1 on a CPU machine


def train(rank: int, world_size: int) -> None:
    torch.set_num_threads(1)
    torch.manual_seed(rank)
    x, y = torch.randn(256, 16), torch.randint(0, 3, (256,))
    shard = slice(rank, None, world_size)  # each worker trains on its own shard of the data
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(20):
        loss = F.cross_entropy(model(x[shard]), y[shard])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"rank {rank}: trained on {len(x[shard])} samples, loss {loss.item():.3f}")


def main() -> None:
    mp.spawn(train, args=(WORLD_SIZE,), nprocs=WORLD_SIZE)
    print(f"{WORLD_SIZE} worker process(es) trained and exited cleanly")


if fixed:
    if __name__ == "__main__":
        main()
else:
    main()  # the mistake: every spawned child that re-imports this file runs it again
