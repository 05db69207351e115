# expect: frozen-layers-trained
# Multi-task fine-tuning: the user meant to freeze the shared backbone and train only the two
# heads, but wrote `p.requires_grad == False` (a comparison), so the backbone keeps changing.
import torch
import torch.nn as nn

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
head_cls = nn.Linear(64, 3)
head_reg = nn.Linear(64, 1)
for p in backbone.parameters():
    p.requires_grad == False  # freeze backbone
params = list(backbone.parameters()) + list(head_cls.parameters()) + list(head_reg.parameters())
opt = torch.optim.Adam(params, lr=1e-3)
before = backbone[0].weight.detach().clone()
x, yc, yr = torch.randn(128, 20), torch.randint(0, 3, (128,)), torch.randn(128, 1)
for epoch in range(1, 4):
    h = backbone(x)
    loss = nn.functional.cross_entropy(head_cls(h), yc) + nn.functional.mse_loss(head_reg(h), yr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    drift = (backbone[0].weight - before).abs().max().item()
    print(f"epoch {epoch} loss {loss.item():.4f} frozen backbone max weight change {drift:.6f}")
