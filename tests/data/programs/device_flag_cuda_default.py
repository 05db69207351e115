# expect: cuda-not-compiled
# After https://github.com/zzzDavid/ICDAR-2019-SROIE/issues/4 (AssertionError: Torch not compiled
# with CUDA enabled, from model.to(args.device)): the script's default device is cuda.
import argparse

import torch
import torch.nn as nn


def main():
    parser = argparse.ArgumentParser(description="train a tiny text classifier")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--hidden-size", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    print(f"args: {vars(args)}")

    model = nn.Sequential(nn.Embedding(500, args.hidden_size), nn.Flatten(), nn.Linear(args.hidden_size * 8, 2))
    model = model.to(args.device)
    opt = torch.optim.Adam(model.parameters())
    for epoch in range(args.epochs):
        x = torch.randint(0, 500, (16, 8), device=args.device)
        y = torch.randint(0, 2, (16,), device=args.device)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
