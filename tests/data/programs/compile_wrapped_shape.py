# expect: shape-matmul
import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc(self.pool(x).flatten(1))


model = torch.compile(Head(), backend="eager")
print(model(torch.randn(8, 32, 7, 7)).shape)
