# expect: none
# Correct apart from a harmless warning: torch.tensor() of an existing tensor warns that clone()
# is recommended; training then runs normally and the loss falls.
import torch
import torch.nn as nn

torch.manual_seed(0)
raw = torch.randn(256, 6)
features = torch.tensor(raw)  # UserWarning: To copy construct from a tensor...
targets = features.sum(1, keepdim=True)
model = nn.Linear(6, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(1, 11):
    loss = nn.functional.mse_loss(model(features), targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch:02d} mse {loss.item():.5f}")
