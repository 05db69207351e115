# expect: unpack-mismatch
# The Dataset was changed to also return the sample index (for logging hard examples), but the
# training loop still unpacks two values.
import torch
from torch.utils.data import DataLoader, Dataset


class IndexedDataset(Dataset):
    def __init__(self):
        self.x = torch.randn(100, 10)
        self.y = torch.randint(0, 3, (100,))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx], idx


model = torch.nn.Linear(10, 3)
opt = torch.optim.Adam(model.parameters())
loader = DataLoader(IndexedDataset(), batch_size=16, shuffle=True)
for epoch in range(3):
    for inputs, targets in loader:
        loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: {loss.item():.4f}")
