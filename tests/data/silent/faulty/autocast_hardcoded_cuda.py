# expect: autocast-not-applied
# fault-step: 0
# source: https://github.com/hao-ai-lab/FastVideo/issues/1816
# summary: a block wraps its layers in a hard-coded torch.autocast(device_type="cuda") while the model runs on another device; the context does not apply there and the layers compute in float32
import torch
from torch import nn

import diagnoser


class AdaLayerNormBlock(nn.Module):
    def __init__(self, dim: int = 64) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(dim, elementwise_affine=False)
        self.scale_shift = nn.Linear(dim, 2 * dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
            scale, shift = self.scale_shift(emb).chunk(2, dim=-1)
            h = self.norm(x) * (1 + scale[:, None]) + shift[:, None]
            return x + self.mlp(h)


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.blocks = nn.ModuleList(AdaLayerNormBlock() for _ in range(2))
        self.out = nn.Linear(64, 64)

    def forward(self, x: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x, emb)
        return self.out(x)


torch.manual_seed(0)
device = "cpu"  # the reporter's accelerator is not CUDA (an Ascend NPU); here the CPU
model = Model().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
with diagnoser.watch(model) as w:
    for _ in range(4):
        x, emb = torch.randn(2, 8, 64, device=device), torch.randn(2, 64, device=device)
        loss = (model(x, emb) - x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        w.step(loss)
