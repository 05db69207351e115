# expect: tensor-bool-ambiguous
# A forward that branches on "if mask:" meaning "if there is a mask", but mask is a tensor of many
# booleans.
import torch
import torch.nn as nn


class MaskedMean(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 16)

    def forward(self, x, mask=None):
        h = self.proj(x)
        if mask:
            h = h.masked_fill(~mask.unsqueeze(-1), 0.0)
            return h.sum(1) / mask.sum(1, keepdim=True)
        return h.mean(1)


m = MaskedMean()
x = torch.randn(2, 5, 16)
mask = torch.tensor([[True, True, True, False, False], [True, True, True, True, True]])
print(m(x, mask).shape)
