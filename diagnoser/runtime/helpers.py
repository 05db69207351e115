"""The helpers users reach for while debugging training: set_seed, overfit_one_batch, lr_find."""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..speak.optional import requires

with requires("torch", extra="torch", feature="diagnoser.set_seed, lr_find and overfit_one_batch"):
    import torch
from torch import nn

from .batches import call, model_device, scalar_loss, split, take, to_device
from .state import preserved
from .stepping import step


def set_seed(seed: int, deterministic: bool = True, strict: bool = False) -> None:
    """Seed python, numpy (when installed), torch and every CUDA device.

    deterministic (the default, as the founding guide's set_seed): cuDNN picks deterministic
    convolution algorithms and its autotuner is off (`cudnn.benchmark = False`). That costs
    speed on GPUs where autotuning finds faster kernels; pass deterministic=False to keep them
    once runs no longer need to repeat exactly. strict: also `use_deterministic_algorithms`,
    which makes every op without a deterministic version raise instead of varying silently."""
    random.seed(seed)
    os.environ["PYTHONHASHSEED"] = str(seed)  # for subprocesses (DataLoader workers spawned)
    try:
        import numpy
    except ImportError:
        pass
    else:
        numpy.random.seed(seed % 2**32)
    torch.manual_seed(seed)  # seeds every CUDA device too
    torch.backends.cudnn.deterministic = deterministic or strict
    torch.backends.cudnn.benchmark = (
        False if deterministic or strict else torch.backends.cudnn.benchmark
    )
    if strict:
        # cuBLAS needs this workspace setting to be deterministic (CUDA >= 10.2)
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.use_deterministic_algorithms(True)


def _loss_of(
    model: nn.Module,
    raw: Any,
    loss_fn: Callable[..., Any] | None,
    compute_loss: Callable[[Any], Any] | None,
) -> torch.Tensor:
    if compute_loss is not None:
        return scalar_loss(compute_loss(raw))
    if loss_fn is None:
        raise TypeError("give loss_fn (or compute_loss)")
    batch = split(raw, 0.0)
    return scalar_loss(loss_fn(call(model, batch.inputs), batch.target))


def overfit_one_batch(
    model: nn.Module,
    batch: Any,
    loss_fn: Callable[..., Any] | None,
    optimizer: torch.optim.Optimizer,
    *,
    steps: int = 50,
    compute_loss: Callable[[Any], Any] | None = None,
    restore: bool = True,
) -> OverfitLosses:
    """Train on one batch for `steps` steps and return the losses (a list, with a summary for a
    repr). A set-up that cannot drive the loss down on a single batch has a bug in its model,
    loss or optimizer. With restore=True (the default) the model, optimizer and RNG are put back
    afterwards."""
    if steps < 1:
        raise ValueError(f"steps must be at least 1, not {steps}")
    raw = to_device(batch, model_device(model))

    def train() -> OverfitLosses:
        model.train()
        losses = OverfitLosses()
        for _ in range(steps):
            optimizer.zero_grad()
            loss = _loss_of(model, raw, loss_fn, compute_loss)
            loss.backward()
            step(optimizer, partial(_loss_of, model, raw, loss_fn, compute_loss))
            losses.append(float(loss.detach()))
            if not math.isfinite(losses[-1]):
                break
        return losses

    if not restore:
        return train()
    with preserved(model, optimizer):
        return train()


class OverfitLosses(list[float]):
    """overfit_one_batch's result: the loss at each step, a list like any other, whose repr is a
    summary (`OverfitLosses(50 steps, 1.39 -> 0.0123, fell)`) rather than every loss."""

    @property
    def losses(self) -> list[float]:
        return list(self)

    @property
    def fell(self) -> bool:
        """The loss came down: by 10% at least, or to nearly zero (preflight's `overfit`)."""
        return bool(self) and (self[-1] <= 0.9 * self[0] or self[-1] < 1e-3)

    def __repr__(self) -> str:
        if not self:
            return "OverfitLosses(0 steps)"
        verdict = "fell" if self.fell else "did not fall"
        return f"OverfitLosses({len(self)} steps, {self[0]:.3g} -> {self[-1]:.3g}, {verdict})"

    def __str__(self) -> str:
        if not self:
            return "no step was run"
        if not math.isfinite(self[-1]):
            return f"the loss became {self[-1]} at step {len(self) - 1} (it was {self[0]:.3g})"
        steps = f"in {len(self)} steps on one batch"
        if self.fell:
            return f"the loss fell from {self[0]:.3g} to {self[-1]:.3g} {steps}"
        return f"the loss did not fall: {self[0]:.3g}, then {self[-1]:.3g} {steps}"


@dataclass(repr=False)
class LRFinding:
    """lr_find's result: the rates tried, the smoothed loss at each, and a suggested rate."""

    lrs: list[float] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)
    suggestion: float | None = None

    def _range(self) -> str:
        if not self.lrs:
            return "no points"
        return f"{len(self.lrs)} points from {self.lrs[0]:.2g} to {self.lrs[-1]:.2g}"

    def __repr__(self) -> str:
        suggested = "None" if self.suggestion is None else f"{self.suggestion:.1e}"
        return f"LRFinding(suggested={suggested}, {self._range()})"

    def __str__(self) -> str:
        if self.suggestion is None:
            return f"no suggested learning rate: too few finite losses ({self._range()})"
        return (
            f"suggested learning rate {self.suggestion:.1e}, where the loss fell fastest "
            f"({self._range()}; .curve() or .plot() shows them)"
        )

    def curve(self, width: int = 50, rows: int = 12) -> str:
        """The loss against log(lr) as text, for terminals without matplotlib."""
        points = [(lr, loss) for lr, loss in zip(self.lrs, self.losses, strict=True)]
        points = [(lr, loss) for lr, loss in points if math.isfinite(loss)]
        if len(points) < 2:
            return "(too few points to draw)"
        low = min(loss for _, loss in points)
        high = min(max(loss for _, loss in points), 4 * points[0][1])
        grid = [[" "] * width for _ in range(rows)]
        for i, (_, loss) in enumerate(points):
            x = i * (width - 1) // (len(points) - 1)
            level = (min(loss, high) - low) / ((high - low) or 1)
            grid[rows - 1 - round(level * (rows - 1))][x] = "*"
        lines = [f"{high:9.3g} |" + "".join(grid[0])]
        lines += ["          |" + "".join(r) for r in grid[1:-1]]
        lines += [f"{low:9.3g} |" + "".join(grid[-1])]
        lines.append("          +" + "-" * width)
        lines.append(f"           lr {points[0][0]:.1e}{' ' * (width - 22)}{points[-1][0]:.1e}")
        if self.suggestion is not None:
            lines.append(f"           suggested lr: {self.suggestion:.2e}")
        return "\n".join(lines)

    def plot(self) -> Any:
        """A matplotlib figure when matplotlib is installed, else the text curve (printed)."""
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            print(self.curve())
            return None

        fig, ax = plt.subplots()
        ax.plot(self.lrs, self.losses)
        ax.set_xscale("log")
        ax.set_xlabel("learning rate")
        ax.set_ylabel("loss (smoothed)")
        if self.suggestion is not None:
            ax.axvline(self.suggestion, linestyle="--")
        return fig


def lr_find(
    model: nn.Module,
    data: Any,
    loss_fn: Callable[..., Any] | None,
    optimizer: torch.optim.Optimizer,
    *,
    start_lr: float = 1e-7,
    end_lr: float = 10.0,
    steps: int = 100,
    compute_loss: Callable[[Any], Any] | None = None,
    diverge: float = 4.0,
) -> LRFinding:
    """The learning-rate range test (Smith, 2015): raise the rate exponentially from start_lr to
    end_lr, one batch per step, and stop when the smoothed loss exceeds `diverge` times its best.
    Suggests the rate where the loss falls fastest. The model, optimizer and RNG are restored."""
    if not 0 < start_lr < end_lr:
        raise ValueError(f"need 0 < start_lr < end_lr, got {start_lr} and {end_lr}")
    if steps < 2:
        raise ValueError(f"steps must be at least 2, not {steps}")
    result = LRFinding()
    with preserved(model, optimizer):
        model.train()
        device = model_device(model)
        factor = (end_lr / start_lr) ** (1 / (steps - 1))
        source = _cycle(data, steps)
        smooth, best = 0.0, math.inf
        for i in range(steps):
            lr = start_lr * factor**i
            for group in optimizer.param_groups:
                group["lr"] = lr
            optimizer.zero_grad()
            batch = to_device(source[i], device)
            loss = _loss_of(model, batch, loss_fn, compute_loss)
            loss.backward()
            step(optimizer, partial(_loss_of, model, batch, loss_fn, compute_loss))
            value = float(loss.detach())
            # smoothed: one batch's loss is too noisy to compare rates by
            smooth = value if i == 0 else 0.9 * smooth + 0.1 * value
            result.lrs.append(lr)
            result.losses.append(smooth)
            if not math.isfinite(smooth) or smooth > diverge * best:
                break
            best = min(best, smooth)
    result.suggestion = _steepest(result.lrs, result.losses)
    return result


def _cycle(data: Any, n: int) -> list[Any]:
    """n raw batches: the loader's batches in turn, again from the start when it runs out."""
    batches = [b.raw for b in take(data, n)]
    return [batches[i % len(batches)] for i in range(n)]


def _steepest(lrs: list[float], losses: list[float]) -> float | None:
    finite = [(lr, loss) for lr, loss in zip(lrs, losses, strict=True) if math.isfinite(loss)]
    if len(finite) < 3:
        return None
    slopes = [
        (finite[i + 1][1] - finite[i][1]) / (math.log(finite[i + 1][0]) - math.log(finite[i][0]))
        for i in range(len(finite) - 1)
    ]
    # the rate where the smoothed loss falls fastest per decade of lr, as fastai suggests
    steepest = min(range(len(slopes)), key=slopes.__getitem__)
    return finite[steepest][0]
