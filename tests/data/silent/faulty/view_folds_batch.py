# expect: batch-collapsed
# fault-step: 0
# source: https://github.com/weka511/hpa-scc/issues/38
# summary: forward() flattens with x.view(-1, 8 * 16 * 1 * 30 * 30), the batch size folded into the features: the model returns one prediction for a batch of 8, which MSELoss broadcasts against every target (torch only warns)
import torch
import torch.nn as nn
import torch.nn.functional as F

import diagnoser

BATCH = 8


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(4, 16, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(BATCH * 16 * 6 * 6, 64)
        self.fc2 = nn.Linear(64, 18)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = x.view(-1, BATCH * 16 * 6 * 6)
        return torch.sigmoid(self.fc2(F.relu(self.fc1(x))))


torch.manual_seed(42)
model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
criterion = nn.MSELoss()
batches = [(torch.rand(BATCH, 4, 12, 12), torch.rand(BATCH, 18)) for _ in range(4)]
print(diagnoser.preflight(model, batches, criterion, optimizer))
with diagnoser.watch(model) as w:
    for inputs, labels in batches:
        optimizer.zero_grad()
        loss = criterion(model(inputs), labels)
        loss.backward()
        optimizer.step()
        w.step(loss)
