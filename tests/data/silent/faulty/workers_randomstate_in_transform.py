# expect: workers-same-augmentation
# fault-step: 0
# source: https://github.com/wolny/pytorch-3dunet/issues/32
# summary: RandomRotate/RandomContrast transforms hold a np.random.RandomState made when the dataset is built; every DataLoader worker gets a copy of it and applies the same angle and contrast
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class RandomRotate:
    def __init__(self, random_state: np.random.RandomState) -> None:
        self.random_state = random_state

    def __call__(self, m: np.ndarray) -> np.ndarray:
        k = self.random_state.randint(0, 4)
        return np.rot90(m, k, axes=(1, 2)).copy()


class RandomContrast:
    def __init__(self, random_state: np.random.RandomState, alpha=(0.5, 1.5)) -> None:
        self.random_state, self.alpha = random_state, alpha

    def __call__(self, m: np.ndarray) -> np.ndarray:
        a = self.random_state.uniform(self.alpha[0], self.alpha[1])
        return (m.mean() + a * (m - m.mean())).astype(np.float32)


class PatchDataset(Dataset):
    def __init__(self, raw: np.ndarray, labels: np.ndarray, seed: int = 47) -> None:
        self.raw, self.labels = raw, labels
        random_state = np.random.RandomState(seed)
        self.transforms = [RandomRotate(random_state), RandomContrast(random_state)]

    def __len__(self) -> int:
        return len(self.raw)

    def __getitem__(self, idx: int):
        patch = self.raw[idx]
        for t in self.transforms:
            patch = t(patch)
        return torch.from_numpy(patch), torch.from_numpy(self.labels[idx])


if __name__ == "__main__":
    import diagnoser

    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    raw = rng.standard_normal((32, 1, 16, 16)).astype(np.float32)
    labels = (raw > 0).astype(np.float32)
    loader = DataLoader(PatchDataset(raw, labels), batch_size=4, num_workers=4)
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
    print(diagnoser.preflight(model, loader, nn.BCEWithLogitsLoss(), optimizer))
    with diagnoser.watch(model) as w:
        for x, y in loader:
            optimizer.zero_grad()
            loss = nn.functional.binary_cross_entropy_with_logits(model(x), y)
            loss.backward()
            optimizer.step()
            w.step(loss)
