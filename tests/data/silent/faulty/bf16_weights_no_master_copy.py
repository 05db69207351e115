# expect: optimizer-step-no-update
# fault-step: 0
# source: https://github.com/workofart/ml-by-hand/pull/85
# summary: weights stored in bfloat16 with no float32 master copy: Adam's update of a weight near 1.0 (a LayerNorm gain) rounds back to 1.0 at lr 6e-4, so those weights never move
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
model = nn.Sequential(Block(), Block(), nn.LayerNorm(64)).to(torch.bfloat16)
optimizer = torch.optim.Adam(model.parameters(), lr=6e-4)
with diagnoser.watch(model) as w:
    for _ in range(6):
        x = torch.randn(8, 64, dtype=torch.bfloat16)
        loss = (model(x).float() - x.float().roll(1, -1)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        w.step(loss)
print(model[2].weight[:8])
