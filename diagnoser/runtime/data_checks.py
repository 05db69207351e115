"""DataLoader workers that repeat each other's random augmentation.

Each worker process gets a copy of the Dataset. torch seeds `torch`, `random` and (since 1.9)
numpy's global generator differently in each worker, but a generator the Dataset holds itself
(`self.rng = np.random.default_rng()` or `random.Random()` made in `__init__`), or numpy's
global one in torch < 1.9, is copied as it is: every worker then draws the same "random" crops,
flips and noise, and an epoch with 8 workers holds 8 copies of each augmentation.

The check asks the workers themselves, never the Dataset in this process (whose generator the
user's run goes on with): a loader like the user's (same workers' start method, worker_init_fn
and collate_fn) over one index repeated reads it _READS times in each of two workers. When one
worker's reads differ among themselves (the sample is random) but the two workers' sequences are
equal read for read, they share one random stream. So many reads, because augmentations are
often coarse: two workers flipping at random agree on 12 flips in a row once in 4,096 runs.
"""

from __future__ import annotations

from typing import Any

import torch
from torch.utils.data import DataLoader, IterableDataset

from .findings import Finding

_SEED = 20240601  # the probe's own generator: the user's torch RNG is never drawn from
_READS = 12  # per worker


def workers_repeat_randomness(loader: Any) -> Finding | None:
    """A finding when the DataLoader's workers return the same random sample, else None."""
    if not isinstance(loader, DataLoader) or loader.num_workers < 2:
        return None
    dataset = loader.dataset
    if isinstance(dataset, IterableDataset) or not _length(dataset):
        return None
    try:
        reads = _reads(loader, dataset)
    except Exception:  # a dataset that cannot be read this way: no finding, never a crash
        return None
    worker_0, worker_1 = reads[0::2], reads[1::2]  # the probe hands out reads round robin
    random = any(not _same(worker_0[0], r) for r in worker_0[1:])
    if not random or not all(_same(a, b) for a, b in zip(worker_0, worker_1, strict=True)):
        return None  # not random, or random and different in each worker: as it should be
    values = {"workers": loader.num_workers, "index": 0}
    return Finding("data.workers-same-random", values)


def _length(dataset: Any) -> int:
    try:
        return len(dataset)
    except TypeError:
        return 0


def _reads(loader: DataLoader[Any], dataset: Any) -> list[Any]:
    """Index 0 read _READS times by each of two workers, round robin: worker 0 reads the 1st,
    3rd, 5th..."""
    probe = DataLoader(
        dataset,  # itself, not a Subset: a worker_init_fn may reach it via get_worker_info()
        batch_size=1,
        sampler=[0] * (2 * _READS),
        num_workers=2,
        collate_fn=loader.collate_fn,
        worker_init_fn=loader.worker_init_fn,
        multiprocessing_context=loader.multiprocessing_context,
        generator=torch.Generator().manual_seed(_SEED),
        timeout=60,
    )
    return list(probe)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.shape == b.shape and a.dtype == b.dtype and bool(torch.equal(a, b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    try:
        return bool(a == b)
    except Exception:  # an object with no equality of its own: taken as equal (no finding)
        return True
