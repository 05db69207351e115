# expect: dynamo-compile-error
import torch
import torch.nn as nn


class EarlyExit(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(16, 16)
        self.l2 = nn.Linear(16, 4)

    def forward(self, x):
        h = torch.relu(self.l1(x))
        if h.mean() > 0.5:  # skip the second layer for easy inputs
            return h[:, :4]
        return self.l2(h)


model = torch.compile(EarlyExit(), fullgraph=True)
print(model(torch.randn(8, 16)).shape)
