# expect: dataloader-worker-exception
# The usual worker_init_fn for numpy augmentation seeds numpy with torch.initial_seed(), a 64-bit
# number numpy rejects; the error is raised in each worker.
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def worker_init_fn(worker_id):
    np.random.seed(torch.initial_seed() + worker_id)


class NoisyDataset(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        noise = np.random.normal(0, 0.1, size=8).astype(np.float32)
        return torch.from_numpy(noise) + i, i % 2


if __name__ == "__main__":
    torch.manual_seed(2**40 + 123)
    loader = DataLoader(NoisyDataset(), batch_size=16, num_workers=2, worker_init_fn=worker_init_fn)
    for x, y in loader:
        print(x.mean().item(), y.sum().item())
