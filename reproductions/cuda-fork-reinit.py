"""cuda-fork-reinit: a Dataset that moves each sample to the GPU, read by forked DataLoader workers.

The Dataset's __getitem__ ends with `.cuda()` "to save a step in the training loop". The parent
process has already initialised CUDA (the model is on the GPU), and on Linux (before Python 3.14)
DataLoader workers are started with fork. A forked child inherits a copy of the parent's memory
but not a working CUDA context, and CUDA cannot be initialised a second time in it, so the first
`.cuda()` in a worker raises "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use
CUDA with multiprocessing, you must use the 'spawn' start method", re-raised in the main process as
"Caught RuntimeError in DataLoader worker process 0". The script passes
multiprocessing_context="fork" so that it fails the same way on Python 3.14, whose Linux default
became forkserver.

`--fixed` keeps the workers on the CPU (they only read and collate), pins the batches, and moves
each batch to the GPU in the training loop, in the main process.

Needs CUDA and the fork start method (Linux); elsewhere the script exits 77.
"""

import multiprocessing

import torch
from _common import fixed_flag, skip
from torch import nn
from torch.utils.data import DataLoader, Dataset

fixed = fixed_flag(__doc__)
if not torch.cuda.is_available():
    skip("needs CUDA: the error comes from a forked worker touching CUDA after its parent did")
if "fork" not in multiprocessing.get_all_start_methods():
    skip("needs the fork start method (Linux); Windows has only spawn")
torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda")


class FeatureDataset(Dataset):
    def __init__(self, n: int) -> None:
        self.x, self.y = torch.randn(n, 32), torch.randint(0, 4, (n,))

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        if fixed:
            return self.x[i], self.y[i]  # CPU tensors; the training loop moves the batch
        return self.x[i].cuda(), self.y[i].cuda()  # the mistake: CUDA inside a forked worker


model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)  # CUDA is now up
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(
    FeatureDataset(512),
    batch_size=64,
    shuffle=True,
    num_workers=2,
    pin_memory=fixed,
    multiprocessing_context="fork",  # the Linux default before Python 3.14
)
for x, y in loader:
    x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"epoch done on {device} with 2 forked workers; last loss {loss.item():.3f}")
