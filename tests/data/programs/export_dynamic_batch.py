# expect: export-constraint-violation
import torch
import torch.nn as nn
from torch.export import Dim, export


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        x = x.reshape(8, -1)  # written for the training batch size
        return self.fc(x)


batch = Dim("batch", min=2, max=64)
ep = export(Classifier(), (torch.randn(8, 16),), dynamic_shapes={"x": {0: batch}})
print(ep)
