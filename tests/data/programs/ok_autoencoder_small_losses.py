# expect: none
# Correct: a linear autoencoder on low-rank data whose reconstruction loss falls by orders of
# magnitude, printed in scientific notation (small is not zero).
import torch
import torch.nn as nn

torch.manual_seed(0)
data = torch.randn(512, 3) @ torch.randn(3, 12)
model = nn.Sequential(nn.Linear(12, 3), nn.Linear(3, 12))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(1, 401):
    loss = nn.functional.mse_loss(model(data), data)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 40 == 0:
        print(f"epoch {epoch:3d}  recon_loss={loss.item():.3e}")
