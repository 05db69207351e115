# expect: empty-dataset
import glob

import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __init__(self, root):
        self.files = sorted(glob.glob(root + "/*.png"))

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.zeros(3, 8, 8)


loader = DataLoader(Images("./data/train"), batch_size=4, shuffle=True)
for x in loader:
    pass
