# expect: module-init-not-called
# 手写DDPM的UNet残差块：先定义了卷积层，最后才调用 super().__init__()。
import torch
import torch.nn as nn


class ResBlock(nn.Module):
    def __init__(self, ch, t_dim):
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)
        self.t_proj = nn.Linear(t_dim, ch)
        super().__init__()

    def forward(self, x, t_emb):
        h = torch.relu(self.conv1(x)) + self.t_proj(t_emb)[:, :, None, None]
        return x + self.conv2(torch.relu(h))


print("构建UNet...")
block = ResBlock(32, 128)
x = torch.randn(2, 32, 16, 16)
print(block(x, torch.randn(2, 128)).shape)
