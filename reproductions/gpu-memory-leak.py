"""gpu-memory-leak: the validation loss is kept as a tensor, with its autograd graph, every epoch.

The validation loop runs without torch.no_grad() and sums `val_loss += criterion(model(x), y)`;
the epoch's value is then appended to a history list (for plotting or early stopping). That
tensor still holds the graph of the whole validation pass, and with it every activation the
graph saved for a backward pass that never comes, so memory grows by one validation pass every
epoch until the GPU (or the host) runs out. `--fixed` validates under torch.no_grad() and keeps
`loss.item()`: the history holds Python floats and memory stays flat.

memory is torch.cuda.memory_allocated() on CUDA, else this process's resident set size (RSS).
"""

import os

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)  # a tiny model: one thread is faster, and steady on a shared machine
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def memory_mb() -> float:
    if device.type == "cuda":
        return torch.cuda.memory_allocated() / 2**20
    with open("/proc/self/statm") as f:  # Linux: the second field is the resident pages
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


# A learnable binary task: the label is the sign of a fixed linear function of the features.
w_true = torch.randn(32)
x_train, x_val = torch.randn(2048, 32), torch.randn(4096, 32)
y_train, y_val = (x_train @ w_true > 0).long(), (x_val @ w_true > 0).long()
x_train, y_train, x_val, y_val = (t.to(device) for t in (x_train, y_train, x_val, y_val))

model = nn.Sequential(nn.Linear(32, 2048), nn.ReLU(), nn.Linear(2048, 2)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
criterion = nn.CrossEntropyLoss()
history = []  # one validation loss per epoch, for the learning curve

for epoch in range(1, 11):
    model.train()
    train_loss = 0.0
    for i in range(0, len(x_train), 128):
        loss = criterion(model(x_train[i : i + 128]), y_train[i : i + 128])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_loss += loss.item()
    train_loss /= len(x_train) // 128

    model.eval()
    if fixed:
        val_loss = 0.0
        with torch.no_grad():
            for i in range(0, len(x_val), 512):
                val_loss += criterion(model(x_val[i : i + 512]), y_val[i : i + 512]).item()
    else:
        val_loss = 0  # becomes a tensor that requires grad after the first +=
        for i in range(0, len(x_val), 512):
            val_loss += criterion(model(x_val[i : i + 512]), y_val[i : i + 512])
    val_loss /= len(x_val) // 512
    history.append(val_loss)
    print(
        f"epoch {epoch:2d} | loss {train_loss:.4f} | val_loss {float(val_loss):.4f} "
        f"| memory {memory_mb():8.1f} MB"
    )
