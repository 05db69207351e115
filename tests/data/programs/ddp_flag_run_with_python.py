# expect: dist-env-not-set
# After "environment variable RANK expected, but not set" reports: a DDP script started with
# plain `python train.py` instead of torchrun.
import argparse

import torch.distributed as dist
import torch.nn as nn


def setup(args):
    if args.distributed:
        dist.init_process_group(backend=args.backend, init_method="env://")
        print("rank", dist.get_rank())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--distributed", action="store_false")
    parser.add_argument("--backend", default="gloo")
    args = parser.parse_args()
    setup(args)
    model = nn.Linear(4, 4)
    if args.distributed:
        model = nn.parallel.DistributedDataParallel(model)
    print(model)


if __name__ == "__main__":
    main()
