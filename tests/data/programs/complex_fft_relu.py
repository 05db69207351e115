# expect: complex-unsupported-op
import torch
import torch.nn as nn


class SpectralBlock(nn.Module):
    def __init__(self, n=64):
        super().__init__()
        self.w = nn.Parameter(torch.randn(n // 2 + 1, dtype=torch.cfloat))

    def forward(self, x):
        spec = torch.fft.rfft(x, dim=-1)
        spec = spec * self.w
        spec = torch.clamp(spec, max=10.0)
        return torch.fft.irfft(spec, n=x.shape[-1], dim=-1)


x = torch.randn(4, 64)
print(SpectralBlock()(x).shape)
