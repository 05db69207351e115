# expect: none
# FileNotFoundError for a CSV given by a default argparse path relative to another directory: a
# Python error in a PyTorch script, which no entry explains.
import argparse
import csv

import torch


def load_rows(path):
    with open(path, newline="") as f:
        return [row for row in csv.DictReader(f)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--train-csv", default="data/processed/train_split.csv")
    p.add_argument("--epochs", type=int, default=5)
    args = p.parse_args()
    rows = load_rows(args.train_csv)
    x = torch.tensor([[float(r["x1"]), float(r["x2"])] for r in rows])
    print(x.shape)


if __name__ == "__main__":
    main()
