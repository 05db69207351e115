# expect: slow-training-dataloader
# Each sample is "decoded" in __getitem__ (a slow Python loop standing in for image decoding) and
# the loader runs with num_workers=0: the step timings show the model waiting on data.
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class SlowDS(Dataset):
    def __len__(self):
        return 48

    def __getitem__(self, i):
        time.sleep(0.015)  # decode + resize
        return torch.randn(3 * 32 * 32), i % 10


model = nn.Linear(3 * 32 * 32, 10)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
loader = DataLoader(SlowDS(), batch_size=16, num_workers=0)
for epoch in range(2):
    data_t = comp_t = 0.0
    t0 = time.time()
    for x, y in loader:
        t1 = time.time()
        data_t += t1 - t0
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        t0 = time.time()
        comp_t += t0 - t1
    print(f"epoch {epoch} | loss {loss.item():.4f} | data {data_t:.2f}s | compute {comp_t:.3f}s")
