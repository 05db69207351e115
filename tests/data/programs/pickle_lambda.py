# expect: pickle-local-object
import torch
from torch.utils.data import DataLoader, Dataset


class DS(Dataset):
    def __init__(self):
        self.tf = lambda x: x * 2

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return self.tf(torch.tensor(float(i)))


if __name__ == "__main__":
    import multiprocessing as mp

    loader = DataLoader(
        DS(), batch_size=2, num_workers=1, multiprocessing_context=mp.get_context("spawn")
    )
    for b in loader:
        print(b)
