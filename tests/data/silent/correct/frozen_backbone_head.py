# summary: transfer learning: a pretrained-style backbone frozen (requires_grad=False, its BatchNorm kept in eval mode) before the optimizer is built over the trainable head only
import torch
from torch import nn

import diagnoser


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1, stride=2), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Sequential(nn.Dropout(0.3), nn.Linear(32, 4))

    def forward(self, x):
        return self.head(self.backbone(x))

    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()  # frozen features: keep the BatchNorm statistics
        return self


torch.manual_seed(0)
model = Classifier()
for param in model.backbone.parameters():
    param.requires_grad = False
optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=1e-3)
batches = [(torch.randn(8, 3, 16, 16), torch.randint(0, 4, (8,))) for _ in range(5)]
print(diagnoser.preflight(model, batches, nn.CrossEntropyLoss(), optimizer))
with diagnoser.watch(model) as w:
    model.train()
    for x, y in batches:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        w.step(loss)
    model.eval()
    with torch.no_grad():
        model(batches[0][0])
