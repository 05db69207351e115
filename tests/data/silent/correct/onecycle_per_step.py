# summary: a CNN trained with SGD (momentum, nesterov, weight decay) and OneCycleLR stepped after every batch, a validation pass in eval mode per epoch
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

import diagnoser

torch.manual_seed(0)
x = torch.randn(96, 3, 16, 16)
y = torch.randint(0, 6, (96,))
train = DataLoader(TensorDataset(x[:64], y[:64]), batch_size=16, shuffle=True)
val = DataLoader(TensorDataset(x[64:], y[64:]), batch_size=32)
model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(32, 6),
)
epochs = 2
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, epochs=epochs, steps_per_epoch=len(train))
print(diagnoser.preflight(model, train, nn.CrossEntropyLoss(), optimizer))
with diagnoser.watch(model) as w:
    for epoch in range(epochs):
        model.train()
        for xb, yb in train:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(xb), yb)
            loss.backward()
            optimizer.step()
            scheduler.step()
            w.step(loss)
        model.eval()
        with torch.no_grad():
            accuracy = sum((model(xb).argmax(1) == yb).sum().item() for xb, yb in val) / 32
