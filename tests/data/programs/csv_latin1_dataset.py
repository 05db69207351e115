# expect: none
import os
import tempfile

import torch
from torch.utils.data import Dataset

path = os.path.join(tempfile.mkdtemp(), "reviews.csv")
with open(path, "wb") as f:
    f.write("text,label\ncaf\u00e9 was great,1\nna\u00efve plot,0\n".encode("latin-1"))


class ReviewDataset(Dataset):
    def __init__(self, csv_path):
        with open(csv_path, encoding="utf-8") as f:
            self.rows = [line.rstrip("\n").split(",") for line in f][1:]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        return text, torch.tensor(int(label))


ds = ReviewDataset(path)
print(len(ds))
