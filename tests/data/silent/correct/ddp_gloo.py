# ranks: 2
# summary: DistributedDataParallel on gloo as torchrun starts it: DistributedSampler with set_epoch, the forward through the DDP wrapper, gradient accumulation under no_sync(), rank 0 evaluates model.module in eval mode
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

import diagnoser

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
data = TensorDataset(torch.randn(128, 10), torch.randint(0, 4, (128,)))
sampler = DistributedSampler(data, shuffle=True, seed=0)
loader = DataLoader(data, batch_size=8, sampler=sampler)
model = DDP(nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 4)))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
with diagnoser.watch(model) as w:
    for epoch in range(2):
        sampler.set_epoch(epoch)
        model.train()
        for i, (x, y) in enumerate(loader):
            if i % 2 == 0:
                with model.no_sync():
                    (nn.functional.cross_entropy(model(x), y) / 2).backward()
                continue
            loss = nn.functional.cross_entropy(model(x), y) / 2
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            w.step(loss * 2)
        if rank == 0:
            model.module.eval()
            with torch.no_grad():
                model.module(torch.randn(4, 10))
dist.destroy_process_group()
