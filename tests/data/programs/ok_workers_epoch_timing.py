# expect: none
# Correct: a DataLoader with two workers and a main guard; each epoch prints its loss, time and
# throughput, all ordinary.
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __len__(self):
        return 512

    def __getitem__(self, i):
        x = torch.tensor([i / 512.0])
        return x, x**2


def main():
    torch.manual_seed(0)
    loader = DataLoader(Squares(), batch_size=64, shuffle=True, num_workers=2)
    model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(1, 5):
        start, total = time.perf_counter(), 0.0
        for x, y in loader:
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        elapsed = time.perf_counter() - start
        print(
            f"epoch {epoch} loss {total / len(loader):.5f}"
            f" ({elapsed:.2f}s, {512 / elapsed:.0f} samples/s)"
        )


if __name__ == "__main__":
    main()
