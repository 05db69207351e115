# expect: unpack-mismatch
import torch
from torch.utils.data import DataLoader, Dataset


class TextDataset(Dataset):
    def __init__(self):
        self.ids = torch.randint(0, 100, (20, 12))
        self.labels = torch.randint(0, 2, (20,))

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {
            "input_ids": self.ids[i],
            "attention_mask": torch.ones(12, dtype=torch.long),
            "labels": self.labels[i],
        }


model = torch.nn.Sequential(
    torch.nn.Embedding(100, 16), torch.nn.Flatten(), torch.nn.Linear(192, 2)
)
for inputs, labels in DataLoader(TextDataset(), batch_size=4):
    loss = torch.nn.functional.cross_entropy(model(inputs), labels)
