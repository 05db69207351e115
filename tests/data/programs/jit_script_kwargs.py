# expect: none
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x, **kwargs):
        return self.fc(x)


scripted = torch.jit.script(Block())
print(scripted(torch.randn(2, 8)))
