"""watch(break_on=...): stop the run at the step a condition holds (founding guides 003 §3.2.3
conditional breakpoints, 000 技巧2).

A condition is "nan" (the loss, the model's output or a gradient is NaN/inf), a dict of
thresholds ({"loss_above": 10.0, "grad_norm_above": 1e3, "nan": True}), or a callable that
gets the step's StepInfo and returns True to stop. At that step watch either raises a
TrainingFindingError (the exception hook explains it: the step, the condition, the batch
indices and the worst samples by loss) or, with break_on_action="pdb", opens the post-mortem
debugger in the frame that called `w.step()`.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .findings import Finding

_KEYS = ("loss_above", "grad_norm_above", "nan")
_WORST = 5  # samples listed by loss


@dataclass(frozen=True)
class StepInfo:
    """What a break condition sees of one training step."""

    step: int
    loss: float | None
    grad_norm: float | None  # of every parameter read this step; None when none was
    nonfinite: bool  # the loss, the model's output or a gradient held NaN/inf
    indices: Sequence[Any] | None = None  # the batch's sample indices, as given to step()
    sample_losses: Sequence[float] | None = None  # a loss per sample, as given to step()


Condition = Callable[[StepInfo], "dict[str, str] | None"]


def condition(break_on: Any) -> Condition:
    """The test a step is put to: a description of the condition that holds, in both
    languages, or None. Raises ValueError for a break_on it cannot read (at watch(), not at the
    bad step)."""
    if callable(break_on):
        return lambda info: _CALLABLE if break_on(info) else None
    if break_on == "nan":
        break_on = {"nan": True}
    if not isinstance(break_on, dict) or not break_on or set(break_on) - set(_KEYS):
        raise ValueError(
            'break_on must be "nan", a callable(step_info) -> bool or a dict with the keys '
            f"{', '.join(_KEYS)}; got {break_on!r}"
        )
    loss_above = break_on.get("loss_above")
    norm_above = break_on.get("grad_norm_above")
    nan = bool(break_on.get("nan", False))

    def test(info: StepInfo) -> dict[str, str] | None:
        if nan and info.nonfinite:
            return {
                "en": "NaN/inf in the loss, output or gradients",
                "zh": "loss、输出或梯度里出现 NaN/inf",
            }
        if loss_above is not None and info.loss is not None and info.loss > loss_above:
            return {
                "en": f"loss {info.loss:.4g} > {loss_above:g}",
                "zh": f"loss {info.loss:.4g} > {loss_above:g}",
            }
        norm = info.grad_norm
        if norm_above is not None and norm is not None and norm > norm_above:
            return {
                "en": f"gradient norm {norm:.4g} > {norm_above:g}",
                "zh": f"梯度范数 {norm:.4g} > {norm_above:g}",
            }
        return None

    return test


def needs_grad_norm(break_on: Any) -> bool:
    """Whether the condition reads the gradient norm at every step (watch otherwise reads it at
    sampled steps only)."""
    return callable(break_on) or (isinstance(break_on, dict) and "grad_norm_above" in break_on)


_CALLABLE = {"en": "your break_on condition returned True", "zh": "你的 break_on 条件返回了 True"}


def finding(info: StepInfo, reason: dict[str, str]) -> Finding:
    """The finding the stop reports; its entry follows what broke (a NaN: nan-loss; a loss or
    gradient norm over its threshold: gradient-explosion; the user's callable: none)."""
    entry = None
    if reason is not _CALLABLE:
        entry = "nan-loss" if info.nonfinite else "gradient-explosion"
    values = {"step": info.step, "condition": reason, "samples": _samples(info)}
    return Finding("watch.break", values, entry_override=entry)


def _samples(info: StepInfo) -> dict[str, str]:
    """`; batch indices 4, 9, 1; worst samples by loss: 9 (12.3), 4 (0.71)` in both languages."""
    en, zh = "", ""
    ids = list(info.indices) if info.indices is not None else None
    if ids is not None:
        shown = ", ".join(map(str, ids[:16])) + (", …" if len(ids) > 16 else "")
        en += f"; batch indices {shown}"
        zh += f"；batch 里的样本下标 {shown}"
    losses = list(info.sample_losses) if info.sample_losses is not None else []
    if losses:
        order = sorted(range(len(losses)), key=lambda i: _rank(losses[i]), reverse=True)
        names = ids if ids is not None and len(ids) == len(losses) else None
        worst = ", ".join(
            f"{names[i] if names else f'#{i}'} ({losses[i]:.4g})" for i in order[:_WORST]
        )
        en += f"; worst samples by loss: {worst}"
        zh += f"；loss 最大的样本：{worst}"
    return {"en": en, "zh": zh}


def _rank(loss: float) -> float:
    """NaN first: the sample that made the batch's loss NaN is the one to look at."""
    return math.inf if math.isnan(loss) else loss


def post_mortem(frame: Any) -> bool:
    """The debugger, at the user's frame: IPython's when running under IPython, pdb's else.
    Whether the user quit (`q`: the run stops) rather than continued (`c`)."""
    shell = sys.modules.get("IPython")
    debugger: Any = None
    if shell is not None and getattr(shell, "get_ipython", lambda: None)() is not None:
        from IPython.core.debugger import Pdb as debugger
    if debugger is None:
        import pdb

        debugger = pdb.Pdb
    dbg = debugger()
    dbg.reset()
    dbg.interaction(frame, None)
    return bool(dbg.quitting)
