# expect: collate-unsupported-type
import torch
from torch.utils.data import DataLoader, Dataset


class Sample:
    def __init__(self, image, label):
        self.image = image
        self.label = label


class ImageFolderLite(Dataset):
    def __init__(self, n=16):
        self.items = [Sample(torch.rand(3, 32, 32), i % 4) for i in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]


loader = DataLoader(ImageFolderLite(), batch_size=4, shuffle=True)
for batch in loader:
    print(batch.image.shape)
