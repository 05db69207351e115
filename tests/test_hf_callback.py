"""The Hugging Face Trainer callback (diagnoser.DiagnoserTrainerCallback) with a real
`transformers.Trainer`, on a tiny GPT-2 built from a config and randomly initialised (nothing is
downloaded): a healthy run stays quiet and trains exactly as without it, a run whose loss goes nan
is reported with the nan-loss entry, though the Trainer's own log shows a finite loss."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

import diagnoser  # noqa: E402


class _Tokens(torch.utils.data.Dataset):  # type: ignore[misc]
    """32 random sequences of 8 tokens; a causal LM learns to predict each from the ones before."""

    def __init__(self) -> None:
        g = torch.Generator().manual_seed(0)
        self.ids = torch.randint(0, 32, (32, 8), generator=g)

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, i: int) -> dict[str, Any]:
        return {"input_ids": self.ids[i], "labels": self.ids[i]}


def _fit(
    tmp_path: Path, callback: object | None, *, lr: float = 1e-3, accumulate: int = 1
) -> tuple[Any, Any]:
    torch.manual_seed(0)
    config = transformers.GPT2Config(vocab_size=32, n_positions=16, n_embd=16, n_layer=1, n_head=2)
    model = transformers.GPT2LMHeadModel(config)
    args = transformers.TrainingArguments(
        output_dir=str(tmp_path / "out"),
        max_steps=4,
        per_device_train_batch_size=8 // accumulate,
        gradient_accumulation_steps=accumulate,
        learning_rate=lr,
        report_to="none",
        save_strategy="no",
        disable_tqdm=True,
        use_cpu=True,
        seed=0,
    )
    trainer = transformers.Trainer(
        model=model,
        args=args,
        train_dataset=_Tokens(),
        callbacks=[callback] if callback is not None else [],
    )
    trainer.train()
    return trainer, model


def test_a_healthy_run_stays_quiet_and_trains_as_without_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    callback = diagnoser.DiagnoserTrainerCallback(every=1)
    _, model = _fit(tmp_path, callback)
    report = callback.report
    assert report is not None and report.findings == [], report.to_text("en")
    # the model's own loss went through the loss, gradient and optimizer checks
    assert {"loss.compute", "loss.nonfinite", "grad.nonfinite", "optim.step"} <= set(report.ran)
    watch = callback.watch
    assert watch is not None and watch.findings == [] and watch.step_count == 4
    assert len(watch._losses) == 4 and all(math.isfinite(x) for x in watch._losses)
    err = capsys.readouterr().err
    assert "✗" not in err and "\n  ! " not in err
    # no hook is left behind, and the weights are those of the same run without the callback
    assert not model._forward_hooks and not model._forward_pre_hooks
    _, plain = _fit(tmp_path, None)
    assert all(
        torch.equal(a, b) for a, b in zip(model.parameters(), plain.parameters(), strict=True)
    )


def test_a_run_whose_loss_goes_nan_is_reported_with_the_nan_loss_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    callback = diagnoser.DiagnoserTrainerCallback(every=1, lang="en")
    # one AdamW step of lr 1e20 sends every weight to about ±1e20: the next forward overflows
    trainer, _ = _fit(tmp_path, callback, lr=1e20)
    watch = callback.watch
    assert watch is not None
    assert [(f.check, f.entry) for f in watch.findings] == [("watch.nonfinite", "nan-loss")]
    assert watch.findings[0].values["step"] == 1
    err = capsys.readouterr().err
    assert "✗ watch.nonfinite: the first NaN/inf appeared at step 1" in err
    assert "[nan-loss]" in err
    # what the user would have seen without it: the Trainer's log leaves the nan losses out
    assert math.isfinite(trainer.state.log_history[-1]["train_loss"])


def test_gradient_accumulation_counts_optimizer_steps(tmp_path: Path) -> None:
    callback = diagnoser.DiagnoserTrainerCallback(every=1, run_preflight=False)
    _fit(tmp_path, callback, accumulate=2)
    watch = callback.watch
    assert callback.report is None
    assert watch is not None and watch.step_count == 4 and watch.findings == []
    assert len(watch._losses) == 4  # the mean of each step's two micro-batches


def test_fail_on_error_stops_before_training(tmp_path: Path) -> None:
    """lr=0: preflight's optimizer step changes no weight, an error."""
    callback = diagnoser.DiagnoserTrainerCallback(fail_on_error=True)
    with pytest.raises(RuntimeError, match="preflight found problems"):
        _fit(tmp_path, callback, lr=0.0)
    assert callback.report is not None
    assert "optim.step" in [f.check for f in callback.report.findings]
