# expect: interpolate-size
import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(64, 1, 3, padding=1)

    def forward(self, feat, out_shape):
        feat = F.interpolate(feat, size=out_shape, mode="bilinear", align_corners=False)
        return self.conv(feat)


volume = torch.randn(1, 1, 32, 128, 128)  # a CT scan: depth, height, width
feat = torch.randn(1, 64, 32, 32)
dec = Decoder()
mask = dec(feat, volume.shape[2:])
print(mask.shape)
