# expect: unpack-mismatch
# After "ValueError: too many values to unpack (expected 2)" in training loops: the data set was
# changed to also return the file name, the loop was not.
import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __init__(self, n=20):
        self.names = [f"img_{i:04d}.png" for i in range(n)]

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        return torch.rand(3, 8, 8), i % 2, self.names[i]


def train(loader):
    for epoch in range(2):
        for images, labels in loader:
            print(images.shape, labels)


train(DataLoader(Images(), batch_size=4))
