# expect: none
import torch
import torch.nn as nn


class Stem(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 32, 3, stride=2)

    def forward(self, x):
        assert x.dim() == 4 and x.shape[1] == 3, (
            f"expected a batch of RGB images, got {tuple(x.shape)}"
        )
        return self.conv(x)


print(Stem()(torch.rand(2, 4, 64, 64)).shape)  # PNGs with an alpha channel
