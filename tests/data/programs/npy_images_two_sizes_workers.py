# expect: collate-unequal-size
# After https://github.com/nizhenliang/RAUNet/issues/2 and
# https://github.com/qubvel-org/segmentation_models.pytorch/issues/472 (stack expects each tensor
# to be equal size): images of the user's own data set are not all the same size.
import glob
import os
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class SegDataset(Dataset):
    def __init__(self, root):
        self.files = sorted(glob.glob(os.path.join(root, "*.npy")))

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        img = np.load(self.files[i]).astype(np.float32) / 255.0
        return torch.from_numpy(img).permute(2, 0, 1)


def make_data(root):
    rng = np.random.default_rng(0)
    for i in range(8):
        h, w = (64, 64) if i % 3 else (48, 80)  # a few photos from another camera
        np.save(os.path.join(root, f"img_{i:03d}.npy"), rng.integers(0, 255, (h, w, 3), dtype=np.uint8))


if __name__ == "__main__":
    root = tempfile.mkdtemp()
    make_data(root)
    loader = DataLoader(SegDataset(root), batch_size=4, shuffle=False, num_workers=2)
    for epoch in range(2):
        for batch in loader:
            print(epoch, batch.shape)
