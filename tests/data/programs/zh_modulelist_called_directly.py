# expect: module-missing-forward
# 把若干残差块放进 nn.ModuleList，forward 里直接 self.blocks(x) 调用它，而不是循环。
import torch
import torch.nn as nn


class 残差块(nn.Module):
    def __init__(self, 通道):
        super().__init__()
        self.conv = nn.Conv2d(通道, 通道, 3, padding=1)

    def forward(self, x):
        return x + torch.relu(self.conv(x))


class 网络(nn.Module):
    def __init__(self, 块数=4):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.blocks = nn.ModuleList([残差块(16) for _ in range(块数)])
        self.head = nn.Linear(16, 10)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.head(x.mean((2, 3)))


print(网络()(torch.randn(2, 3, 32, 32)).shape)
