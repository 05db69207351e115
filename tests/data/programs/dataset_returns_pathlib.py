# expect: collate-unsupported-type
# __getitem__ also returns the sample's pathlib.Path (to save predictions under the same name):
# default_collate has no rule for Path objects.
import tempfile
from pathlib import Path

import torch
from torch.utils.data import DataLoader, Dataset

root = Path(tempfile.mkdtemp())
for i in range(6):
    torch.save(torch.randn(3, 8, 8), root / f"sample_{i}.pt")


class TensorFolder(Dataset):
    def __init__(self, root):
        self.files = sorted(root.glob("*.pt"))

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        path = self.files[i]
        return torch.load(path), path


for images, paths in DataLoader(TensorFolder(root), batch_size=3):
    print(images.shape, paths)
