# expect: loss-all-zero
# After "loss is always 0" posts: the reconstruction target written as the model's own output
# (a copy-paste from a distillation loop), so the loss is exactly zero from the first step.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(20, 8), nn.ReLU(), nn.Linear(8, 20))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.MSELoss()
for epoch in range(1, 6):
    x = torch.randn(64, 20)
    recon = model(x)
    loss = criterion(recon, recon.detach())
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"Epoch {epoch}/5 - loss: {loss.item():.4f}")
