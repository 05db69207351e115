# expect: none
# Correct: an MLP on a synthetic, learnable classification task with a plain loop; the loss falls
# and accuracy rises. Nothing to diagnose.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
x = torch.randn(2000, 20)
y = (x[:, :5].sum(1) > 0).long() + (x[:, 5] > 1).long()
loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(1, 9):
    total, correct, running = 0, 0, 0.0
    for xb, yb in loader:
        out = model(xb)
        loss = nn.functional.cross_entropy(out, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item() * len(xb)
        correct += (out.argmax(1) == yb).sum().item()
        total += len(xb)
    print(f"Epoch [{epoch}/8], Loss: {running / total:.4f}, Acc: {correct / total:.4f}")
