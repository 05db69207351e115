# expect: inplace-modified
# After https://github.com/vivian1993/NCRL/issues/1 (one of the variables needed for gradient
# computation has been modified by an inplace operation, from a hand-written softmax).
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, h):
        scores = self.score(h).squeeze(-1)
        weights = torch.exp(scores)
        weights /= weights.sum(dim=1, keepdim=True)  # normalise in place
        return (weights.unsqueeze(-1) * h).sum(dim=1)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.GRU(16, 32, batch_first=True)
        self.attn = Attention(32)
        self.out = nn.Linear(32, 3)

    def forward(self, x):
        h, _ = self.encoder(x)
        return self.out(self.attn(h))


model = Classifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
n_batches = 5
for epoch in range(2):
    for i in range(n_batches):
        x = torch.randn(8, 12, 16)
        y = torch.randint(0, 3, (8,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"Epoch {epoch}: {100 * (i + 1) // n_batches:3d}%|{'#' * (i + 1):<5}| {i + 1}/{n_batches} loss={loss.item():.4f}")
