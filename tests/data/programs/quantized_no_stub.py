# expect: quantized-input-not-quantized
import torch
import torch.nn as nn
from torch.ao.quantization import convert, get_default_qconfig, prepare


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 64)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(64, 5)

    def forward(self, x):
        return self.fc2(self.relu(self.fc1(x)))


model = SmallNet().eval()
model.qconfig = get_default_qconfig("x86")
prepared = prepare(model)
for _ in range(5):
    prepared(torch.randn(16, 20))
qmodel = convert(prepared)
print(qmodel(torch.randn(4, 20)))
