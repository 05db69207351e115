# expect: inference-tensor-backward
import torch
import torch.nn as nn

encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU())
head = nn.Linear(64, 2)
opt = torch.optim.Adam(head.parameters(), lr=1e-3)

x = torch.randn(128, 32)
y = torch.randint(0, 2, (128,))

# precompute the frozen encoder features once
with torch.inference_mode():
    feats = encoder(x)

for epoch in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(head(feats), y)
    loss.backward()
    opt.step()
    print(epoch, loss.item())
