# expect: pickle-local-object
# Written on macOS (spawn start method, forced here as on macOS/Windows): a collate_fn defined
# inside main() cannot be pickled to send to the workers.
import torch
from torch.utils.data import DataLoader, TensorDataset


def main():
    pad_value = 0

    def pad_collate(batch):
        xs, ys = zip(*batch, strict=True)
        return torch.stack(xs), torch.stack(ys) + pad_value

    ds = TensorDataset(torch.randn(40, 4), torch.arange(40))
    loader = DataLoader(
        ds, batch_size=8, num_workers=2, collate_fn=pad_collate, multiprocessing_context="spawn"
    )
    for x, y in loader:
        print(x.shape, y[:3])


if __name__ == "__main__":
    main()
