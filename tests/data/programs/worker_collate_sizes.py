# expect: collate-unequal-size
import torch
from torch.utils.data import DataLoader, Dataset


class Crops(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        h = 32 if i % 3 else 30  # some images are not resized
        return torch.rand(3, h, 32), i % 2


if __name__ == "__main__":
    for imgs, labels in DataLoader(Crops(), batch_size=8, shuffle=True, num_workers=2):
        print(imgs.shape)
