# summary: a small CNN whose BatchNorm layers use momentum=0.9 (the running statistics follow the last batches closely), trained on normalised images and evaluated each epoch on a held-out split in eval mode
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

import diagnoser

torch.manual_seed(0)
images = torch.randn(320, 3, 16, 16)
labels = (images[:, 0].mean((1, 2)) > 0).long() + 2 * (images[:, 1].mean((1, 2)) > 0).long()
train = DataLoader(TensorDataset(images[:256], labels[:256]), batch_size=32, shuffle=True)
val = DataLoader(TensorDataset(images[256:], labels[256:]), batch_size=32)
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16, momentum=0.9), nn.ReLU(),
    nn.Conv2d(16, 32, 3, padding=1, stride=2), nn.BatchNorm2d(32, momentum=0.9), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 4),
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
print(diagnoser.preflight(model, train, nn.CrossEntropyLoss(), optimizer))
with diagnoser.watch(model) as w:
    for epoch in range(3):
        model.train()
        for x, y in train:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            w.step(loss)
        model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in val:
                correct += int((model(x).argmax(1) == y).sum())
        print(f"epoch {epoch}: val accuracy {correct / 64:.2f}")
