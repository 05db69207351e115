"""conv-input-dims: predicting on one grayscale image that has no batch or channel dimension.

A small CNN is trained on batches of shape (N, 1, 28, 28). To predict one image, the code takes it
straight from the dataset's tensor, where it is (28, 28) — no channel, no batch dimension — and
Conv2d fails with "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size:
[28, 28]". `--fixed` adds both dimensions with `unsqueeze(0).unsqueeze(0)`, giving (1, 1, 28, 28).
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

model = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=3, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),  # 28 -> 14
    nn.Flatten(),
    nn.Linear(8 * 14 * 14, 10),
)
model.eval()

# What an MNIST-style dataset stores: uint8 images of shape (num_images, 28, 28).
data = torch.randint(0, 256, (100, 28, 28), dtype=torch.uint8)
img = data[0].float() / 255  # (28, 28)
if fixed:
    img = img.unsqueeze(0).unsqueeze(0)  # (1, 1, 28, 28): batch of one, one channel
with torch.no_grad():
    pred = model(img).argmax(dim=1)
print("input:", tuple(img.shape), "predicted class:", pred.item())
