# summary: pytorch/examples mnist: CNN with Dropout, log_softmax + nll_loss, Adadelta lr=1.0, StepLR per epoch, a test pass in eval mode (random images stand in for MNIST)
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset

import diagnoser


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)


def train(model, train_loader, optimizer, w):
    model.train()
    for data, target in train_loader:
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        w.step(loss)


def test(model, test_loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            correct += model(data).argmax(dim=1).eq(target).sum().item()
    return correct


torch.manual_seed(1)
images = ((torch.rand(96, 1, 28, 28) - 0.1307) / 0.3081)
labels = torch.randint(0, 10, (96,))
train_loader = DataLoader(TensorDataset(images[:64], labels[:64]), batch_size=16, shuffle=True)
test_loader = DataLoader(TensorDataset(images[64:], labels[64:]), batch_size=32)
model = Net()
optimizer = optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
print(diagnoser.preflight(model, train_loader, nn.NLLLoss(), optimizer))
with diagnoser.watch(model) as w:
    for epoch in range(2):
        train(model, train_loader, optimizer, w)
        test(model, test_loader)
        scheduler.step()
