"""Whether two runs of this set-up can repeat each other: torch's generator seeded by hand, and a
Dataset that draws from numpy's or Python's global generator in the main process.

A process that never calls torch.manual_seed starts from a 64-bit seed drawn from the operating
system; people seed with small numbers (0, 42, 1234, a date), and an unseeded process draws one
below 2**32 once in four billion runs. DataLoader workers seed torch, numpy and random from the
loader's generator (torch's global one when it has none), so they repeat once torch is seeded;
but in the main process (num_workers=0) torch.manual_seed leaves numpy and random as they were.
Both are information, not errors: many runs need not repeat.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import torch
from torch.utils.data import DataLoader, IterableDataset

from .findings import Finding

_CHOSEN_SEED_LIMIT = 2**32


def unseeded() -> Finding | None:
    seed = torch.initial_seed()
    if seed < _CHOSEN_SEED_LIMIT:
        return None
    return Finding("seed.unseeded", {"seed": seed})


def main_process_draws(data: Any) -> Finding | None:
    """A finding when reading sample 0 in this process moves numpy's or Python's global
    generator (both put back as they were), for a loader that reads in this process."""
    if not isinstance(data, DataLoader) or data.num_workers > 0:
        return None
    if isinstance(data.dataset, IterableDataset):
        return None
    numpy = sys.modules.get("numpy")  # a Dataset that draws from numpy has imported it
    py_state = random.getstate()
    np_state = numpy.random.get_state() if numpy is not None else None
    try:
        data.dataset[0]
    except Exception:  # a dataset that cannot be read this way: no finding, never a crash
        return None
    finally:
        moved = []
        if numpy is not None and np_state is not None:
            now = numpy.random.get_state()
            if any(not _equal(a, b) for a, b in zip(now, np_state, strict=True)):
                moved.append("numpy.random")
            numpy.random.set_state(np_state)
        if random.getstate() != py_state:
            moved.append("random")
        random.setstate(py_state)
    if not moved:
        return None
    return Finding("seed.main-process-random", {"generators": " / ".join(moved)})


def _equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b) if not hasattr(a, "shape") else bool((a == b).all())
    except Exception:
        return False
