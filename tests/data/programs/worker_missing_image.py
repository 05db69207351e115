# expect: dataloader-worker-exception
import os
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset

root = tempfile.mkdtemp()
names = [f"img_{i:03d}.pt" for i in range(12)]
for n in names[:-3]:  # the last files were never copied over
    torch.save(torch.rand(3, 8, 8), os.path.join(root, n))


class FolderDataset(Dataset):
    def __init__(self, root, names):
        self.root, self.names = root, names

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        with open(os.path.join(self.root, self.names[i]), "rb") as f:
            return torch.load(f), i % 2


if __name__ == "__main__":
    loader = DataLoader(FolderDataset(root, names), batch_size=4, num_workers=2)
    for x, y in loader:
        print(x.shape)
