# expect: collate-unsupported-type
# After "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists;
# found <class 'NoneType'>": __getitem__ swallows a read error and returns None, in a worker.
import os
import tempfile

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class SafeDataset(Dataset):
    def __init__(self, files):
        self.files = files

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        try:
            return torch.from_numpy(np.load(self.files[i]))
        except (OSError, ValueError):
            print(f"warning: could not read {self.files[i]}")
            return None


if __name__ == "__main__":
    root = tempfile.mkdtemp()
    files = []
    for i in range(8):
        path = os.path.join(root, f"{i}.npy")
        if i != 5:  # one file never got downloaded
            np.save(path, np.ones(4, dtype=np.float32))
        files.append(path)
    loader = DataLoader(SafeDataset(files), batch_size=4, num_workers=2)
    for batch in loader:
        print(batch.shape)
