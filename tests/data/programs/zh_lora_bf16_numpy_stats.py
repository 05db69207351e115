# expect: numpy-bfloat16
# 手写LoRA，模型用bf16训练省内存；训练完想用numpy统计一下LoRA的A、B矩阵的奇异值。
import numpy as np
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        self.A = nn.Parameter(torch.randn(r, base.in_features) * 0.01)
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.A.t() @ self.B.t()) * self.scale


torch.manual_seed(0)
layer = LoRALinear(nn.Linear(64, 64)).to(torch.bfloat16)
opt = torch.optim.AdamW([layer.A, layer.B], lr=1e-3)
x = torch.randn(16, 64, dtype=torch.bfloat16)
for step in range(3):
    loss = layer(x).float().pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
delta = (layer.B @ layer.A).detach()
s = np.linalg.svd(delta.numpy(), compute_uv=False)
print("奇异值:", s[:4])
