# summary: timm-style EMA of the weights: a deepcopy with requires_grad off, updated under no_grad after each optimizer step, evaluated in eval mode; the trained model uses BatchNorm and Dropout
import copy

import torch
from torch import nn

import diagnoser


class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.99):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            ema_v.copy_(self.decay * ema_v + (1.0 - self.decay) * model_v if ema_v.is_floating_point() else model_v)


torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Dropout(0.2), nn.Linear(16, 5),
)
model_ema = ModelEmaV2(model)
for p in model_ema.parameters():
    p.requires_grad_(False)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-5)
batches = [(torch.randn(8, 3, 12, 12), torch.randint(0, 5, (8,))) for _ in range(6)]
print(diagnoser.preflight(model, batches, nn.CrossEntropyLoss(), optimizer))
with diagnoser.watch(model) as w:
    for epoch in range(2):
        model.train()
        for x, y in batches:
            loss = nn.functional.cross_entropy(model(x), y, label_smoothing=0.1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            model_ema.update(model)
            w.step(loss)
        model.eval()
        with torch.no_grad():
            model(batches[0][0])
            model_ema.module(batches[0][0])
