# expect: dataloader-worker-exception
import torch
from torch.utils.data import DataLoader, Dataset


class CsvDataset(Dataset):
    def __init__(self):
        self.rows = [{"pixels": [0.1] * 4, "label": 1} for _ in range(8)]
        self.rows[5] = {"pixels": [0.1] * 4}  # a row without its label

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        row = self.rows[i]
        return torch.tensor(row["pixels"]), row["label"]


if __name__ == "__main__":
    loader = DataLoader(CsvDataset(), batch_size=4, num_workers=2)
    for epoch in range(2):
        for x, y in loader:
            pass
