# expect: dtype-mismatch
# After https://github.com/xianglin226/scMDC/issues/8 (mat1 and mat2 must have the same dtype,
# but got Double and Float): features read with numpy (float64) and handed to a float32 model.
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class TabularDataset(Dataset):
    def __init__(self, csv_path):
        data = np.loadtxt(csv_path, delimiter=",", skiprows=1)
        self.x = data[:, :-1]
        self.y = data[:, -1].astype(np.int64)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), torch.tensor(self.y[i])


def train(args):
    ds = TabularDataset(args.csv)
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=True)
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "train.csv")
    rng = np.random.default_rng(0)
    rows = np.hstack([rng.normal(size=(40, 6)), rng.integers(0, 2, size=(40, 1))])
    np.savetxt(path, rows, delimiter=",", header="a,b,c,d,e,f,label", comments="")
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv", default=path)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--epochs", type=int, default=3)
    train(parser.parse_args())
