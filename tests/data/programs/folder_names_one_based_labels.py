# expect: target-out-of-bounds
# After "IndexError: Target 5 is out of bounds" reports: class ids parsed from folder names
# class_1..class_5, used as they are with a 5-way classifier.
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class FolderDataset(Dataset):
    def __init__(self, root):
        self.items = []
        for d in sorted(os.listdir(root)):
            label = int(d.split("_")[1])
            for f in sorted(os.listdir(os.path.join(root, d))):
                self.items.append((os.path.join(root, d, f), label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        path, label = self.items[i]
        return torch.from_numpy(np.load(path)), label


root = tempfile.mkdtemp()
for c in range(1, 6):
    os.makedirs(os.path.join(root, f"class_{c}"))
    for i in range(4):
        np.save(os.path.join(root, f"class_{c}", f"{i}.npy"), np.random.rand(16).astype(np.float32))

loader = DataLoader(FolderDataset(root), batch_size=8, shuffle=True)
model = nn.Linear(16, 5)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for x, y in loader:
        loss = nn.CrossEntropyLoss()(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss", loss.item())
