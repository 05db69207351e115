# expect: shape-matmul
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3)
        self.fc = nn.Linear(8 * 26 * 26, 10)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        return self.fc(x)  # forgot to flatten


net = Net()
imgs = torch.randn(16, 1, 28, 28)
out = net(imgs)
