# expect: sampler-shuffle-exclusive
# After "sampler option is mutually exclusive with shuffle" reports: a WeightedRandomSampler added
# for class imbalance, shuffle=True left from the argparse defaults.
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler


def main(args):
    y = torch.cat([torch.zeros(90), torch.ones(10)]).long()
    ds = TensorDataset(torch.randn(100, 4), y)
    class_count = torch.bincount(y).float()
    weights = (1.0 / class_count)[y]
    sampler = WeightedRandomSampler(weights, num_samples=len(weights), replacement=True)
    loader = DataLoader(ds, batch_size=args.batch_size, shuffle=args.shuffle, sampler=sampler)
    for x, t in loader:
        print(t.float().mean().item())


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--shuffle", type=bool, default=True)
    main(p.parse_args())
