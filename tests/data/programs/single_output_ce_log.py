# expect: loss-all-zero
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(30, 16), nn.ReLU(), nn.Linear(16, 1))  # binary task, one output
crit = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(300, 30)
y = (x[:, 0] > 0).float().unsqueeze(1)  # 0/1 labels, shape (300, 1) like the output
for epoch in range(1, 8):
    opt.zero_grad()
    out = model(x)
    loss = crit(out, y)
    loss.backward()
    opt.step()
    acc = ((out > 0).float() == y).float().mean()
    print(f"Epoch {epoch} | train loss {loss.item():.4f} | acc {acc:.3f}")
