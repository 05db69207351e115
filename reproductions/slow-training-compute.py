"""slow-training-compute: a training step whose accuracy bookkeeping costs more than the model.

The loop times each phase of the step. The accuracy is counted sample by sample in Python, with
two `.item()` calls per sample: hundreds of tiny operations and conversions per step (on a GPU,
each `.item()` also waits for the device). That "metrics" phase takes most of every step while
the forward and backward passes, the real work, take a fraction; the data is already in memory.
`--fixed` counts the batch's correct predictions with one vectorised comparison.
"""

import time

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(16384, 32)
y = (x[:, :8].sum(1) > 0).long()
BATCH = 1024
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss()

PHASES = ("data", "forward", "backward", "optimizer", "metrics")
spent = dict.fromkeys(PHASES, 0.0)
step, correct, seen = 0, 0, 0
for epoch in range(1, 5):
    order = torch.randperm(len(x))
    for start in range(0, len(x), BATCH):
        t0 = time.perf_counter()
        idx = order[start : start + BATCH]  # the data is in memory: one indexing op per batch
        xb, yb = x[idx], y[idx]
        t1 = time.perf_counter()
        logits = model(xb)
        loss = criterion(logits, yb)
        t2 = time.perf_counter()
        optimizer.zero_grad()
        loss.backward()
        t3 = time.perf_counter()
        optimizer.step()
        t4 = time.perf_counter()
        pred = logits.argmax(1)
        if fixed:
            correct += (pred == yb).sum().item()  # one comparison for the whole batch
        else:
            for i in range(len(yb)):  # the mistake: a Python loop with .item() per sample
                correct += int(pred[i].item() == yb[i].item())
        seen += len(yb)
        t5 = time.perf_counter()
        for phase, dt in zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
            spent[phase] += dt
        step += 1
        if step % 4 == 0:
            times = " | ".join(f"{p} {1000 * spent[p] / 4:.2f}ms" for p in PHASES)
            head = f"epoch {epoch} | step {step} | loss {loss.item():.4f}"
            print(f"{head} | acc {correct / seen:.3f} | {times}")
            spent = dict.fromkeys(PHASES, 0.0)
            correct, seen = 0, 0
