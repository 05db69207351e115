"""nccl-error: ranks that do not reach the same collective within the process group's timeout.

Rank 0 builds the vocabulary on its own (`if rank == 0: build_vocab()`) while the other ranks wait
for it in `dist.broadcast_object_list(...)`. When the wait is longer than the process group's
timeout, the waiting rank fails. On GPUs with NCCL the watchdog reports it, after 10 minutes by
default: "[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=..., OpType=...,
Timeout(ms)=600000) ran for 600xxx milliseconds before timing out". This CPU reproduction runs the
same code on the gloo backend (same process-group API, same mistake), whose own message is "Timed
out waiting 1000ms for recv operation to complete"; the timeout is scaled down to 1 s and the slow
step to 2 s so that it fails in seconds. Rank 0, arriving late, then finds rank 1 gone: "Connection
closed by peer" (or torchrun stops it first).

`--fixed` gives the process group a timeout longer than the slow step (in real jobs:
`init_process_group("nccl", timeout=timedelta(hours=1))`, or run such a step before or outside the
job), so rank 1 waits for the vocabulary and both ranks go on.

The script launches itself: `python nccl-error.py` runs
`python -m torch.distributed.run --standalone --nproc-per-node 2` on this same file.
"""

import os
import subprocess
import sys
import time
from datetime import timedelta

from _common import fixed_flag

fixed = fixed_flag(__doc__)


def launch() -> int:
    """What the user types: torchrun this script on two processes."""
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"]
    cmd += [__file__, *sys.argv[1:]]
    return subprocess.run(cmd, env={**os.environ, "OMP_NUM_THREADS": "1"}).returncode


def build_vocab() -> dict[str, int]:
    time.sleep(2)  # stands in for a slow step only rank 0 runs: tokenizing, downloading, eval
    return {word: i for i, word in enumerate(["<pad>", "<unk>", "the", "a"])}


def worker() -> None:
    import torch
    import torch.distributed as dist

    torch.set_num_threads(1)
    timeout = timedelta(seconds=30) if fixed else timedelta(seconds=1)  # NCCL's default: 10 min
    # The ranks meet under the default timeout: a rank that starts a second late on a loaded
    # machine must not fail in the rendezvous itself, which is not the mistake shown here. The
    # collectives then run in a group with the short timeout, as init_process_group's would.
    dist.init_process_group("gloo")
    group = dist.new_group(timeout=timeout)
    rank = dist.get_rank()
    shared = [build_vocab() if rank == 0 else None]
    dist.broadcast_object_list(shared, src=0, group=group)  # every other rank waits here for rank 0
    vocab = shared[0]
    total = torch.tensor([float(len(vocab))])
    dist.all_reduce(total, group=group)
    print(f"rank {rank}: got {len(vocab)} words, all_reduce gave {total.item():.0f}")
    dist.barrier(group=group)
    dist.destroy_process_group()


if "LOCAL_RANK" in os.environ:  # started by torchrun
    worker()
else:
    sys.exit(launch())
