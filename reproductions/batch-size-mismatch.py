"""batch-size-mismatch: a CNN whose flatten step folds part of each sample into the batch.

The LeNet-style net was widened (conv2 now has 32 channels instead of 16), but forward still
flattens with the hard-coded `x.view(-1, 16 * 5 * 5)`. Each sample now has 32*5*5 = 800 values,
so `view(-1, 400)` silently turns a batch of 64 into 128 rows of 400, and the loss fails with
"Expected input batch_size (128) to match target batch_size (64)". `--fixed` flattens with
`torch.flatten(x, 1)`, which keeps dim 0 (the batch), and sizes the Linear for 32*5*5 inputs.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.conv2 = nn.Conv2d(6, 32, 5)  # was nn.Conv2d(6, 16, 5)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(32 * 5 * 5 if fixed else 16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.pool(torch.relu(self.conv1(x)))  # (64, 6, 14, 14)
        x = self.pool(torch.relu(self.conv2(x)))  # (64, 32, 5, 5)
        # The mistake: -1 lets view pick the batch size, and it picks 128, not 64.
        x = torch.flatten(x, 1) if fixed else x.view(-1, 16 * 5 * 5)
        return self.fc2(torch.relu(self.fc1(x)))


model = Net()
images = torch.randn(64, 3, 32, 32)  # one CIFAR-10 sized batch
labels = torch.randint(0, 10, (64,))
logits = model(images)
loss = nn.CrossEntropyLoss()(logits, labels)
loss.backward()
print(f"logits: {tuple(logits.shape)}, loss: {loss.item():.4f}")
