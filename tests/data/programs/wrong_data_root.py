# expect: none
import os

import torch
from torch.utils.data import Dataset


class SlicesDataset(Dataset):
    def __init__(self, root):
        self.files = sorted(os.path.join(root, f) for f in os.listdir(root) if f.endswith(".pt"))

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.load(self.files[i])


train_set = SlicesDataset("./data/train_slices")
print(len(train_set))
