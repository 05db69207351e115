# expect: view-non-contiguous
# Hand-written patchify of a small ViT: the image is split into p x p patches with view + permute,
# then .view()'d into (B, N, C*p*p), which needs contiguous memory after the permute.
import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, patch=4, channels=3, dim=48):
        super().__init__()
        self.p = patch
        self.proj = nn.Linear(channels * patch * patch, dim)

    def forward(self, x):
        B, C, H, W = x.shape
        p = self.p
        x = x.view(B, C, H // p, p, W // p, p).permute(0, 2, 4, 1, 3, 5)
        x = x.view(B, (H // p) * (W // p), C * p * p)
        return self.proj(x)


class TinyViT(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = PatchEmbed()
        layer = nn.TransformerEncoderLayer(48, 4, 96, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(48, 10)

    def forward(self, x):
        tokens = self.encoder(self.patch(x))
        return self.head(tokens.mean(1))


model = TinyViT()
print(model(torch.randn(8, 3, 32, 32)).shape)
