"""dataloader-worker-killed: a DataLoader worker is killed by the OOM killer (SIGKILL).

The Dataset keeps every decoded sample in a per-instance cache "to speed up later epochs". With
num_workers > 0 every worker process grows its own copy of that cache until the machine runs out
of host RAM and the Linux OOM killer sends the worker SIGKILL; the main process then reports
"DataLoader worker (pid N) is killed by signal: Killed." followed by "DataLoader worker (pid(s) N)
exited unexpectedly".

Exhausting this machine's RAM for real would be slow and could take other processes down with it,
so the script gives each worker a small memory budget (WORKER_RAM_BUDGET) and, when the cache
outgrows it, does exactly what the OOM killer does: os.kill(os.getpid(), signal.SIGKILL) on the
worker. Everything after that -- the signal, the SIGCHLD handler, both messages -- is torch's own.

`--fixed` drops the unbounded cache (decode on access), keeps num_workers=2, and finishes the epoch.
"""

import os
import signal

import torch
from _common import fixed_flag, skip
from torch import nn
from torch.utils.data import DataLoader, Dataset, get_worker_info

WORKER_RAM_BUDGET = 2 * 1024 * 1024  # bytes a worker may use for its cache, standing in for RAM


class ImageDataset(Dataset):
    def __init__(self, n: int, cache: bool) -> None:
        self.n = n
        self.cache: dict[int, torch.Tensor] | None = {} if cache else None

    def __len__(self) -> int:
        return self.n

    def decode(self, i: int) -> torch.Tensor:
        g = torch.Generator().manual_seed(i)  # stands in for reading and decoding image i
        return torch.rand(3, 64, 64, generator=g)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        if self.cache is None:
            return self.decode(i), i % 10
        if i not in self.cache:
            self.cache[i] = self.decode(i)  # never evicted: grows in every worker, every epoch
            used = sum(t.numel() * t.element_size() for t in self.cache.values())
            if get_worker_info() is not None and used > WORKER_RAM_BUDGET:
                os.kill(os.getpid(), signal.SIGKILL)  # what the kernel's OOM killer does
        return self.cache[i], i % 10


def main() -> None:
    fixed = fixed_flag(__doc__)
    if not hasattr(signal, "SIGKILL"):
        skip("needs a POSIX system: Windows has no SIGKILL for the OOM killer to send")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 64 * 64, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(ImageDataset(256, cache=not fixed), batch_size=16, num_workers=2)
    seen = 0
    for images, labels in loader:
        loss = nn.functional.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        seen += len(images)
    print(f"epoch done: {seen} images with num_workers=2, loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
