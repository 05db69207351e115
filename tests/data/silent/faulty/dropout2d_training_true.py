# expect: dropout-active-at-eval
# fault-step: 0
# source: https://github.com/Coderx7/SimpleNet/issues/2
# summary: F.dropout2d(out, 0.1, training=True) in forward(): after model.eval() the network still drops channels, so each evaluation of one image differs
import torch
import torch.nn.functional as F
from torch import nn

import diagnoser


class SimpleNet(nn.Module):
    def __init__(self, classes: int = 10) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        )
        self.classifier = nn.Linear(32, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.features(x)
        out = F.max_pool2d(out, kernel_size=out.size()[2:])
        out = F.dropout2d(out, 0.1, training=True)
        out = out.view(out.size(0), -1)
        return self.classifier(out)


torch.manual_seed(0)
model = SimpleNet()
optimizer = torch.optim.Adadelta(model.parameters(), lr=0.1)
batches = [(torch.randn(16, 3, 16, 16), torch.randint(0, 10, (16,))) for _ in range(4)]
print(diagnoser.preflight(model, batches, nn.CrossEntropyLoss(), optimizer))
with diagnoser.watch(model) as w:
    for x, y in batches:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        w.step(loss)
    model.eval()
    with torch.no_grad():
        accuracy = (model(batches[0][0]).argmax(1) == batches[0][1]).float().mean()
