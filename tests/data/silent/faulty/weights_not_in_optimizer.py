# expect: optimizer-empty-params
# fault-step: 0
# source: https://github.com/bubbliiiing/efficientdet-pytorch/issues/37
# summary: BiFPN fusion weights w1..w4 are nn.Parameters but the optimizer is built from a filtered list of the backbone/neck/head convs' parameters, so w stays at its initial [1, 1] for the whole training
import torch
from torch import nn

import diagnoser


class BiFPNFuse(nn.Module):
    def __init__(self, channels: int = 16) -> None:
        super().__init__()
        self.w1 = nn.Parameter(torch.ones(2))
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        w = torch.relu(self.w1)
        w = w / (w.sum() + 1e-4)
        return self.conv(w[0] * a + w[1] * b)


class Detector(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
        self.neck = BiFPNFuse()
        self.head = nn.Conv2d(16, 4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.backbone(x)
        return self.head(self.neck(f, torch.max_pool2d(f, 3, 1, 1))).mean(dim=(2, 3))


torch.manual_seed(0)
model = Detector()
params = []
for m in model.modules():  # "only conv weights and biases go to the optimizer"
    if isinstance(m, nn.Conv2d):
        params += list(m.parameters())
optimizer = torch.optim.Adam(params, lr=1e-3)
batches = [(torch.randn(4, 3, 16, 16), torch.randn(4, 4)) for _ in range(4)]
print(diagnoser.preflight(model, batches, nn.MSELoss(), optimizer))
with diagnoser.watch(model) as w:
    for x, y in batches:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        w.step(loss)
print(model.neck.w1)
