# expect: loss-negative
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))
crit = nn.NLLLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x, y = torch.randn(512, 20), torch.randint(0, 4, (512,))
for epoch in range(1, 11):
    opt.zero_grad()
    loss = crit(model(x), y)
    loss.backward()
    opt.step()
    print(f"epoch {epoch}: loss={loss.item():.4f}")
