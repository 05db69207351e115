# expect: view-invalid-shape
# argparse script whose model flattens with x.view(args.batch_size, -1): fine until the last,
# smaller batch of the epoch (1000 samples, batch size 64).
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self, batch_size):
        super().__init__()
        self.batch_size = batch_size
        self.conv = nn.Conv2d(1, 3, 3, padding=1)
        self.fc = nn.Linear(3 * 10 * 10, 10)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        x = x.view(self.batch_size, -1)
        return self.fc(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.05)
    args = parser.parse_args()

    data = TensorDataset(torch.randn(1000, 1, 10, 10), torch.randint(0, 10, (1000,)))
    loader = DataLoader(data, batch_size=args.batch_size, shuffle=True)
    model = Net(args.batch_size)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    for step, (x, y) in enumerate(loader):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
