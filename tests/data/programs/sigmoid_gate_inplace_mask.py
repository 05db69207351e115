# expect: inplace-modified
# A gating layer multiplies the sigmoid gate by a padding mask in place (gate *= mask); sigmoid's
# backward needs its own output unchanged.
import torch
import torch.nn as nn


class GatedPooling(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gate = nn.Linear(dim, 1)

    def forward(self, h, mask):
        gate = torch.sigmoid(self.gate(h)).squeeze(-1)
        gate *= mask
        return (gate.unsqueeze(-1) * h).sum(1) / mask.sum(1, keepdim=True)


pool = GatedPooling(32)
h = torch.randn(4, 10, 32, requires_grad=True)
mask = torch.ones(4, 10)
mask[:, 7:] = 0
out = pool(h, mask)
out.sum().backward()
print(h.grad.norm())
