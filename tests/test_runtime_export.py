"""watch(export=..., stats=True): what watch measures per step, in a CSV the CLI reads back as the
run's training log (and TensorBoard events when tensorboard is installed: that test is skipped
where it is not), and each layer's activation statistics at the sampled steps."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

from diagnoser import watch  # noqa: E402
from tests.conftest import cli  # noqa: E402


def _diverge(folder: Path, steps: int = 40, lr: float = 0.5, **options: object) -> object:
    """A regression on unnormalised inputs: with lr 0.5, SGD diverges to inf, then NaN."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    with watch(model, export=folder, on_finding="quiet", every=5, **options) as w:
        for _ in range(steps):
            x = torch.randn(32, 4) * 10
            y = x.sum(1, keepdim=True)
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            w.step(loss)
    return w


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_csv_holds_each_step_and_the_cli_reads_it_back(tmp_path: Path) -> None:
    w = _diverge(tmp_path / "run")
    rows = _rows(tmp_path / "run" / "watch.csv")
    assert [int(r["step"]) for r in rows] == list(range(40))
    assert all(r["lr"] == "0.5" for r in rows)
    assert rows[0]["grad_norm"] and not rows[1 + 5 - 3]["grad_norm"]  # step 3: not sampled
    bad = {"nan", "inf"}
    first_bad_norm = next(i for i, r in enumerate(rows) if r["grad_norm"] in bad)
    assert next(i for i, r in enumerate(rows) if r["loss"] in bad) > first_bad_norm
    found = [int(r["step"]) for r in rows if "watch.nonfinite" in r["findings"]]
    assert found == [f.values["step"] for f in w.findings if f.check == "watch.nonfinite"]  # type: ignore[attr-defined]
    # the folder reads as its training log: the gradients blew up before the loss did
    result = cli("--lang", "en", str(tmp_path / "run"))
    assert result.stdout.startswith("Exploding gradients"), result.stdout[:300]
    assert f"became inf/nan at step {first_bad_norm}" in result.stdout
    assert "[nan-loss" in result.stdout  # the loss's nan, named second


def test_a_healthy_run_reads_as_no_problem(tmp_path: Path) -> None:
    _diverge(tmp_path / "run", lr=1e-4)
    rows = _rows(tmp_path / "run" / "watch.csv")
    assert all(r["loss"] not in ("nan", "inf") and not r["findings"] for r in rows)
    result = cli("--lang", "en", str(tmp_path / "run" / "watch.csv"))
    assert "nan-loss" not in result.stdout and "gradient-explosion" not in result.stdout


def test_stats_give_each_layer_at_sampled_steps(tmp_path: Path) -> None:
    w = _diverge(tmp_path / "run", steps=12, lr=1e-4, stats=True)
    layers = _rows(tmp_path / "run" / "layers.csv")
    steps = sorted({int(r["step"]) for r in layers})
    assert steps == [0, 1, 2, 5, 10]  # the first three, then one in `every`
    names = {r["layer"] for r in layers if r["step"] == "10"}
    assert names == {"0", "1", "2", "(output)"}
    relu = next(r for r in layers if r["layer"] == "1" and r["step"] == "0")
    assert float(relu["min"]) == 0.0 and 0 < float(relu["zeros"]) < 1
    last = w.layer_stats  # type: ignore[attr-defined]
    assert last is not None and [r.name for r in last.rows] == ["0", "1", "2", "(output)"]
    assert "layer" in last.table("en") and "层" in last.table("zh")


@pytest.mark.skipif(
    importlib.util.find_spec("tensorboard") is None, reason="tensorboard is not installed"
)
def test_tensorboard_events_are_written(tmp_path: Path) -> None:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    _diverge(tmp_path / "run", steps=12, lr=1e-4, stats=True)
    events = EventAccumulator(str(tmp_path / "run"), size_guidance={"histograms": 0})
    events.Reload()
    assert len(events.Scalars("watch/loss")) == 12
    assert "activations/1" in events.Tags()["histograms"]
