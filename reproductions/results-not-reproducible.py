"""results-not-reproducible: the script seeds torch, but its augmentation draws from numpy.

`torch.manual_seed(0)` fixes torch's generator only. The random crop of this training draws from
numpy's global generator, which every new Python process seeds from the operating system: two
runs of the very same script (two fresh interpreters here) start the same weights, see the same
batches, and still end with different losses. Python's `random`, DataLoader workers that
inherit one numpy state, cuDNN's autotuned algorithms and atomics on the GPU do the same.

`--fixed` seeds every generator the run uses (python, numpy, torch; what `diagnoser.set_seed`
does, with cuDNN made deterministic): both runs end with the same loss, to the last digit.
"""

import multiprocessing as mp
import random

import torch
from _common import fixed_flag, not_installed
from torch import nn

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")


def train(fixed: bool) -> float:
    """One run of the training script, as a fresh process runs it."""
    torch.manual_seed(0)  # the user's seed: torch only
    if fixed:
        random.seed(0)
        np.random.seed(0)
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
    images = torch.randn(256, 1, 12, 12)
    labels = (images.mean((1, 2, 3)) > 0).long()
    model = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(30):
        top, left = np.random.randint(0, 5, size=2)  # the augmentation: a random 8x8 crop
        crop = images[:, :, top : top + 8, left : left + 8]
        loss = nn.functional.cross_entropy(model(crop), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    fixed = fixed_flag(__doc__)
    spawn = mp.get_context("spawn")  # a fresh interpreter per run, as running the script twice
    losses = []
    for _ in range(2):
        with spawn.Pool(1) as pool:
            losses.append(pool.apply(train, (fixed,)))
    verdict = "the same" if losses[0] == losses[1] else "different results with the same seed"
    print(f"two runs of the same script: final loss {losses[0]:.6f} and {losses[1]:.6f}: {verdict}")
