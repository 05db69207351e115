# expect: gradient-explosion
# After exploding-gradient posts that print every layer's gradient norm after backward(): a deep
# MLP with a hand-written init (std 0.5 regardless of width), so each layer multiplies the
# gradient on its way back.
import torch
import torch.nn as nn

torch.manual_seed(0)
layers = []
for i in range(12):
    lin = nn.Linear(64, 64)
    nn.init.normal_(lin.weight, std=0.5)
    nn.init.zeros_(lin.bias)
    layers += [lin, nn.ReLU()]
model = nn.Sequential(*layers, nn.Linear(64, 1))

x, y = torch.randn(32, 64), torch.randn(32, 1)
loss = nn.functional.mse_loss(model(x), y)
loss.backward()
print(f"loss: {loss.item():.4e}")
for name, p in model.named_parameters():
    if name.endswith("weight"):
        print(f"{name:12s} grad norm: {p.grad.norm().item():.4e}")
