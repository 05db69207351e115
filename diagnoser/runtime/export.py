"""watch(export="runs/x"): what watch measures, per step, written where a user looks at runs
(founding guide 003 §3.2.2: TensorBoard logging).

Always `runs/x/watch.csv` (step, loss, grad_norm, lr, the checks that found something), which
`diagnoser runs/x` reads back like any training log, and `runs/x/layers.csv` with each layer's
activation statistics when watch(stats=True). With the `tensorboard` package installed, the same
as TensorBoard scalars and histograms in runs/x (torch.utils.tensorboard's SummaryWriter needs
it). A write that fails is reported once on stderr and stops the export, never the training.
"""

from __future__ import annotations

import csv
import importlib.util
import math
import os
import sys
from pathlib import Path
from typing import IO, Any

CSV_NAME = "watch.csv"  # what `diagnoser <folder>` reads in an exported run
LAYERS_NAME = "layers.csv"
_COLUMNS = ("step", "loss", "grad_norm", "lr", "findings")
_LAYER_COLUMNS = ("step", "layer", "type", "mean", "std", "min", "max", "zeros", "nonfinite")


class Exporter:
    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._files: list[IO[str]] = []
        self._steps = self._writer(CSV_NAME, _COLUMNS)
        self._layers: Any = None  # csv writer, opened at the first statistics
        self._board: Any = None
        if importlib.util.find_spec("tensorboard") is not None:
            from torch.utils.tensorboard import SummaryWriter

            self._board = SummaryWriter(log_dir=str(self.folder))
        self._failed = False
        self._lr: float | None = None
        self._hook: Any = None

    @property
    def histograms(self) -> bool:
        """Whether activation samples are worth keeping: only TensorBoard shows them."""
        return self._board is not None

    def follow_lr(self, params: set[int]) -> None:
        """Read the learning rate of the optimizer that steps these parameters (by id)."""
        from torch.optim.optimizer import register_optimizer_step_pre_hook

        def pre(optimizer: Any, args: Any, kwargs: Any) -> None:
            groups = optimizer.param_groups
            if groups and any(id(p) in params for p in groups[0]["params"]):
                self._lr = float(groups[0]["lr"])

        self._hook = register_optimizer_step_pre_hook(pre)

    def _writer(self, name: str, columns: tuple[str, ...]) -> Any:
        f = open(self.folder / name, "w", newline="", encoding="utf-8")  # noqa: SIM115
        self._files.append(f)
        writer = csv.writer(f)
        writer.writerow(columns)
        return writer

    def step(
        self,
        step: int,
        loss: float | None,
        grad_norm: float | None,
        findings: list[str],
        layers: Any = None,
    ) -> None:
        """One step's row; `layers`: (Trace, samples) of this step's activations (trace.py's
        Recorder.take()), or None."""
        if self._failed:
            return
        try:
            self._write(step, loss, grad_norm, self._lr, findings, layers)
        except (OSError, ValueError, RuntimeError, TypeError) as e:
            self._failed = True
            print(f"[diagnoser] export to {self.folder} stopped: {e}", file=sys.stderr)

    def _write(
        self,
        step: int,
        loss: float | None,
        grad_norm: float | None,
        lr: float | None,
        findings: list[str],
        layers: Any,
    ) -> None:
        self._steps.writerow([step, _cell(loss), _cell(grad_norm), _cell(lr), ";".join(findings)])
        board = self._board
        for name, value in (("loss", loss), ("grad_norm", grad_norm), ("lr", lr)):
            if board is not None and value is not None:
                board.add_scalar(f"watch/{name}", value, step)
        if layers is None:
            return
        if self._layers is None:
            self._layers = self._writer(LAYERS_NAME, _LAYER_COLUMNS)
        traced, samples = layers
        for row, sample in zip(traced.rows, samples or [None] * len(traced.rows), strict=True):
            s = row.stats
            if s is None:
                continue
            values = (s.mean, s.std, s.min, s.max, s.zeros, s.nonfinite)
            self._layers.writerow([step, row.name, row.kind, *map(_cell, values)])
            if board is not None:
                board.add_scalar(f"activations/{row.name}/mean", s.mean, step)
                board.add_scalar(f"activations/{row.name}/std", s.std, step)
                board.add_scalar(f"activations/{row.name}/zeros", s.zeros, step)
                if sample is not None and sample.numel():
                    board.add_histogram(f"activations/{row.name}", sample, step)

    def flush(self) -> None:
        for f in self._files:
            f.flush()
        if self._board is not None:
            self._board.flush()

    def close(self) -> None:
        if self._hook is not None:
            self._hook.remove()
            self._hook = None
        for f in self._files:
            f.close()
        if self._board is not None:
            self._board.close()


def _cell(value: float | None) -> str:
    """Empty when not measured at this step; nan and inf as Python prints them."""
    if value is None:
        return ""
    return repr(float(value)) if not math.isfinite(value) else f"{value:.6g}"
