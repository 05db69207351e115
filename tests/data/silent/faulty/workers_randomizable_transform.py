# expect: workers-same-augmentation
# fault-step: 0
# source: https://github.com/Project-MONAI/MONAI/issues/1068
# summary: a Randomizable-style transform draws from its own RandomState (self.R) created in the main process; worker_init_fn re-seeds np.random but not self.R, so the workers repeat each other's random values
import random

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class RandScaleIntensity:
    def __init__(self) -> None:
        self.R = np.random.RandomState()

    def randomize(self) -> None:
        self.factor = self.R.uniform(0.7, 1.3)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        self.randomize()
        return (x * self.factor).astype(np.float32)


class TransformDataset(Dataset):
    def __init__(self, data: np.ndarray, targets: np.ndarray, transform) -> None:
        self.data, self.targets, self.transform = data, targets, transform

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i: int):
        return torch.from_numpy(self.transform(self.data[i])), float(self.targets[i])


def wif(worker_id: int) -> None:
    np.random.seed(random.randint(0, 2**32 - 1))


if __name__ == "__main__":
    import diagnoser

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    data = rng.standard_normal((36, 20)).astype(np.float32)
    targets = data.sum(1)
    ds = TransformDataset(data, targets, RandScaleIntensity())
    loader = DataLoader(ds, batch_size=3, shuffle=False, num_workers=3, worker_init_fn=wif)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 1), nn.Flatten(0))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    print(diagnoser.preflight(model, loader, nn.MSELoss(), optimizer))
    with diagnoser.watch(model) as w:
        for x, y in loader:
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x), y.float())
            loss.backward()
            optimizer.step()
            w.step(loss)
