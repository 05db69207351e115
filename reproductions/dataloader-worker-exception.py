"""dataloader-worker-exception: one bad CSV row breaks __getitem__ inside a DataLoader worker.

A tabular Dataset keeps the raw CSV rows and converts them with float() in __getitem__. Row 20 of
the file has "n/a" where a number should be. With num_workers=2 that row is parsed in worker
process 1, so the ValueError is raised there; the DataLoader sends it back and the main process
re-raises it as "ValueError: Caught ValueError in DataLoader worker process 1. Original Traceback
(most recent call last): ... ValueError: could not convert string to float: 'n/a'". The wrapper
only says where it happened; the real error is the original one at the bottom (or rerun with
num_workers=0 to get it directly).

`--fixed` parses and validates the whole file once in __init__, in the main process, treats "n/a"
and empty cells as missing values, drops those rows (saying which) and trains with num_workers=2.
"""

import csv
import io
import math

import torch
from _common import fixed_flag
from torch import nn
from torch.utils.data import DataLoader, Dataset

MISSING = {"", "n/a", "na", "nan", "null", "none", "?"}


def make_csv(rows: int = 96, bad_row: int = 20) -> str:
    """A small housing-style CSV export with one cell left as "n/a"."""
    g = torch.Generator().manual_seed(0)
    lines = ["area,rooms,age,distance,price_class"]
    for i in range(rows):
        area, rooms, age, dist = torch.rand(4, generator=g).tolist()
        cells = [f"{area * 200:.1f}", f"{1 + rooms * 5:.0f}", f"{age * 80:.0f}", f"{dist * 30:.2f}"]
        if i == bad_row:
            cells[2] = "n/a"  # the age was not recorded for this house
        lines.append(",".join([*cells, str(int(area * 3) % 3)]))
    return "\n".join(lines) + "\n"


class HousingCSV(Dataset):
    """Keeps the raw rows and converts one row per __getitem__ (the mistake)."""

    def __init__(self, text: str) -> None:
        self.rows = list(csv.reader(io.StringIO(text)))[1:]

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        *features, label = self.rows[i]
        x = torch.tensor(list(map(float, features)))  # float("n/a") -> ValueError
        return x, int(label)


def parse(cell: str) -> float:
    return math.nan if cell.strip().lower() in MISSING else float(cell)


class CleanHousingCSV(Dataset):
    """Parses and validates everything up front, in the main process, with row numbers."""

    def __init__(self, text: str) -> None:
        rows = list(csv.reader(io.StringIO(text)))[1:]
        table = torch.tensor([[parse(c) for c in row] for row in rows])
        bad = table.isnan().any(dim=1)
        if bad.any():
            lines = [int(i) + 2 for i in bad.nonzero().flatten()]  # +1 header, +1 one-based
            print(f"dropping {len(lines)} row(s) with missing values (CSV lines {lines})")
        table = table[~bad]
        self.x, self.y = table[:, :-1], table[:, -1].long()

    def __len__(self) -> int:
        return len(self.y)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        return self.x[i], int(self.y[i])


def main() -> None:
    fixed = fixed_flag(__doc__)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    text = make_csv()
    dataset = CleanHousingCSV(text) if fixed else HousingCSV(text)
    loader = DataLoader(dataset, batch_size=16, num_workers=2)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    seen = 0
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        seen += len(y)
    print(f"epoch done: {seen} rows with num_workers=2, loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
