"""dataloader-shared-memory: DataLoader workers run out of shared memory (/dev/shm): Bus error.

DataLoader workers hand each finished batch to the main process through shared memory (files in
/dev/shm). In a Docker container /dev/shm is 64 MB unless `--shm-size` or `--ipc=host` is given,
and this loader keeps far more than that in flight: batches of 64 float32 images of 3x224x224
(38.5 MB each), times num_workers=2, times prefetch_factor=2, is about 154 MB. When the shared
memory is exhausted while a worker writes into a shared buffer, the kernel sends it SIGBUS; torch's
handler in the worker prints "ERROR: Unexpected bus error encountered in worker. This might be
caused by insufficient shared memory (shm).", and the main process raises "DataLoader worker (pid
N) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared
memory. Please try to raise your shared memory limit.", followed by "DataLoader worker (pid(s) N)
exited unexpectedly". (Recent torch versions often notice the shortage earlier and raise "unable
to allocate shared memory(shm) for file </torch_...>: No space left on device (28)" instead.)

This script SIMULATES the exhaustion, honestly: shrinking this machine's /dev/shm needs root and
would disturb other processes, so the collate_fn that runs in each worker counts the shared
memory the loader keeps in flight against SHM_LIMIT (Docker's 64 MB default) and, when it is
exceeded, does what the kernel would do to the worker: os.kill(os.getpid(), signal.SIGBUS).
Everything after that (torch's SIGBUS handler in the worker, its message, the main process's
SIGCHLD handling and both errors) is torch's own.

`--fixed` keeps the images as uint8 in the workers (4x less shared memory: about 38.5 MB in
flight) and converts them to float in the main process; in real life also raise the limit
(`docker run --shm-size=8g` or `--ipc=host`).
"""

import os
import signal

import torch
from _common import fixed_flag, skip
from torch.utils.data import DataLoader, Dataset, default_collate, get_worker_info

SHM_LIMIT = 64 * 1000 * 1000  # bytes: Docker's default /dev/shm ("64M")
BATCH_SIZE = 64
PREFETCH_FACTOR = 2


class ImageNetLike(Dataset):
    def __init__(self, n: int, as_float: bool) -> None:
        self.n = n
        self.as_float = as_float

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        g = torch.Generator().manual_seed(i)  # stands in for decoding a 224x224 JPEG
        image = torch.randint(0, 256, (3, 224, 224), dtype=torch.uint8, generator=g)
        return (image.float() / 255 if self.as_float else image), i % 1000


def shm_limited_collate(batch: list[tuple[torch.Tensor, int]]) -> object:
    """default_collate, plus the simulated /dev/shm limit (see the docstring)."""
    out = default_collate(batch)
    info = get_worker_info()
    if info is not None:
        images = out[0]
        in_flight = images.numel() * images.element_size() * info.num_workers * PREFETCH_FACTOR
        if in_flight > SHM_LIMIT:
            os.kill(os.getpid(), signal.SIGBUS)  # what the kernel does when /dev/shm is full
    return out


def main() -> None:
    fixed = fixed_flag(__doc__)
    if not hasattr(signal, "SIGBUS"):
        skip("needs a POSIX system: Windows DataLoader workers get no SIGBUS")
    torch.manual_seed(0)
    torch.set_num_threads(1)
    loader = DataLoader(
        ImageNetLike(2 * BATCH_SIZE, as_float=not fixed),
        batch_size=BATCH_SIZE,
        num_workers=2,
        prefetch_factor=PREFETCH_FACTOR,
        collate_fn=shm_limited_collate,
    )
    seen = 0
    for images, _labels in loader:
        images = images.float() / 255 if fixed else images  # convert in the main process
        seen += len(images)
    print(f"epoch done: {seen} images of {tuple(images.shape[1:])} with num_workers=2")


if __name__ == "__main__":
    main()
