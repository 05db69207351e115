# expect: ddp-unused-parameters
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class MultiTaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(16, 32)
        self.cls_head = nn.Linear(32, 4)
        self.reg_head = nn.Linear(32, 1)  # only used when boxes are given

    def forward(self, x, with_boxes=False):
        h = torch.relu(self.backbone(x))
        out = self.cls_head(h)
        if with_boxes:
            return out, self.reg_head(h)
        return out


os.environ["MASTER_ADDR"] = "127.0.0.1"
os.environ["MASTER_PORT"] = "29619"
dist.init_process_group("gloo", rank=0, world_size=1)
model = DDP(MultiTaskNet())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.3f}")
dist.destroy_process_group()
