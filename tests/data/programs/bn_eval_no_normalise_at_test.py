# expect: train-eval-mismatch
# The training loop standardises each batch inside the loop; the evaluation function feeds the raw
# features. Train-mode accuracy is high, the eval numbers on the very same data are poor.
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(600, 6) * torch.tensor([50.0, 2.0, 300.0, 1.0, 10.0, 0.5]) + 100
y = ((X[:, 0] - 100) / 50 + (X[:, 2] - 100) / 300 > 0).long()
mean, std = X.mean(0), X.std(0)
model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


def evaluate():
    model.eval()
    with torch.no_grad():
        return (model(X).argmax(1) == y).float().mean().item()


for epoch in range(1, 31):
    model.train()
    out = model((X - mean) / std)
    loss = nn.functional.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    train_acc = (out.argmax(1) == y).float().mean().item()
    if epoch % 5 == 0:
        print(
            f"epoch {epoch} train loss {loss.item():.4f} train acc {train_acc:.3f}"
            f" eval acc (same data) {evaluate():.3f}"
        )
