"""What every reproduction script shares: the --fixed flag and the "needs" exit code.

Each script runs the user's mistake by default, so torch itself raises the real error, and with
--fixed runs the corrected code and exits 0. When the machine lacks what the family needs (a GPU,
torchvision, numpy), the script says so on stderr and exits with NEEDS (77); the tests skip it with
that reason. A script that needs numpy (the `torch` extra installs it) imports it as

    try:
        import numpy as np
    except ModuleNotFoundError:
        not_installed("numpy", extra="torch")

"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

NEEDS = 77


def fixed_flag(description: str) -> bool:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--fixed", action="store_true", help="run the corrected code instead")
    return bool(parser.parse_args().fixed)


def skip(reason: str) -> NoReturn:
    print(f"SKIP: {reason}", file=sys.stderr)
    sys.exit(NEEDS)


def not_installed(package: str, extra: str) -> NoReturn:
    """Skip for a package that is not installed, saying what to install in the words of
    diagnoser/speak/optional.py (the scripts run without diagnoser, so they are repeated here; a
    test keeps the two the same)."""
    skip(
        f"this reproduction needs {package}, which is not installed: pip install {package} "
        f"(in a clone of torch-diagnoser: pip install '.[{extra}]')"
    )


def run_on_two_ranks(train: Callable[[int, int, bool], None], fixed: bool) -> None:
    """Run `train(rank, world, fixed)` in two processes joined by a gloo process group on this
    machine's CPU (the DDP reproductions). torch is imported here, not at the top: the scripts
    that need no torch import this module too. The ranks meet through a file, not a TCP port:
    a port picked free and closed again can be taken before rank 0 binds it."""
    import torch.multiprocessing as mp

    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp, "store").as_uri()
        mp.spawn(_rank, args=(train, 2, store, fixed), nprocs=2)
    sys.stdout.flush()


def _rank(
    rank: int, train: Callable[[int, int, bool], None], world: int, store: str, fixed: bool
) -> None:
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=store, rank=rank, world_size=world)
    train(rank, world, fixed)
    dist.barrier()  # every rank done before any closes its connections (gloo aborts otherwise)
    dist.destroy_process_group()
    # A rank's interpreter teardown may still abort in gloo's native threads ("terminate called
    # without an active exception", then SIGABRT, about one run in three with pipes for its
    # output): what the script shows is printed and the group is closed, so leave at once.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def print_sums_per_rank(weight: Any, rank: int, world: int, what: str) -> None:
    """Rank 0 prints the sum of `weight` on every rank: equal replicas give equal sums."""
    import torch
    import torch.distributed as dist

    total = weight.detach().double().sum().reshape(1)
    sums = [torch.zeros(1, dtype=torch.float64) for _ in range(world)]
    dist.all_gather(sums, total)
    if rank == 0:
        values = ", ".join(f"{float(s):.6f}" for s in sums)
        print(f"sum of {what} on each rank: {values}")
