"""collate-unsupported-type: a Dataset returns None for unreadable files; default_collate fails.

A common pattern: __getitem__ wraps the image decoding in try/except and returns None for a
corrupt or truncated file, "so training does not crash". The DataLoader's default_collate cannot
batch None (nor a PIL image, a string path object, a custom class...) and the first batch that
contains such a sample fails with "TypeError: default_collate: batch must contain tensors, numpy
arrays, numbers, dicts or lists; found <class 'NoneType'>". (Forgetting transforms.ToTensor() in a
torchvision pipeline gives the same message with "found <class 'PIL.Image.Image'>".)

`--fixed` drops the unreadable files once, in __init__, so every sample is a tensor (a
collate_fn that filters out None samples is the alternative shown in the KB entry).
"""

import torch
from _common import fixed_flag
from torch.utils.data import DataLoader, Dataset

CORRUPT = {8, 21}  # files that fail to decode (truncated downloads)


def read_image(i: int) -> torch.Tensor:
    """Stands in for decoding file i; raises like an image library on a truncated file."""
    if i in CORRUPT:
        raise OSError(f"image file is truncated (file {i:04d}.jpg)")
    g = torch.Generator().manual_seed(i)
    return torch.rand(3, 32, 32, generator=g)


class ImageFiles(Dataset):
    def __init__(self, n: int, skip_unreadable: bool) -> None:
        self.ids = list(range(n))
        if skip_unreadable:
            readable = []
            for i in self.ids:
                try:
                    read_image(i)
                except OSError:
                    continue
                readable.append(i)
            print(f"skipping {len(self.ids) - len(readable)} unreadable file(s)")
            self.ids = readable

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, idx: int) -> tuple[torch.Tensor | None, int]:
        i = self.ids[idx]
        try:
            image = read_image(i)
        except OSError:
            return None, i % 10  # "skip" the bad file: the mistake
        return image, i % 10


fixed = fixed_flag(__doc__)
torch.manual_seed(0)
loader = DataLoader(ImageFiles(32, skip_unreadable=fixed), batch_size=8, shuffle=False)
shapes = [tuple(images.shape) for images, _labels in loader]
print(f"epoch done: {len(shapes)} batches, last batch {shapes[-1]}")
