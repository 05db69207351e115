"""slow-training-dataloader: every image is decoded in __getitem__, in the main process.

The dataset keeps its images compressed, as files on disk are, and __getitem__ decompresses one
per call (zlib, plus a 4 ms sleep standing for reading the file and decoding the JPEG). With the
default num_workers=0 that happens in the training process itself, one sample after another, so
the model sits idle while each batch is prepared: the loop waits on data most of the time.
`--fixed` decodes every image once, before training (in a real project: preprocess once and save
the decoded, resized tensors), keeps only the cheap random flip in __getitem__, and loads with
num_workers=2, persistent_workers=True and prefetch_factor=4 (pin_memory=True on CUDA), so the
next batches are ready while the model trains on the current one.

"data" is the time spent waiting for the next batch, "compute" the forward, backward and step.
"""

import time
import zlib

import torch
from _common import fixed_flag, not_installed
from torch import nn
from torch.utils.data import DataLoader, Dataset

fixed = fixed_flag(__doc__)

try:
    import numpy  # noqa: F401  Tensor.numpy() below needs it
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

torch.set_num_threads(1)  # steady timings on a small, shared machine; the workers get the rest
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N, CLASSES, BATCH = 256, 4, 32


def make_images() -> tuple[list[bytes], torch.Tensor]:
    """Synthetic 3x32x32 uint8 images, stored compressed: a class-dependent pattern plus noise."""
    g = torch.Generator().manual_seed(0)
    templates = torch.rand(CLASSES, 3, 32, 32, generator=g)
    labels = torch.randint(0, CLASSES, (N,), generator=g)
    images = templates[labels] * 0.6 + torch.rand(N, 3, 32, 32, generator=g) * 0.4
    images = (images * 255).to(torch.uint8)
    return [zlib.compress(img.numpy().tobytes()) for img in images], labels


def decode(blob: bytes) -> torch.Tensor:
    time.sleep(0.004)  # stands for opening the file and decoding a JPEG
    return torch.frombuffer(bytearray(zlib.decompress(blob)), dtype=torch.uint8).view(3, 32, 32)


class CompressedImages(Dataset):
    def __init__(self, blobs: list[bytes], labels: torch.Tensor) -> None:
        self.blobs, self.labels = blobs, labels

    def __len__(self) -> int:
        return len(self.blobs)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        image = decode(self.blobs[i]).float() / 255  # decoded again on every access, every epoch
        if torch.rand(()) < 0.5:
            image = image.flip(-1)
        return image, self.labels[i]


class DecodedImages(Dataset):
    def __init__(self, blobs: list[bytes], labels: torch.Tensor) -> None:
        self.images = torch.stack([decode(b) for b in blobs])  # decoded once, kept as uint8
        self.labels = labels

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        image = self.images[i].float() / 255
        if torch.rand(()) < 0.5:
            image = image.flip(-1)
        return image, self.labels[i]


def main() -> None:
    torch.manual_seed(0)
    blobs, labels = make_images()
    if fixed:
        start = time.perf_counter()
        dataset = DecodedImages(blobs, labels)
        print(f"decoded all images once, before training: {time.perf_counter() - start:.2f}s")
        loader = DataLoader(
            dataset,
            batch_size=BATCH,
            shuffle=True,
            num_workers=2,
            persistent_workers=True,
            prefetch_factor=4,
            pin_memory=device.type == "cuda",
        )
    else:
        loader = DataLoader(CompressedImages(blobs, labels), batch_size=BATCH, shuffle=True)

    model = nn.Sequential(
        nn.Flatten(),
        nn.Linear(3 * 32 * 32, 512),
        nn.ReLU(),
        nn.Linear(512, 512),
        nn.ReLU(),
        nn.Linear(512, CLASSES),
    ).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(1, 7):
        data_time = compute_time = total_loss = 0.0
        batches = 0
        mark = time.perf_counter()
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            got_batch = time.perf_counter()
            data_time += got_batch - mark
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss.item()  # .item() waits for the GPU, so compute is measured fully
            batches += 1
            mark = time.perf_counter()
            compute_time += mark - got_batch
        waiting = 100 * data_time / (data_time + compute_time)
        print(
            f"epoch {epoch} | loss {total_loss / batches:.4f} | data {data_time:.2f}s "
            f"| compute {compute_time:.2f}s | waiting on data {waiting:.0f}% of the time"
        )


if __name__ == "__main__":  # DataLoader workers may re-import this file (spawn on macOS/Windows)
    main()
