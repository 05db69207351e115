# expect: empty-dataset
# After https://github.com/yichaojie/MobileNetV3/issues/1 (num_samples should be a positive integer
# value, but got num_samples=0; the data set looked for .jpg and the images were another format).
import glob
import os
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class ImageFolderFlat(Dataset):
    def __init__(self, root, ext="jpg"):
        self.files = glob.glob(os.path.join(root, "**", f"*.{ext}"), recursive=True)
        print(f"found {len(self.files)} images in {root}")

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.from_numpy(np.load(self.files[i]))


root = tempfile.mkdtemp()
for cls in ("cat", "dog"):
    os.makedirs(os.path.join(root, cls))
    for i in range(5):
        with open(os.path.join(root, cls, f"{i}.png"), "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n")

train_data = ImageFolderFlat(root)
train_loader = DataLoader(dataset=train_data, batch_size=8, shuffle=True)
for batch in train_loader:
    pass
