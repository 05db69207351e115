# expect: bce-target-size
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(256, 8)
y = (x[:, 0] * 3 + x[:, 1]).clone()  # shape (256,)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
crit = nn.MSELoss()
for epoch in range(1, 61):
    opt.zero_grad()
    pred = model(x)  # shape (256, 1)
    loss = crit(pred, y)
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch:3d}  train_loss {loss.item():.4f}")
