"""dist-env-not-set: a DDP script started with plain `python` instead of torchrun.

init_process_group() with the default env:// rendezvous reads RANK, WORLD_SIZE, MASTER_ADDR and
MASTER_PORT from the environment; torchrun sets them for each process it starts, plain `python`
does not. `--fixed` falls back to a one-process group when the script was not started by torchrun
(the same code then also runs under `torchrun --nproc_per_node=N`).
"""

import os
import socket

import torch.distributed as dist
from _common import fixed_flag

fixed = fixed_flag(__doc__)
for name in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"):
    os.environ.pop(name, None)  # as in a fresh shell: nothing set by a launcher

if fixed and "RANK" not in os.environ:
    # Not started by torchrun: run as a single process on this machine.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.update(RANK="0", WORLD_SIZE="1", MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))

dist.init_process_group(backend="gloo")
print(f"rank {dist.get_rank()} of {dist.get_world_size()}")
dist.destroy_process_group()
