"""pickle-local-object: a lambda defined inside main() is handed to DataLoader workers.

The normalisation transform is written as a lambda inside main(), closing over the dataset's mean
and std, and the Dataset keeps it. With num_workers > 0 and the spawn start method (the default on
Windows and macOS; Linux uses it when asked, here with multiprocessing_context="spawn"), the
DataLoader must pickle the Dataset to send it to each worker process, and pickle stores functions
by their importable name: a lambda or a function defined inside another function has none, so
pickling fails with "AttributeError: Can't pickle local object 'main.<locals>.<lambda>'" (Python
3.13 says "Can't get local object", 3.14 "_pickle.PicklingError: Can't pickle local object
<function main.<locals>.<lambda> at 0x...>").

`--fixed` uses a small module-level class, Normalize, whose instances pickle by reference to the
class plus their mean/std, and the epoch runs in a spawned worker.
"""

import torch
from _common import fixed_flag
from torch.utils.data import DataLoader, Dataset


class Normalize:
    """A picklable transform: defined at module level, its state is plain tensors."""

    def __init__(self, mean: torch.Tensor, std: torch.Tensor) -> None:
        self.mean, self.std = mean, std

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return (x - self.mean) / self.std


class SensorDataset(Dataset):
    def __init__(self, readings: torch.Tensor, labels: torch.Tensor, transform) -> None:
        self.readings, self.labels, self.transform = readings, labels, transform

    def __len__(self) -> int:
        return len(self.readings)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        return self.transform(self.readings[i]), self.labels[i]


def main() -> None:
    fixed = fixed_flag(__doc__)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    readings = torch.randn(256, 8) * 5 + 3
    labels = torch.randint(0, 2, (256,))
    mean, std = readings.mean(0), readings.std(0)
    # the mistake: a lambda local to main(), which pickle cannot find by name in a worker
    transform = Normalize(mean, std) if fixed else lambda x: (x - mean) / std
    loader = DataLoader(
        SensorDataset(readings, labels, transform),
        batch_size=64,
        shuffle=True,
        num_workers=1,
        multiprocessing_context="spawn",  # what Windows and macOS use by default
    )
    batches = [x for x, _ in loader]
    print(f"epoch done: {len(batches)} batches from a spawned worker, mean {batches[0].mean():.3f}")


if __name__ == "__main__":
    main()
