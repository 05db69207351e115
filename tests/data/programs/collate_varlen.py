# expect: collate-unequal-size
import torch
from torch.utils.data import Dataset, DataLoader


class Sentences(Dataset):
    def __init__(self):
        self.data = [torch.arange(n) for n in (5, 7, 3, 9)]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i]


for batch in DataLoader(Sentences(), batch_size=2):
    print(batch.shape)
