# expect: ddp-device-ids-cpu
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


def main():
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29617")
    dist.init_process_group("gloo", rank=0, world_size=1)
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    device = torch.device("cuda", local_rank) if torch.cuda.is_available() else torch.device("cpu")
    model = nn.Linear(10, 2).to(device)
    model = DDP(model, device_ids=[local_rank], output_device=local_rank)
    print(model(torch.randn(4, 10, device=device)).shape)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
