"""view-invalid-shape: an MNIST-style MLP fed CIFAR-10 images, flattened with a hard-coded size.

The model was written for 1x28x28 images and flattens with `x.view(-1, 784)`. A CIFAR-10 batch
is 32x3x32x32 = 98304 values, which do not divide into rows of 784, so the view fails with
"shape '[-1, 784]' is invalid for input of size 98304". `--fixed` flattens per sample with
`torch.flatten(x, 1)` and lets nn.LazyLinear take its input size (3072) from the data.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.LazyLinear(128) if fixed else nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # The mistake: 784 = 28 * 28 is hard-coded; these images have 3 * 32 * 32 values each.
        x = torch.flatten(x, 1) if fixed else x.view(-1, 784)
        return self.fc2(torch.relu(self.fc1(x)))


model = MLP()
images = torch.randn(32, 3, 32, 32)  # one CIFAR-10 sized batch
labels = torch.randint(0, 10, (32,))
loss = nn.CrossEntropyLoss()(model(images), labels)
loss.backward()
print(f"flattened to {model.fc1.in_features} features per image, loss: {loss.item():.4f}")
