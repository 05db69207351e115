# expect: batchnorm-single-sample
# A tabular model with BatchNorm1d; 97 rows with batch_size=32 leave a last batch of a single row.
# Batches are dicts, as in Hugging Face-style code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Tabular(Dataset):
    def __init__(self, n=97):
        self.x = torch.randn(n, 20)
        self.y = torch.randint(0, 2, (n,))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"features": self.x[i], "labels": self.y[i]}


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, features, labels=None):
        logits = self.net(features)
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = nn.functional.cross_entropy(logits, labels)
        return out


model = MLP()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for epoch in range(2):
    model.train()
    for batch in DataLoader(Tabular(), batch_size=32):
        out = model(**batch)
        out["loss"].backward()
        opt.step()
        opt.zero_grad()
    print({"epoch": epoch, "loss": round(out["loss"].item(), 4)})
