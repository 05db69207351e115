"""torchrun-child-failed: one rank exits with an error code, and torchrun only reports that it died.

Each rank trains on its own data shard, shard_{rank}.csv, but the shards were prepared for a
single process, so only shard_0.csv exists. Rank 1 logs "not found" and calls sys.exit(1), the way
many training scripts bail out: there is no Python traceback, so the only thing torchrun can say is
the ChildFailedError table, "rank 1 (local_rank: 1) ... exitcode 1", while it kills rank 0 (SIGTERM)
which was waiting for rank 1 in init_process_group.

`--fixed` keeps one dataset and gives every rank its own slice of it (rank::world_size, what
DistributedSampler does), so both ranks train a few DDP steps and the job exits 0.

The script launches itself the way a user would: `python torchrun-child-failed.py` runs
`python -m torch.distributed.run --standalone --nproc-per-node 2` on this same file (two CPU ranks,
gloo); the workers are the copies that torchrun starts.
"""

import gc
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import fixed_flag

fixed = fixed_flag(__doc__)
WORLD_SIZE = 2


def launch() -> int:
    """What the user types: prepare the data, then torchrun this script on two processes."""
    with tempfile.TemporaryDirectory() as data_dir:
        rows = [f"{i % 7},{i % 5},{i % 3},{i % 2}" for i in range(64)]  # 3 features, a label
        if fixed:
            Path(data_dir, "train.csv").write_text("\n".join(rows))
        else:
            Path(data_dir, "shard_0.csv").write_text("\n".join(rows))  # prepared for one process
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone"]
        cmd += ["--nproc-per-node", str(WORLD_SIZE), __file__, *sys.argv[1:]]
        env = {**os.environ, "DATA_DIR": data_dir, "OMP_NUM_THREADS": "1"}
        return subprocess.run(cmd, env=env).returncode


def load_rows(path: Path) -> list[list[float]]:
    return [[float(v) for v in line.split(",")] for line in path.read_text().splitlines()]


def worker() -> None:
    rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    data_dir = Path(os.environ["DATA_DIR"])
    if fixed:
        rows = load_rows(data_dir / "train.csv")[rank::world_size]  # every rank gets a slice
    else:
        shard = data_dir / f"shard_{rank}.csv"
        if not shard.exists():
            print(f"rank {rank}: {shard.name} not found, nothing to train on", file=sys.stderr)
            sys.exit(1)  # the mistake: a bare exit, no traceback, and only this rank stops
        rows = load_rows(shard)

    import torch
    import torch.distributed as dist
    from torch import nn

    torch.set_num_threads(1)
    dist.init_process_group("gloo")
    data = torch.tensor(rows)
    x, y = data[:, :3], data[:, 3].long()
    model = nn.parallel.DistributedDataParallel(nn.Linear(3, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(5):
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"rank {rank}: trained on {len(rows)} rows, loss {loss.item():.3f}")
    # Free DDP (its reducer sits in a reference cycle) before the process group; left to the
    # interpreter's exit, it aborted one run in five here (gloo, torch 2.13 CPU).
    del model, optimizer
    gc.collect()
    dist.destroy_process_group()


if "LOCAL_RANK" in os.environ:  # started by torchrun
    worker()
else:
    sys.exit(launch())
