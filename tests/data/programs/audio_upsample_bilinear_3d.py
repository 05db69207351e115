# expect: interpolate-size
# An audio decoder upsamples a (batch, channels, time) feature map with bilinear interpolation,
# copied from an image super-resolution model.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(64, 32, 5, padding=2)
        self.out = nn.Conv1d(32, 1, 5, padding=2)

    def forward(self, z):
        h = F.interpolate(z, scale_factor=2, mode="bilinear", align_corners=False)
        h = torch.relu(self.conv(h))
        return torch.tanh(self.out(h))


z = torch.randn(4, 64, 2000)
wave = Decoder()(z)
print("reconstructed", wave.shape)
