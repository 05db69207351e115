# expect: forward-missing-arg
import torch
import torch.nn as nn


class Fusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, image, text):
        return self.fc(image + text)


m = Fusion()
m(torch.randn(2, 8))
