# expect: cuda-not-compiled
# A Dataset that moves each sample to "cuda" in __getitem__ (copied from a GPU machine), run on a
# CPU-only install with DataLoader workers.
import torch
from torch.utils.data import DataLoader, Dataset

DEVICE = "cuda"


class GPUDataset(Dataset):
    def __init__(self):
        self.data = torch.randn(64, 3, 16, 16)
        self.labels = torch.randint(0, 4, (64,))

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i].to(DEVICE), self.labels[i].to(DEVICE)


if __name__ == "__main__":
    loader = DataLoader(GPUDataset(), batch_size=8, num_workers=2)
    for x, y in loader:
        print(x.shape, y.shape)
