"""preflight's reproducibility checks (issue 26 item 4): an unseeded torch, and a Dataset that
draws from numpy's or Python's global generator in the main process. Seeding is process-wide, so
the unseeded case runs in a fresh interpreter."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")
nn = torch.nn
from torch.utils.data import DataLoader, Dataset, TensorDataset  # noqa: E402

from diagnoser import preflight  # noqa: E402

_ROOT = Path(__file__).resolve().parents[1]
_SCRIPT = textwrap.dedent(
    """
    import json, sys, torch
    from torch import nn
    from diagnoser import preflight
    if sys.argv[1] == "seeded":
        torch.manual_seed(0)
    model = nn.Linear(4, 3)
    report = preflight(model, (torch.randn(16, 4), torch.arange(16) % 3), nn.CrossEntropyLoss())
    print(json.dumps([[f.check, f.entry] for f in report.findings]))
    """
)


@pytest.mark.parametrize("how", ["unseeded", "seeded"])
def test_an_unseeded_run_is_told_how_to_repeat_it(how: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(_ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, how], capture_output=True, text=True, env=env, check=True
    )
    findings = json.loads(out.stdout.strip().splitlines()[-1])
    expected = [["seed.unseeded", "results-not-reproducible"]] if how == "unseeded" else []
    assert findings == expected


class _NumpyFlip(Dataset):  # type: ignore[type-arg]
    """The augmentation of the reproduction: a flip decided by numpy's global generator."""

    def __init__(self, draw: str) -> None:
        self.x, self.draw = torch.randn(64, 10), draw

    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        if self.draw == "numpy" and np.random.rand() < 0.5:
            return -self.x[i], i % 4
        if self.draw == "random" and random.random() < 0.5:
            return -self.x[i], i % 4
        if self.draw == "torch" and torch.rand(()) < 0.5:
            return -self.x[i], i % 4
        return self.x[i], i % 4


def _model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 4))


@pytest.mark.parametrize("draw", ["numpy", "random"])
def test_global_numpy_or_random_in_the_main_process_is_reported_and_put_back(draw: str) -> None:
    np_before, py_before = np.random.get_state(), random.getstate()
    loader = DataLoader(_NumpyFlip(draw), batch_size=16, shuffle=True)
    report = preflight(_model(), loader, nn.CrossEntropyLoss())
    [finding] = [f for f in report.findings if f.check == "seed.main-process-random"]
    assert finding.values["generators"] == {"numpy": "numpy.random", "random": "random"}[draw]
    assert finding.entry == "results-not-reproducible" and finding.message("zh")
    assert random.getstate() == py_before
    assert all(
        np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
        for a, b in zip(np.random.get_state(), np_before, strict=True)
    )


@pytest.mark.parametrize(
    "loader",
    [
        lambda: DataLoader(_NumpyFlip("torch"), batch_size=16, shuffle=True),
        lambda: DataLoader(TensorDataset(torch.randn(64, 10), torch.arange(64) % 4), batch_size=16),
    ],
    ids=["torch-augmentation", "no-augmentation"],
)
def test_torch_augmentation_and_plain_data_are_quiet(loader: object) -> None:
    report = preflight(_model(), loader(), nn.CrossEntropyLoss())  # type: ignore[operator]
    assert report.findings == [], report.to_text("en")
    assert {"seed.unseeded", "seed.main-process-random"} <= set(report.ran)
