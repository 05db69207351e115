# expect: inplace-modified
import torch
import torch.nn as nn

torch.autograd.set_detect_anomaly(True)


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 32)

    def forward(self, x):
        g = torch.sigmoid(self.fc(x))
        g *= 0.5  # scale the gate
        return x * g


model = Gate()
loss = model(torch.randn(4, 32)).pow(2).mean()
loss.backward()
