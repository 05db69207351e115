"""collate-unequal-size: images of different sizes batched by the default collate_fn.

A folder of photos comes in several sizes (224x224, 200x300, 256x192...). The Dataset decodes
each one and scales it to [0, 1] but never resizes it, so __getitem__ returns tensors of different
shapes. The DataLoader's default_collate builds a batch with torch.stack, which needs equal shapes:
"RuntimeError: stack expects each tensor to be equal size, but got [3, 224, 224] at entry 0 and
[3, 200, 300] at entry 1".

`--fixed` resizes every image to 224x224 in __getitem__ (what transforms.Resize((224, 224)) or
RandomResizedCrop(224) does in a torchvision pipeline; done here with F.interpolate so the script
needs no torchvision), and the batch stacks to [8, 3, 224, 224].
"""

import torch
import torch.nn.functional as F
from _common import fixed_flag
from torch.utils.data import DataLoader, Dataset

# (height, width) of the photos in the folder, in file order
PHOTO_SIZES = [(224, 224), (200, 300), (256, 192), (224, 224), (180, 240), (300, 300)] * 4


class PhotoFolder(Dataset):
    def __init__(self, sizes: list[tuple[int, int]], resize_to: int | None) -> None:
        self.sizes = sizes
        self.resize_to = resize_to

    def __len__(self) -> int:
        return len(self.sizes)

    def decode(self, i: int) -> torch.Tensor:
        """Stands in for reading and decoding photo i: uint8, (channels, height, width)."""
        h, w = self.sizes[i]
        g = torch.Generator().manual_seed(i)
        return torch.randint(0, 256, (3, h, w), dtype=torch.uint8, generator=g)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        image = self.decode(i).float() / 255
        if self.resize_to is not None:
            size = (self.resize_to, self.resize_to)
            image = F.interpolate(image[None], size=size, mode="bilinear", antialias=True)[0]
        return image, i % 2


fixed = fixed_flag(__doc__)
torch.manual_seed(0)
dataset = PhotoFolder(PHOTO_SIZES, resize_to=224 if fixed else None)
loader = DataLoader(dataset, batch_size=8, shuffle=False)

images, labels = next(iter(loader))
print("batch:", tuple(images.shape), "labels:", tuple(labels.shape))
