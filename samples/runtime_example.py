"""The example on the runtime page and in the README: a set-up with three classic bugs that
preflight catches before training, then a NaN that watch locates during training.

    python samples/runtime_example.py [en|zh]
"""

import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

import diagnoser

lang = sys.argv[1] if len(sys.argv) > 1 else "en"
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(nn.Flatten(), nn.Linear(784, 128), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(128, 10), nn.Softmax(dim=1))  # bug: softmax

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


images = torch.randint(0, 256, (512, 1, 28, 28)).float()  # bug: raw 0-255 pixels
labels = torch.randint(0, 10, (512,))
loader = DataLoader(TensorDataset(images, labels), batch_size=64, shuffle=True)
model = Net()
optimizer = torch.optim.Adam(model.features.parameters(), lr=1e-3)  # bug: the head is missing

report = diagnoser.preflight(model, loader, nn.CrossEntropyLoss(), optimizer)
print(report.to_text(lang))
print()


class Log(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log(x)  # nan for every negative input


model = nn.Sequential(nn.Linear(8, 8), Log(), nn.Linear(8, 2))
with diagnoser.watch(model) as w:
    for _ in range(3):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        loss.backward()
        w.step(loss)
for finding in w.findings:
    print(finding.line(lang))
