# expect: dtensor-mixed-tensor
import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Shard, distribute_tensor

os.environ["MASTER_ADDR"] = "127.0.0.1"
os.environ["MASTER_PORT"] = "29621"
os.environ["RANK"] = "0"
os.environ["WORLD_SIZE"] = "1"
dist.init_process_group("gloo")
mesh = init_device_mesh("cpu", (1,))

weight = distribute_tensor(torch.randn(64, 32), mesh, [Shard(0)])
bias = torch.zeros(64)
x = torch.randn(8, 32)
out = torch.nn.functional.linear(x, weight, bias)
print(out.shape)
dist.destroy_process_group()
