# expect: collate-unsupported-type
import torch
from torch.utils.data import DataLoader, Dataset


class SafeImageDataset(Dataset):
    def __init__(self):
        self.paths = [f"img_{i}.jpg" for i in range(10)]
        self.broken = {3, 7}

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        try:
            if i in self.broken:
                raise OSError("image file is truncated")
            return torch.rand(3, 16, 16), i % 2
        except OSError:
            return None  # skip unreadable images


for images, labels in DataLoader(SafeImageDataset(), batch_size=4):
    print(images.shape)
