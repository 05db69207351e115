"""watch: each monitor catches a deliberately broken training loop (tiny models, real torch) and
stays silent on a healthy one; its log lines are read by `diagnoser train.log`."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

from diagnoser import watch  # noqa: E402


def _train(
    model: nn.Module,
    steps: int,
    loss_of: Callable[[torch.Tensor], torch.Tensor] | None = None,
    lr: float = 0.05,
    features: int = 8,
    **options: object,
) -> object:
    torch.manual_seed(0)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    with watch(model, **options) as w:
        for _ in range(steps):
            out = model(torch.randn(16, features))
            loss = loss_of(out) if loss_of else out.pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            w.step(loss)
    return w


def _mlp() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))


def test_healthy_training_is_silent() -> None:
    w = _train(_mlp(), 30, every=2)
    assert w.findings == []  # type: ignore[attr-defined]
    assert w.step_count == 30  # type: ignore[attr-defined]


class _Log(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log(x)  # nan for every negative input


def test_first_nan_in_forward_is_located() -> None:
    model = nn.Sequential(nn.Linear(8, 8), nn.Sequential(nn.ReLU(), _Log()), nn.Linear(8, 2))
    with torch.no_grad():
        model[0].bias.fill_(-0.2)
    w = _train(model, 3, loss_of=lambda out: out.mean() * 0 + out.clamp(0, 1).mean())
    [finding] = w.findings  # type: ignore[attr-defined]
    assert finding.check == "watch.nonfinite" and finding.entry == "nan-loss"
    assert finding.values["module"] == "1.1 (_Log)" and finding.values["step"] == 0
    assert finding.values["phase"]["en"] == "forward"
    assert "1.1 (_Log)" in finding.message("zh") and "前向" in finding.message("zh")


class _SafeSqrt(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # finite forward, nan gradient: where() sends 0 * inf back through the masked sqrt
        return torch.where(x > 0, x.sqrt(), torch.zeros_like(x))


def test_first_nan_in_backward_is_located() -> None:
    model = nn.Sequential(nn.Linear(8, 8), _SafeSqrt(), nn.Linear(8, 2))
    w = _train(model, 2)
    [finding] = w.findings  # type: ignore[attr-defined]
    assert finding.values["module"] == "1 (_SafeSqrt)"
    assert finding.values["phase"]["en"] == "backward" and finding.values["step"] == 0


def test_nan_starting_later_is_found_at_its_step() -> None:
    model = _mlp()
    w = _train(model, 12, lr=2.0, loss_of=lambda out: out.pow(4).sum() * 1e3)
    [finding] = [f for f in w.findings if f.check == "watch.nonfinite"]  # type: ignore[attr-defined]
    assert finding.values["step"] > 0


def test_vanishing_gradients() -> None:
    torch.manual_seed(0)
    layers: list[nn.Module] = []
    for _ in range(10):
        layers += [nn.Linear(8, 8), nn.Sigmoid()]
    w = _train(nn.Sequential(*layers, nn.Linear(8, 1)), 6, every=1)
    [finding] = w.findings  # type: ignore[attr-defined]
    assert finding.check == "watch.grad-vanishing"
    assert finding.values["layer"] == "0 (Linear)"


def test_dead_layer() -> None:
    model = _mlp()
    with torch.no_grad():
        model[0].bias.fill_(-100.0)  # every ReLU outputs 0: no gradient reaches layer 0
    w = _train(model, 6, every=1)
    [finding] = w.findings  # type: ignore[attr-defined]
    assert finding.check == "watch.grad-dead" and finding.values["layer"] == "0 (Linear)"


def test_exploding_gradients_and_loss_spike() -> None:
    model = _mlp()
    calls = iter(range(100))

    def loss_of(out: torch.Tensor) -> torch.Tensor:
        scale = 1e5 if next(calls) >= 15 else 1.0  # a bad batch arrives at step 15
        return out.pow(2).mean() * scale

    w = _train(model, 17, loss_of=loss_of, lr=1e-9, every=1)
    found = {f.check: f for f in w.findings}  # type: ignore[attr-defined]
    assert found["watch.loss-spike"].values["step"] == 15
    assert found["watch.grad-exploding"].values["step"] == 15


def test_memory_growing_step_after_step() -> None:
    model = nn.Sequential(nn.Linear(4, 4))
    kept = []

    def leaking(out: torch.Tensor) -> torch.Tensor:
        loss = out.mean()
        kept.append(out)  # the classic leak: a tensor with its graph kept across steps
        return loss

    torch.manual_seed(0)
    w = watch(model, every=1, leak_min_mb=20)
    with w:
        for _ in range(8):
            # 36 MB a step: above glibc's largest mmap threshold, so each one is fresh memory
            # rather than a reuse of what earlier tests freed
            loss = leaking(model(torch.randn(9 * 2**18, 4)))
            loss.backward()
            w.step(loss)
    [finding] = w.findings
    assert finding.check == "watch.memory-growth" and finding.entry == "gpu-memory-leak"
    assert float(finding.values["last"]) - float(finding.values["first"]) >= 20


def test_hooks_are_removed_and_steps_count_without_step_calls() -> None:
    model = _mlp()
    with watch(model) as w:
        for _ in range(4):
            model(torch.randn(4, 8)).sum().backward()
    assert w.step_count == 4
    assert not model._forward_hooks and not model[0]._forward_hooks
    assert all(not p._backward_hooks for p in model.parameters())


def test_bad_input_gets_a_clear_error() -> None:
    with pytest.raises(TypeError, match="torch"):
        watch("model")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 1"):
        watch(_mlp(), every=0)


def _diagnose(log: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "train.log"
    path.write_text(log)
    out = subprocess.run(
        [sys.executable, "-m", "diagnoser", "--json", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    return [m["id"] for m in json.loads(out.stdout)["matches"]]


def test_log_lines_are_read_by_the_cli(tmp_path: Path) -> None:
    log = io.StringIO()
    model = _mlp()
    w = _train(
        model, 12, lr=2.0, loss_of=lambda out: out.pow(4).sum() * 1e3, log_every=1, log_file=log
    )
    assert any(f.check == "watch.nonfinite" for f in w.findings)  # type: ignore[attr-defined]
    lines = log.getvalue().splitlines()
    assert re.match(r"\[diagnoser:\w+\] step 0 \| loss ", lines[0]), lines[0]
    assert any("loss nan" in line or "loss inf" in line for line in lines)
    # the norm exploded before the loss went nan: the log's first diagnosis is the cause
    assert _diagnose(log.getvalue(), tmp_path)[:2] == ["gradient-explosion", "nan-loss"]


def test_a_converging_runs_noisy_batches_are_no_spike() -> None:
    """A real run: 4 classes, 5% of the labels flipped, batches of 8. Its median loss falls to
    about 0.25 while a batch holding a flipped label still costs 1.5 to 2 (the old rule, 5 times
    the median, fired 19 times on it)."""
    torch.manual_seed(0)
    n = 2048
    x = torch.randn(n, 10)
    y = (x @ torch.randn(10, 4)).argmax(1)
    flip = torch.rand(n) < 0.05
    y[flip] = torch.randint(0, 4, (int(flip.sum()),))
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    with watch(model) as w:
        for _ in range(3):
            perm = torch.randperm(n)
            for i in range(0, n, 8):
                idx = perm[i : i + 8]
                loss = nn.functional.cross_entropy(model(x[idx]), y[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
                w.step(loss)
                losses.append(loss.item())
    tail = sorted(losses[-100:])
    assert tail[50] < 0.4 and max(losses[300:]) > 5 * tail[50]  # converged, with noisy batches
    assert w.findings == []


def test_a_finding_pasted_back_names_its_entry(tmp_path: Path) -> None:
    """A check has decided which entry it saw: its printed line, pasted into the diagnoser,
    comes back as that entry, first."""
    from diagnoser.runtime.findings import Finding

    values = {"step": 3, "phase": {"en": "forward", "zh": "前向"}, "module": "1 (Log)"}
    line = Finding("watch.nonfinite", values).line("zh")
    log = "epoch 1 | loss 0.6931\nepoch 2 | loss 0.6931\nepoch 3 | loss 0.6931\n" + line + "\n"
    assert _diagnose(log, tmp_path)[0] == "nan-loss"


class _NanFrom(nn.Module):
    """Finite until `start`, then nan from step `start` on (or at that step only)."""

    def __init__(self, start: int, transient: bool) -> None:
        super().__init__()
        self.start, self.transient, self.calls = start, transient, 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        step = self.calls - 1
        bad = step == self.start if self.transient else step >= self.start
        # a nan that does not reach the weights: its gradient is the loss's (0 where it is nan)
        return x + torch.full_like(x, float("nan")) if bad else x


def _train_without_loss(model: nn.Module, steps: int, **options: object) -> object:
    """A loop whose step() gets no loss (its loss hides a NaN of the output)."""
    torch.manual_seed(0)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    with watch(model, **options) as w:
        for _ in range(steps):
            loss = model(torch.randn(16, 8)).nan_to_num().pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            w.step()
    return w


@pytest.mark.parametrize("transient", [False, True])
def test_a_nan_between_sampled_steps_is_found(transient: bool) -> None:
    """Between sampled steps a loop that gives step() no loss has the model's output read
    (cheap); a NaN seen there makes the next step read every module to locate it, or is
    reported as it was seen."""
    model = nn.Sequential(nn.Linear(8, 2), _NanFrom(5, transient))  # no weight after the nan
    w = _train_without_loss(model, 9, every=10)
    [finding] = w.findings  # type: ignore[attr-defined]
    assert finding.check == "watch.nonfinite"
    if transient:
        assert finding.values["step"] == 5 and finding.values["module"] == "Sequential"
    else:
        assert finding.values["step"] == 6 and finding.values["module"] == "1 (_NanFrom)"


def test_a_nan_the_loss_hides_is_found_at_the_next_sample() -> None:
    """A loop that gives step() its loss has the loss read between samples, not the output: a
    NaN the loss hides (masked, nan_to_num) is found, and located, at the next sampled step."""
    model = nn.Sequential(nn.Linear(8, 2), _NanFrom(5, transient=False))
    w = _train(model, 12, loss_of=lambda out: out.nan_to_num().pow(2).mean(), every=10)
    [finding] = w.findings  # type: ignore[attr-defined]
    assert finding.check == "watch.nonfinite"
    assert finding.values["step"] == 10 and finding.values["module"] == "1 (_NanFrom)"


def _loop_without_step(model: nn.Module, updates: int, forwards_per_update: int) -> object:
    """A loop that never calls watch's step(): gradient accumulation over a few forwards."""
    torch.manual_seed(0)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    with watch(model, on_finding="quiet") as w:
        for _ in range(updates):
            opt.zero_grad()
            for _ in range(forwards_per_update):
                model(torch.randn(16, 8)).pow(2).mean().backward()
            opt.step()
    return w


@pytest.mark.parametrize("forwards", [1, 4])
def test_a_loop_without_step_counts_its_updates(forwards: int) -> None:
    """Without step(), a step is one update of an optimizer holding the model: a loop that sums
    four forwards' gradients before each update is not numbered by its forwards. Until the first
    update it has no other clock, so its first forwards count as steps."""
    w = _loop_without_step(_mlp(), updates=12, forwards_per_update=forwards)
    assert w.step_count == 12 + (forwards - 1)  # type: ignore[attr-defined]


def test_a_loop_without_an_optimizer_counts_forwards() -> None:
    model = _mlp()
    with watch(model, on_finding="quiet") as w:
        for _ in range(7):
            model(torch.randn(16, 8)).pow(2).mean().backward()
    assert w.step_count == 7


def test_lbfgs_closure_forwards_make_one_step_each_update() -> None:
    model = _mlp()
    opt = torch.optim.LBFGS(model.parameters(), lr=0.1, max_iter=5)
    x = torch.randn(16, 8)

    def closure() -> torch.Tensor:
        opt.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        return loss

    with watch(model, on_finding="quiet") as w:
        for _ in range(6):
            opt.step(closure)
    assert model.training and w.step_count == 6 + 4  # the first update's 5 forwards, then 1 each


@pytest.mark.parametrize("lasting", [False, True])
def test_a_loss_spike_lasts_beyond_one_batch(lasting: bool) -> None:
    """One batch far above the run's losses (a single confidently wrong sample, at batch size 1)
    is no spike; the same height on the next step too is, reported at the step it began."""
    losses = [0.5] * 20 + [50.0] + ([40.0] if lasting else [0.5]) + [0.5] * 5
    with watch(_mlp(), on_finding="quiet") as w:
        for loss in losses:
            w.step(loss)
    found = [f for f in w.findings if f.check == "watch.loss-spike"]
    assert [f.values["step"] for f in found] == ([20] if lasting else [])
