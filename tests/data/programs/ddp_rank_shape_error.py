# expect: shape-matmul
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

os.environ["MASTER_ADDR"] = "127.0.0.1"
os.environ["MASTER_PORT"] = "29633"
dist.init_process_group("gloo", rank=0, world_size=1)
model = DDP(nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 128), nn.ReLU(), nn.Linear(128, 10)))
images = torch.randn(32, 3, 28, 28)  # switched to the colour version of the dataset
loss = nn.functional.cross_entropy(model(images), torch.randint(0, 10, (32,)))
loss.backward()
dist.destroy_process_group()
