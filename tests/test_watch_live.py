"""watch's findings as a run meets them (issue 25 item 6): one line on stderr per kind of finding,
`on_finding="raise"` stopping a script that `diagnoser run` then explains, and the log lines of
two watched models read back as two series by the log reader."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

from diagnoser import watch  # noqa: E402
from diagnoser.text.training_log import read  # noqa: E402

from .conftest import cli  # noqa: E402

# A loop that never clears its gradients (stale-gradients) and meets a NaN in its data at step 6.
_SCRIPT = """\
import torch
import diagnoser
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
with diagnoser.watch(model, every=1, on_finding={mode!r}) as w:
    for step in range(12):
        x = torch.randn(16, 8)
        if step >= 6:
            x[0, 0] = float("nan")
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        w.step(loss)
        print("finished step", step, flush=True)
"""


def test_each_kind_of_finding_is_one_line_on_stderr(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(_SCRIPT.format(mode="warn"))
    run = [sys.executable, str(script)]
    proc = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("finished step") == 12  # "warn" never stops the run
    told = re.findall(r"^\[diagnoser:Sequential\] \S+ (watch\.[\w-]+)", proc.stderr, re.M)
    # the stale gradient is seen at every sampled step and the NaN at six: each is told once
    assert sorted(told) == ["watch.nonfinite", "watch.stale-grad"], proc.stderr


def test_raise_stops_the_run_and_diagnoser_run_explains_it(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(_SCRIPT.format(mode="raise"))
    result = cli("run", "--lang", "en", str(script))
    assert result.returncode == 1  # the script's own exit code: it was stopped
    assert result.stdout.count("finished step") < 12
    assert "TrainingFindingError" in result.stderr
    assert "[stale-gradients, " in result.stderr, result.stderr


def _train(model: Any, w: Any, x: Any, y: Any) -> float:
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    w.step(loss)
    return float(loss.detach())


def test_two_watched_models_log_two_series() -> None:
    torch.manual_seed(0)
    gen, disc = nn.Linear(4, 4), nn.Sequential(nn.Linear(4, 1))
    log = io.StringIO()
    fed: dict[str, list[float]] = {"Linear": [], "critic": []}
    with (
        watch(gen, log_every=1, log_file=log) as wg,
        watch(disc, log_every=1, log_file=log, label="critic") as wd,
    ):
        for _ in range(6):
            x = torch.randn(8, 4)
            fed["Linear"].append(_train(gen, wg, x, x))  # no label: the class name
            fed["critic"].append(_train(disc, wd, x, torch.zeros(8, 1)))
    series = read(log.getvalue())
    assert set(series.models) == {"Linear", "critic"}
    for label, losses in fed.items():
        got = [p.value for p in series.models[label].series["loss"]]
        assert got == pytest.approx(losses, rel=1e-5)
    assert "loss" not in series.series  # never one series jumping between the two models
