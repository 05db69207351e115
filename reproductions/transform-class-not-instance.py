"""transform-class-not-instance: `transforms.ToTensor` (the class) in a Compose, not ToTensor().

The pipeline is written `transforms.Compose([transforms.Resize(32), transforms.ToTensor,
transforms.Normalize(...)])`: the parentheses after ToTensor are missing. Compose calls each item
with the image, so for that item it runs `ToTensor(image)`, which is the class's constructor with
one argument too many: "TypeError: ToTensor.__init__() takes 1 positional argument but 2 were
given" (Python 3.10+; older Pythons print "__init__() takes 1 positional argument but 2 were
given"). It fails on the first batch, inside the Dataset's __getitem__.

`--fixed` writes `transforms.ToTensor()` (an instance) and the batch comes out as a tensor.

Needs torchvision (its transforms and FakeData); without it the script exits 77.
"""

import torch
from _common import fixed_flag, skip

fixed = fixed_flag(__doc__)

try:
    from torchvision import datasets, transforms
except Exception as e:  # not installed, or built for another torch: both mean "not here"
    skip(f"needs torchvision: {type(e).__name__}: {e}")

torch.manual_seed(0)

to_tensor = transforms.ToTensor() if fixed else transforms.ToTensor
transform = transforms.Compose(
    [
        transforms.Resize(32),
        to_tensor,
        transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)),
    ]
)
dataset = datasets.FakeData(size=16, image_size=(3, 40, 40), num_classes=10, transform=transform)
loader = torch.utils.data.DataLoader(dataset, batch_size=8, shuffle=True)

images, labels = next(iter(loader))
print("batch:", tuple(images.shape), images.dtype, "labels:", tuple(labels.shape))
