"""transform-input-type: ToTensor() applied to an image that is already a tensor.

The base dataset already converts its images: `datasets.FakeData(..., transform=ToTensor())`
(the same happens with torchvision.io.read_image / decode_image, or a __getitem__ that returns
torch.from_numpy(...)). An augmentation wrapper on top of it then runs the usual pipeline,
`Compose([RandomHorizontalFlip(), ToTensor(), Normalize(...)])`: the flip accepts a tensor, but
ToTensor only converts PIL images and numpy arrays, so the first batch fails with
"TypeError: pic should be PIL Image or ndarray. Got <class 'torch.Tensor'>".

`--fixed` converts only once: the augmentation pipeline works on the tensor it receives and
replaces ToTensor() with ConvertImageDtype(torch.float32) (a no-op on float images, the [0, 1]
scaling for uint8 ones), and the batch comes out normalised.

Needs torchvision (its transforms and FakeData); without it the script exits 77.
"""

import torch
from _common import fixed_flag, skip
from torch.utils.data import DataLoader, Dataset

fixed = fixed_flag(__doc__)

try:
    from torchvision import datasets, transforms
except Exception as e:  # not installed, or built for another torch: both mean "not here"
    skip(f"needs torchvision: {type(e).__name__}: {e}")


class Augmented(Dataset):
    """Adds training augmentation on top of a dataset that returns (image, label)."""

    def __init__(self, base: Dataset, transform: object) -> None:
        self.base = base
        self.transform = transform

    def __len__(self) -> int:
        return len(self.base)  # type: ignore[arg-type]

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        image, label = self.base[i]
        return self.transform(image), label


torch.manual_seed(0)
base = datasets.FakeData(
    size=16, image_size=(3, 32, 32), num_classes=10, transform=transforms.ToTensor()
)
to_float = transforms.ConvertImageDtype(torch.float32) if fixed else transforms.ToTensor()
augment = transforms.Compose(
    [
        transforms.RandomHorizontalFlip(),
        to_float,
        transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)),
    ]
)
loader = DataLoader(Augmented(base, augment), batch_size=8, shuffle=True)

images, labels = next(iter(loader))
low, high = images.min().item(), images.max().item()
print(f"batch: {tuple(images.shape)} {images.dtype}, range [{low:.2f}, {high:.2f}]")
