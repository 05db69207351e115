"""workers-same-augmentation: the Dataset makes its random generator in __init__, and every
DataLoader worker gets an identical copy of it.

`self.rng = np.random.default_rng()` in `__init__`: the DataLoader copies the Dataset into each
of its worker processes, generator state included, so worker 0 and worker 1 draw the very same
random crops. torch seeds its own generator, `random` and numpy's global one differently in each
worker, but not a generator the Dataset holds. The model sees each augmentation once per worker
instead of fresh ones. `diagnoser.preflight` (when installed) reads one sample in two workers and
compares them.

`--fixed` re-seeds the Dataset's generator in each worker from the seed torch gives it
(`worker_init_fn`): every worker draws its own crops.
"""

import torch
from _common import fixed_flag, not_installed
from torch import nn
from torch.utils.data import DataLoader, Dataset, get_worker_info

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")


class RandomCrops(Dataset):
    def __init__(self) -> None:
        pixels = torch.arange(16 * 12 * 12, dtype=torch.float32).reshape(16, 1, 12, 12)
        self.images = pixels / pixels.numel()  # each pixel tells where it was
        self.rng = np.random.default_rng()  # the mistake: one generator, copied into each worker

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        top, left = self.rng.integers(0, 5, size=2)
        return self.images[i, :, top : top + 8, left : left + 8], i % 2


def reseed(worker_id: int) -> None:
    dataset = get_worker_info().dataset
    dataset.rng = np.random.default_rng(get_worker_info().seed)


if __name__ == "__main__":
    fixed = fixed_flag(__doc__)
    torch.manual_seed(0)
    loader = DataLoader(
        RandomCrops(), batch_size=4, num_workers=2, worker_init_fn=reseed if fixed else None
    )
    try:  # the check that names the problem; the harm below shows without it
        from diagnoser import preflight
    except ImportError:
        preflight = None
    model = nn.Sequential(nn.Flatten(), nn.Linear(64, 2))
    if preflight:
        print(preflight(model, loader, nn.CrossEntropyLoss()).to_text("en"))
    # the first batch of each worker holds samples 0-3 and 4-7: the crop offsets they got
    offsets = []
    for images, _ in loader:
        offsets.append([round(float(img[0, 0, 0]) * 16 * 12 * 12) % 12 for img in images])
        if len(offsets) == 2:
            break
    print(f"crop columns, worker 0's first batch: {offsets[0]}, worker 1's: {offsets[1]}")
