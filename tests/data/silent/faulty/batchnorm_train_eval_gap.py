# expect: train-eval-mismatch
# fault-step: 0
# source: https://github.com/facebookresearch/detr/issues/498
# summary: a model trained with tiny batches gives sensible outputs under model.train() and near-constant ones under model.eval(): BatchNorm's running statistics do not match the batches it normalised with
import torch
from torch import nn

import diagnoser

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16, momentum=0.9), nn.ReLU(),
    nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16, momentum=0.9), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 4),
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
batches = [(torch.randn(2, 3, 16, 16) * 5 + 3, torch.randn(2, 4)) for _ in range(6)]
print(diagnoser.preflight(model, batches, nn.MSELoss(), optimizer))
with diagnoser.watch(model) as w:
    for i, (x, y) in enumerate(batches):
        model.train()
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        w.step(loss)
        model.eval()
        with torch.no_grad():
            model(batches[0][0])
