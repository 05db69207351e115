# expect: no-grad-fn
# train_step was written by copying evaluate(), decorator included: under @torch.no_grad() the loss
# has no graph.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)


@torch.no_grad()
def evaluate(x, y):
    return nn.functional.mse_loss(model(x), y).item()


@torch.no_grad()
def train_step(x, y):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    return loss.item()


for step in range(100):
    x = torch.randn(64, 10)
    y = x.sum(1, keepdim=True)
    train_loss = train_step(x, y)
    if step % 20 == 0:
        print(f"step {step} train {train_loss:.4f} val {evaluate(x, y):.4f}")
