"""DataLoader workers that share one random stream, found by preflight by asking two workers for
the same sample. Datasets that draw from generators torch seeds per worker, deterministic ones,
and a worker_init_fn that re-seeds the Dataset's own generator stay quiet."""

from __future__ import annotations

import random
from typing import Any

import pytest

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")
nn = torch.nn
from torch.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info  # noqa: E402

from diagnoser import preflight  # noqa: E402


class _Crops(Dataset):  # type: ignore[type-arg]
    """Random 4-wide crops of 8 rows; `draw` says where the randomness comes from."""

    def __init__(self, draw: str) -> None:
        self.draw = draw
        self.data = torch.randn(8, 8)
        self.rng = np.random.default_rng()
        self.py = random.Random()

    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        start = {
            "own-numpy": lambda: int(self.rng.integers(0, 4)),
            "own-random": lambda: self.py.randrange(4),
            "global-numpy": lambda: int(np.random.randint(0, 4)),
            "global-random": lambda: random.randrange(4),
            "torch": lambda: int(torch.randint(0, 4, ())),
            "none": lambda: 0,
        }[self.draw]()
        return self.data[i, start : start + 4] + torch.rand(1) * 0, i % 2


def _reseed(worker_id: int) -> None:
    info = get_worker_info()
    info.dataset.rng = np.random.default_rng(info.seed)
    info.dataset.py = random.Random(info.seed)


def _found(loader: Any) -> list[str]:
    model = nn.Linear(4, 2)
    report = preflight(model, loader, nn.CrossEntropyLoss())
    return [f.check for f in report.findings if f.check.startswith("data.workers")]


@pytest.mark.parametrize("draw", ["own-numpy", "own-random"])
def test_a_generator_the_dataset_holds_is_found(draw: str) -> None:
    found = _found(DataLoader(_Crops(draw), batch_size=4, num_workers=2))
    assert found == ["data.workers-same-random"]


@pytest.mark.parametrize("draw", ["global-numpy", "global-random", "torch", "none"])
def test_generators_torch_seeds_per_worker_and_no_randomness_stay_quiet(draw: str) -> None:
    assert _found(DataLoader(_Crops(draw), batch_size=4, num_workers=2)) == []


def test_a_worker_init_fn_that_reseeds_stays_quiet() -> None:
    loader = DataLoader(_Crops("own-numpy"), batch_size=4, num_workers=2, worker_init_fn=_reseed)
    assert _found(loader) == []


def test_one_worker_or_none_is_not_probed() -> None:
    for workers in (0, 1):
        report = preflight(
            nn.Linear(4, 2),
            DataLoader(_Crops("own-numpy"), batch_size=4, num_workers=workers),
            nn.CrossEntropyLoss(),
        )
        assert "data.workers-same-random" not in report.ran


class _Stream(IterableDataset):  # type: ignore[type-arg]
    def __iter__(self):  # type: ignore[no-untyped-def]
        for i in range(8):
            yield torch.randn(4), i % 2


def test_an_iterable_dataset_is_left_alone() -> None:
    assert _found(DataLoader(_Stream(), batch_size=4, num_workers=2)) == []


def test_the_users_generators_are_not_advanced() -> None:
    """The probe reads in its own workers with its own generator: the Dataset in this process
    and torch's global generator are where they were."""
    dataset = _Crops("own-numpy")
    model, loader = nn.Linear(4, 2), DataLoader(dataset, batch_size=4, num_workers=2)
    state = dataset.rng.bit_generator.state
    torch.manual_seed(3)
    expected = torch.rand(3)
    torch.manual_seed(3)
    report = preflight(model, loader, nn.CrossEntropyLoss())
    assert "data.workers-same-random" in report.ran
    assert dataset.rng.bit_generator.state == state
    assert torch.equal(torch.rand(3), expected)
