# expect: collate-unequal-size
import sys

import torch
from torch.utils.data import DataLoader, Dataset


class AudioClips(Dataset):
    def __len__(self):
        return 40

    def __getitem__(self, i):
        n = 16000 if i < 30 else 15000 + i  # the last clips are shorter
        return torch.randn(n), i % 3


loader = DataLoader(AudioClips(), batch_size=8)
for epoch in range(1):
    for step, (wave, label) in enumerate(loader):
        done = int(20 * (step + 1) / len(loader))
        sys.stderr.write(
            f"\rEpoch {epoch}: |{'#' * done}{' ' * (20 - done)}| {step + 1}/{len(loader)}"
        )
        sys.stderr.flush()
