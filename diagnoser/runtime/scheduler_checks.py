"""watch's scheduler check: an lr scheduler built on another optimizer than the one that steps.

`scheduler = StepLR(optimizer)` followed by `optimizer = AdamW(...)` (an optimizer made again
after unfreezing, on resume, in a helper that returns a new one): the scheduler keeps stepping the
first optimizer, which never steps, so the one that trains keeps its first lr while
`scheduler.get_last_lr()`, which the logs show, follows the schedule. torch only warns, once,
that `lr_scheduler.step()` came before `optimizer.step()`.

Schedulers are not registered anywhere torch lets us look: they are found once, among the live
objects, at the second step of an optimizer of the watched model (one pass of the garbage
collector's list, once per run, and only when the optimizer that steps has no scheduler of its
own); the check itself reads a few attributes on sampled steps.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable
from typing import Any

import torch

from .findings import Finding

_FIRST_STEPS = 3


def _fmt(lrs: list[Any]) -> str:
    return "/".join(sorted({f"{float(lr):.3g}" for lr in lrs}))


class SchedulerChecks:
    def __init__(
        self,
        params: set[int],
        report: Callable[[str, str, Finding], None],
        every: int,
    ) -> None:
        self._params = params  # ids of the watched model's parameters
        self._report = report
        self._every = every
        self._steps: dict[int, int] = {}  # id(optimizer) -> its steps seen
        self._schedulers: list[Any] | None = None  # None until looked for
        self._handles: list[Any] = []

    def attach(self) -> None:
        from torch.optim.optimizer import register_optimizer_step_pre_hook

        self._handles = [register_optimizer_step_pre_hook(self._pre)]

    def detach(self) -> None:
        for h in self._handles:
            h.remove()
        self._handles.clear()
        self._schedulers = None  # hold no scheduler past the run

    def _mine(self, optimizer: torch.optim.Optimizer) -> bool:
        return any(id(p) in self._params for g in optimizer.param_groups for p in g["params"])

    def _pre(self, optimizer: torch.optim.Optimizer, args: Any, kwargs: Any) -> None:
        with contextlib.suppress(Exception):  # a check never stops the training
            self._check(optimizer)

    def _check(self, optimizer: torch.optim.Optimizer) -> None:
        n = self._steps.get(id(optimizer))
        if n is None and not self._mine(optimizer):
            return
        n = (n or 0) + 1
        self._steps[id(optimizer)] = n
        if n < 2 or (n > _FIRST_STEPS and n % self._every):
            return
        if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
            return  # a scheduler was built on this optimizer: the usual case, no search
        if self._schedulers is None:
            self._schedulers = _schedulers(self._mine)
        for scheduler in self._schedulers:
            other = scheduler.optimizer
            if (
                other is optimizer
                or self._steps.get(id(other))  # it steps too: two optimizers, two schedulers
                or getattr(other, "_opt_called", False)
                or scheduler.last_epoch <= 0  # not stepped yet: nothing it says is wrong yet
            ):
                continue
            values = {
                "scheduler": type(scheduler).__name__,
                "said": _fmt(scheduler.get_last_lr()),
                "optimizer": type(optimizer).__name__,
                "lr": _fmt([group["lr"] for group in optimizer.param_groups]),
                "other": type(other).__name__,
            }
            finding = Finding("watch.scheduler-other-optimizer", values)
            self._report("watch.scheduler-other-optimizer", str(id(scheduler)), finding)


def _schedulers(mine: Callable[[torch.optim.Optimizer], bool]) -> list[Any]:
    """The live lr schedulers whose optimizer holds a parameter of the watched model."""
    from torch.optim.lr_scheduler import LRScheduler, ReduceLROnPlateau

    # the classes themselves, looked up in a set: a few ns per live object where isinstance
    # costs a call and reads __class__ (which some deprecated objects turn into a warning)
    kinds: set[type] = set()
    todo: list[type] = [LRScheduler, ReduceLROnPlateau]  # apart before torch 2.2
    while todo:
        kind = todo.pop()
        if kind not in kinds:
            kinds.add(kind)
            todo.extend(kind.__subclasses__())
    return [o for o in gc.get_objects() if type(o) in kinds and mine(o.optimizer)]
