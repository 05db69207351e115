# summary: mixed precision done right: float32 weights (the master copy Adam updates) and the forward in bfloat16 under torch.autocast on the CPU; the LayerNorm gains near 1.0 that pure bfloat16 weights would freeze keep moving
import torch
from torch import nn

import diagnoser


class Block(nn.Module):
    def __init__(self, d: int = 64) -> None:
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.proj = nn.Linear(4 * d, d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.proj(torch.relu(self.fc(self.ln(x))))


torch.manual_seed(0)
model = nn.Sequential(Block(), Block(), nn.LayerNorm(64))  # float32 parameters
optimizer = torch.optim.Adam(model.parameters(), lr=6e-4)
with diagnoser.watch(model) as w:
    for _ in range(12):
        x = torch.randn(8, 64)
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            out = model(x)
        loss = (out.float() - x.roll(1, -1)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        w.step(loss)
print(model[2].weight[:8])
