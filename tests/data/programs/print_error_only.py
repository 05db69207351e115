# expect: view-invalid-shape
import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, patch=16, dim=64):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, patch, stride=patch)
        self.dim = dim

    def forward(self, x):
        x = self.proj(x)
        return x.view(x.size(0), 196, self.dim)  # 224/16 = 14, 14*14 = 196


model = PatchEmbed()
for size in (224, 256):
    try:
        out = model(torch.randn(2, 3, size, size))
        print(size, "ok", tuple(out.shape))
    except Exception as e:
        print(f"Error with image size {size}: {e}")
