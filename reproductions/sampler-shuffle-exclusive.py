"""sampler-shuffle-exclusive: a DistributedSampler given to a DataLoader that keeps shuffle=True.

The single-GPU script loaded its data with `DataLoader(dataset, batch_size=32, shuffle=True)`;
for distributed training a DistributedSampler was added to the same call and `shuffle=True` was
left in. The sampler decides the order of the indices and `shuffle=True` asks the DataLoader to
build a RandomSampler that would decide it too, so the constructor refuses: "ValueError: sampler
option is mutually exclusive with shuffle".

`--fixed` moves the shuffling into the sampler (`DistributedSampler(..., shuffle=True)`, its
default), leaves `shuffle` out of the DataLoader, and calls `sampler.set_epoch(epoch)` so that
every epoch gets a new order.

Runs as one process (rank 0 of world size 1, read from torchrun's variables when they are set):
the DataLoader's check does not need a process group.
"""

import os

import torch
from _common import fixed_flag
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

rank = int(os.environ.get("RANK", 0))
world_size = int(os.environ.get("WORLD_SIZE", 1))

dataset = TensorDataset(torch.randn(96, 10), torch.randint(0, 2, (96,)))
sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True, seed=0)
if fixed:
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
else:
    # The mistake: shuffle=True kept from the single-process version, next to the sampler.
    loader = DataLoader(dataset, batch_size=32, shuffle=True, sampler=sampler)

for epoch in range(2):
    sampler.set_epoch(epoch)  # a new shuffle of this rank's share every epoch
    first = next(iter(sampler))
    n = sum(len(y) for _, y in loader)
    print(f"epoch {epoch}: rank {rank} read {n} samples, first index {first}")
