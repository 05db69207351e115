# expect: loss-not-decreasing
# (Relabelled from optimizer-step-no-update after the first run: kb/loss-not-decreasing.yaml names
# this very mistake, "the optimizer built on another model's parameters (the model was re-created
# or wrapped after the optimizer)", and the output shows a loss that never moves.)
# LoRA by hand: the optimizer is built from model.parameters() first, then the base is frozen and
# the adapters are added. The optimizer never sees the adapters, so nothing trains.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for p in model.parameters():
    p.requires_grad = False


class WithLoRA(nn.Module):
    def __init__(self, base, r=4):
        super().__init__()
        self.base = base
        self.A = nn.Parameter(torch.randn(r, 32) * 0.01)
        self.B = nn.Parameter(torch.zeros(4, r))

    def forward(self, x):
        return self.base(x) + x @ self.A.t() @ self.B.t()


lora = WithLoRA(model)
x, y = torch.randn(256, 32), torch.randint(0, 4, (256,))
for step in range(0, 101, 20):
    loss = nn.functional.cross_entropy(lora(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(
        f"step {step:3d} loss {loss.item():.4f} |B| {lora.B.norm().item():.4f} |A| {lora.A.norm().item():.4f}"
    )
