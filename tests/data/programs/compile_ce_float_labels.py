# expect: ce-target-dtype
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
criterion = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)


@torch.compile
def train_step(x, y):
    opt.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    opt.step()
    return loss


x = torch.randn(8, 10)
y = torch.tensor([0.0, 2.0, 1.0, 1.0, 0.0, 2.0, 1.0, 0.0])  # class ids parsed as floats
print(train_step(x, y).item())
