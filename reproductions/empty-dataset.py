"""empty-dataset: a file-list Dataset whose glob finds no files, given to a shuffling DataLoader.

The dataset lists its samples with `root.glob("*.pth")`, but the files were saved as `*.pt`. The
list is empty, `len(dataset)` is 0, and `DataLoader(..., shuffle=True)` builds a RandomSampler over
zero samples, which refuses at once: "ValueError: num_samples should be a positive integer value,
but got num_samples=0". (Without shuffle nothing fails: the training loop runs zero batches.)

`--fixed` globs the extension the files really have and checks in `__init__` that something was
found, naming the folder and the pattern when nothing was.
"""

import tempfile
from pathlib import Path

import torch
from _common import fixed_flag
from torch.utils.data import DataLoader, Dataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


class FeatureFiles(Dataset):
    """One saved (features, label) pair per file."""

    def __init__(self, root: Path, pattern: str) -> None:
        self.files = sorted(root.glob(pattern))
        if fixed and not self.files:
            raise FileNotFoundError(f"no files matching {pattern!r} in {root}")

    def __len__(self) -> int:
        return len(self.files)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        return torch.load(self.files[i])


with tempfile.TemporaryDirectory() as tmp:
    root = Path(tmp, "train")
    root.mkdir()
    for i in range(40):  # the preprocessing step saved the samples as .pt
        torch.save((torch.randn(16), torch.tensor(i % 4)), root / f"sample_{i:03d}.pt")

    # The mistake: the pattern says .pth, the files are .pt; the dataset is silently empty.
    dataset = FeatureFiles(root, "*.pt" if fixed else "*.pth")
    loader = DataLoader(dataset, batch_size=8, shuffle=True)
    n = sum(len(y) for _, y in loader)
    print(f"{len(dataset)} samples found, one epoch read {n} of them in {len(loader)} batches")
