# expect: dist-env-not-set
import torch
import torch.distributed as dist
import torch.nn as nn


def setup():
    dist.init_process_group(backend="gloo", init_method="env://")
    return dist.get_rank(), dist.get_world_size()


if __name__ == "__main__":
    rank, world = setup()
    model = nn.parallel.DistributedDataParallel(nn.Linear(4, 2))
    print(rank, world, model(torch.randn(2, 4)))
