# expect: conv-channels-mismatch
# After https://github.com/Suanmd/TR-MISR/issues/3 style trainers that re-raise: RGBA images (4
# channels) reach a model built for RGB; the trainer wraps the error with `raise ... from e`.
import torch
import torch.nn as nn


class TrainingError(RuntimeError):
    pass


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(16, 10)

    def forward(self, x):
        return self.head(self.body(x).flatten(1))


def fit(model, batches):
    opt = torch.optim.Adam(model.parameters())
    for epoch in range(2):
        for i, (x, y) in enumerate(batches):
            try:
                loss = nn.functional.cross_entropy(model(x), y)
            except RuntimeError as e:
                raise TrainingError(f"epoch {epoch} batch {i}: forward failed") from e
            opt.zero_grad()
            loss.backward()
            opt.step()


# images loaded from PNG files with an alpha channel
batches = [(torch.rand(8, 4, 32, 32), torch.randint(0, 10, (8,))) for _ in range(3)]
fit(SmallCNN(), batches)
