# expect: numpy-negative-strides
# After https://github.com/aleju/imgaug/issues/630 (flipud produces negative strides, which
# torch.from_numpy refuses): a random horizontal flip written with numpy slicing, in a worker.
import os
import random
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class FlipDataset(Dataset):
    def __init__(self, root, train=True):
        self.paths = sorted(os.path.join(root, f) for f in os.listdir(root))
        self.train = train

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        img = np.load(self.paths[i])
        if self.train and random.random() < 0.5:
            img = img[:, ::-1, :]  # horizontal flip
        return torch.from_numpy(img).permute(2, 0, 1).float() / 255.0


if __name__ == "__main__":
    root = tempfile.mkdtemp()
    for i in range(16):
        np.save(os.path.join(root, f"{i}.npy"), np.zeros((32, 32, 3), dtype=np.uint8))
    random.seed(1)
    loader = DataLoader(FlipDataset(root), batch_size=4, shuffle=True, num_workers=2)
    for epoch in range(2):
        for step, x in enumerate(loader):
            print(f"epoch {epoch} step {step} {tuple(x.shape)}")
