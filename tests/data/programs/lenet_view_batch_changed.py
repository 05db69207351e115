# expect: batch-size-mismatch
# LeNet's x.view(-1, 16*5*5) kept from the 32x32 original while the inputs are 28x28 (features
# 16*4*4): -1 silently absorbs the difference and the batch changes size before the loss.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = LeNet()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
inputs = torch.randn(50, 1, 28, 28)
targets = torch.randint(0, 10, (50,))
outputs = net(inputs)
loss = criterion(outputs, targets)
loss.backward()
optimizer.step()
