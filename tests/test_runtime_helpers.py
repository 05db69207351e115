"""set_seed, overfit_one_batch, lr_find and the Lightning callback, on tiny real models."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from typing import Any

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

import diagnoser  # noqa: E402


def _mlp() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))


def _loader() -> DataLoader:
    g = torch.Generator().manual_seed(1)
    x = torch.randn(64, 10, generator=g)
    return DataLoader(TensorDataset(x, (x[:, 0] > 0).long() + 2 * (x[:, 1] > 0).long()), 16)


def _quiet_trainer(lightning: Any, callback: object, **limits: int) -> Any:
    """A Trainer on the CPU that writes nothing: no logger, checkpoints, progress bar or summary."""
    return lightning.Trainer(
        callbacks=[callback],
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        accelerator="cpu",
        **limits,
    )


def test_import_diagnoser_does_not_import_torch() -> None:
    code = "import sys, diagnoser; diagnoser.__version__; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_set_seed_repeats_python_numpy_and_torch() -> None:
    numpy = pytest.importorskip("numpy")

    def draw() -> tuple[float, float, float]:
        return random.random(), float(numpy.random.rand()), float(torch.rand(()))

    diagnoser.set_seed(123)
    first = draw()
    diagnoser.set_seed(123)
    assert draw() == first
    diagnoser.set_seed(124)
    assert draw() != first


def test_set_seed_makes_cudnn_deterministic_by_default_as_the_guide_does() -> None:
    """The founding guide's set_seed (seed 000, 实践2) sets cudnn.deterministic = True and
    cudnn.benchmark = False; ours does the same unless told otherwise."""
    before = torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark
    try:
        torch.backends.cudnn.benchmark = True
        diagnoser.set_seed(0)
        assert torch.backends.cudnn.deterministic and not torch.backends.cudnn.benchmark
        assert not torch.are_deterministic_algorithms_enabled()  # only with strict=True
        torch.backends.cudnn.benchmark = True
        diagnoser.set_seed(0, deterministic=False)
        assert not torch.backends.cudnn.deterministic and torch.backends.cudnn.benchmark
    finally:
        torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = before


def test_set_seed_strict_turns_on_deterministic_algorithms() -> None:
    try:
        diagnoser.set_seed(0, strict=True)
        assert torch.are_deterministic_algorithms_enabled()
        assert torch.backends.cudnn.deterministic and not torch.backends.cudnn.benchmark
    finally:
        torch.use_deterministic_algorithms(False)
        torch.backends.cudnn.deterministic = False


def test_overfit_one_batch_falls_and_restores() -> None:
    model = _mlp()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    batch = next(iter(_loader()))
    losses = diagnoser.overfit_one_batch(model, batch, nn.CrossEntropyLoss(), opt, steps=40)
    assert len(losses) == 40 and losses[-1] < 0.2 * losses[0]
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())
    assert opt.state_dict()["state"] == {}
    frozen = _mlp().requires_grad_(False)
    frozen[2].requires_grad_(True)
    opt = torch.optim.SGD(frozen[2].parameters(), lr=0.0)  # a rate of zero: nothing learns
    losses = diagnoser.overfit_one_batch(frozen, batch, nn.CrossEntropyLoss(), opt, steps=5)
    assert losses[-1] == pytest.approx(losses[0])


def test_lr_find_suggests_a_rate_and_restores(capsys: pytest.CaptureFixture[str]) -> None:
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    result = diagnoser.lr_find(model, _loader(), nn.CrossEntropyLoss(), opt, steps=60)
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())
    assert opt.param_groups[0]["lr"] == 0.01
    assert result.suggestion is not None and 1e-4 < result.suggestion < 10
    # the loss at the suggested rate is lower than at the smallest rates
    assert min(result.losses) < result.losses[0]
    curve = result.curve()
    assert "*" in curve and "suggested lr" in curve
    try:
        import matplotlib  # noqa: F401
    except ImportError:  # without matplotlib, plot() prints the text curve
        assert result.plot() is None
        assert capsys.readouterr().out.strip() == curve.strip()
    else:
        assert result.plot() is not None
    with pytest.raises(ValueError, match="start_lr"):
        diagnoser.lr_find(model, _loader(), nn.CrossEntropyLoss(), opt, start_lr=1.0, end_lr=0.1)


def test_lightning_callback_runs_preflight_and_watch(capsys: pytest.CaptureFixture[str]) -> None:
    lightning = pytest.importorskip("lightning")

    class Module(lightning.LightningModule):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.net = _mlp()
            self.head = nn.Linear(4, 4)  # defined and never called: it gets no gradient

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.net(x)

        def training_step(self, batch: object, i: int) -> torch.Tensor:
            x, y = batch  # type: ignore[misc]
            loss = nn.functional.cross_entropy(self(x), y)
            self.log("train_loss", loss)
            return loss

        def configure_optimizers(self) -> torch.optim.Optimizer:
            return torch.optim.SGD(self.parameters(), lr=0.1)

    callback = diagnoser.DiagnoserCallback(every=1)
    trainer = _quiet_trainer(lightning, callback, max_epochs=1)
    trainer.fit(Module(), _loader())
    report = callback.report
    assert report is not None and [f.check for f in report.findings] == ["grad.none"]
    assert report.findings[0].values["params"] == "head.weight, head.bias"
    assert callback.watch is not None and callback.watch.step_count == 4
    assert callback.watch.findings == []
    assert "! grad.none: 2 trainable parameters have no gradient" in capsys.readouterr().err


def _fit_without_forward(*, nan: bool, as_dict: bool) -> object:
    """Lightning's own README layout: no forward, the layers called inside training_step, which
    returns the loss (a tensor, or a dict holding it under "loss")."""
    lightning = pytest.importorskip("lightning")

    class LitAutoEncoder(lightning.LightningModule):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            torch.manual_seed(0)
            self.encoder = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 3))
            self.decoder = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 10))

        def training_step(self, batch: object, batch_idx: int) -> object:
            x, _ = batch  # type: ignore[misc]
            loss = nn.functional.mse_loss(self.decoder(self.encoder(x)), x)
            if nan:
                loss = loss * float("nan")
            return {"loss": loss} if as_dict else loss

        def configure_optimizers(self) -> torch.optim.Optimizer:
            return torch.optim.Adam(self.parameters(), lr=1e-3)

    callback = diagnoser.DiagnoserCallback(every=1)
    trainer = _quiet_trainer(lightning, callback, max_steps=2)
    trainer.fit(LitAutoEncoder(), _loader())
    return callback


@pytest.mark.parametrize("as_dict", [False, True], ids=["tensor", "dict"])
def test_lightning_callback_on_a_module_without_forward(
    as_dict: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    callback: Any = _fit_without_forward(nan=False, as_dict=as_dict)
    report = callback.report
    assert report is not None and report.findings == [], report.to_text("en")
    assert "module-missing-forward" not in capsys.readouterr().err
    # training_step's loss went through the loss and gradient checks
    assert {"loss.compute", "loss.nonfinite", "grad.backward", "grad.nonfinite"} <= set(report.ran)
    assert "model.forward" not in report.ran  # there is no forward of its own to check
    assert math.isfinite(report.stats["loss"])
    watch = callback.watch
    assert watch is not None and watch.step_count == 2 and watch.findings == []
    assert len(watch._losses) == 2  # the loss training_step returned, at each step


def test_lightning_callback_finds_a_nan_loss_without_forward() -> None:
    callback: Any = _fit_without_forward(nan=True, as_dict=True)
    checks = [f.check for f in callback.report.findings]
    assert checks[0] == "loss.nonfinite" and "model.forward" not in checks
    assert all(f.entry != "module-missing-forward" for f in callback.report.findings)
    assert [f.check for f in callback.watch.findings] == ["watch.nonfinite"]


def test_results_have_short_informative_reprs() -> None:
    """`print(result)` or a notebook cell's echo shows a summary, not 200 floats; the data stays
    in the attributes."""
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    found = diagnoser.lr_find(model, _loader(), nn.CrossEntropyLoss(), opt, steps=60)
    assert len(found.lrs) == len(found.losses) >= 10  # all of it is kept
    assert found.suggestion is not None
    text = repr(found)
    assert len(text) < 120, text
    assert text.startswith("LRFinding(") and f"suggested={found.suggestion:.1e}" in text
    assert f"{len(found.lrs)} points from 1e-07 to {found.lrs[-1]:.2g}" in text
    assert str(found).startswith(f"suggested learning rate {found.suggestion:.1e}")

    batch = next(iter(_loader()))
    losses = diagnoser.overfit_one_batch(model, batch, nn.CrossEntropyLoss(), opt, steps=200)
    assert len(losses) == 200 and losses.losses == list(losses)  # still the list it was
    text = repr(losses)
    assert len(text) < 120, text
    assert text.startswith("OverfitLosses(200 steps") and f"{losses[0]:.3g}" in text
    assert "fell" in str(losses) and f"{losses[-1]:.3g}" in str(losses)


def test_watch_and_its_findings_have_short_reprs() -> None:
    model = _mlp()
    with diagnoser.watch(model) as w:
        for x, y in _loader():
            loss = nn.functional.cross_entropy(model(x), y) * float("nan")
            loss.backward()
            w.step(loss)
    assert w.findings and w.step_count == 4
    text = repr(w)
    assert len(text) < 120, text
    assert text == "Watch(Sequential, 4 steps, 1 finding: watch.nonfinite)"
    finding = repr(w.findings[0])
    assert len(finding) < 120 and finding.startswith("Finding(check='watch.nonfinite'")
    assert "entry='nan-loss'" in finding
