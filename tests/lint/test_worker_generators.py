"""TD023's premise, run on the installed torch: a generator object a Dataset makes in __init__
gives every DataLoader worker the same stream, and every epoch's new workers again, while the
global generators torch seeds per worker (torch/utils/data/_utils/worker.py: torch, `random`,
numpy since 1.9) do not. The same Dataset classes, linted, fire TD023 exactly for the ones whose
workers repeat each other."""

from __future__ import annotations

import inspect
import multiprocessing
import random
import sys

import pytest

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")

from torch.utils.data import DataLoader, Dataset, get_worker_info  # noqa: E402

from diagnoser.lint import RULES, lint_source  # noqa: E402


class _DefaultRng(Dataset):  # type: ignore[type-arg]
    def __init__(self):
        self.rng = np.random.default_rng()

    def __len__(self):
        return 8

    def __getitem__(self, i):
        return get_worker_info().id, float(self.rng.random())


class _RandomState(Dataset):  # type: ignore[type-arg]
    def __init__(self):
        self.rng = np.random.RandomState(0)

    def __len__(self):
        return 8

    def __getitem__(self, i):
        return get_worker_info().id, float(self.rng.rand())


class _PythonRandom(Dataset):  # type: ignore[type-arg]
    def __init__(self):
        self.rng = random.Random(0)

    def __len__(self):
        return 8

    def __getitem__(self, i):
        return get_worker_info().id, self.rng.random()


class _TorchGenerator(Dataset):  # type: ignore[type-arg]
    def __init__(self):
        self.g = torch.Generator().manual_seed(0)

    def __len__(self):
        return 8

    def __getitem__(self, i):
        return get_worker_info().id, float(torch.rand(1, generator=self.g))


class _GlobalGenerators(Dataset):  # type: ignore[type-arg]
    def __init__(self):
        self.n = 8

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        drawn = float(np.random.rand()) + float(torch.rand(1)) + random.random()
        return get_worker_info().id, drawn


_COPIED = [_DefaultRng, _RandomState, _PythonRandom, _TorchGenerator]


def _streams(dataset: Dataset) -> dict[tuple[int, int], list[float]]:  # type: ignore[type-arg]
    """(epoch, worker) -> the numbers drawn, over two epochs of two workers."""
    loader = DataLoader(dataset, batch_size=None, num_workers=2, multiprocessing_context="fork")
    per: dict[tuple[int, int], list[float]] = {}
    for epoch in range(2):
        for worker, value in loader:
            per.setdefault((epoch, int(worker)), []).append(float(value))
    return per


@pytest.mark.skipif(
    sys.platform != "linux" or "fork" not in multiprocessing.get_all_start_methods(),
    reason="the workers are forked, as on Linux by default",
)
def test_a_generator_made_in_init_repeats_in_every_worker_and_the_globals_do_not() -> None:
    for cls in _COPIED:
        per = _streams(cls())
        assert per[0, 0] == per[0, 1], cls.__name__  # the two workers
        assert per[0, 0] == per[1, 0], cls.__name__  # and the next epoch's fresh workers
    per = _streams(_GlobalGenerators())
    assert per[0, 0] != per[0, 1] and per[0, 0] != per[1, 0]


def test_lint_fires_for_exactly_the_datasets_whose_workers_repeat() -> None:
    header = (
        "import random\nimport numpy as np\nimport torch\n"
        "from torch.utils.data import DataLoader, Dataset, get_worker_info\n"
    )
    for cls in [*_COPIED, _GlobalGenerators]:
        source = header + inspect.getsource(cls)
        source += f"\nloader = DataLoader({cls.__name__}(), batch_size=None, num_workers=2)\n"
        found = lint_source(source, "workers.py", [RULES["TD023"]])
        assert bool(found) == (cls in _COPIED), cls.__name__


# A transform object the Dataset holds is copied into the workers with it: its own generator
# repeats too. One applied to batches in the training loop runs in the main process.
class _Jitter:
    def __init__(self):
        self.rng = np.random.default_rng()

    def __call__(self, x):
        return x + float(self.rng.normal())


class _Holding(Dataset):  # type: ignore[type-arg]
    def __init__(self, transform):
        self.transform = transform

    def __len__(self):
        return 8

    def __getitem__(self, i):
        return get_worker_info().id, self.transform(0.0)


@pytest.mark.skipif(
    sys.platform != "linux" or "fork" not in multiprocessing.get_all_start_methods(),
    reason="the workers are forked, as on Linux by default",
)
def test_a_transforms_own_generator_repeats_in_every_worker() -> None:
    per = _streams(_Holding(_Jitter()))
    assert per[0, 0] == per[0, 1] and per[0, 0] == per[1, 0]


_HEADER = (
    "import numpy as np\nimport torch\n"
    "from torch.utils.data import DataLoader, Dataset, get_worker_info\n"
)


@pytest.mark.parametrize(
    ("use", "fires"),
    [
        ("loader = DataLoader(_Holding(_Jitter()), batch_size=None, num_workers=2)", True),
        ("ds = _Holding(transform=_Jitter())\nloader = DataLoader(ds, num_workers=2)", True),
        # made inside the Dataset class
        (
            "class _Own(_Holding):\n    def __init__(self):\n        self.transform = _Jitter()\n"
            "loader = DataLoader(_Own(), num_workers=2)",
            True,
        ),
        # applied to batches in the main process: the loader's workers never hold it
        (
            "aug = _Jitter()\nloader = DataLoader(_Holding(lambda x: x), num_workers=2)\n"
            "for _, x in loader:\n    x = aug(x)",
            False,
        ),
        # no workers
        ("loader = DataLoader(_Holding(_Jitter()), batch_size=None)", False),
    ],
)
def test_lint_fires_for_a_transform_with_a_generator_a_dataset_holds(use: str, fires: bool) -> None:
    source = _HEADER + inspect.getsource(_Jitter) + inspect.getsource(_Holding) + use + "\n"
    found = lint_source(source, "workers.py", [RULES["TD023"]])
    assert bool(found) == fires, found
    assert all("drawn from in `__call__`" in f.message for f in found)
