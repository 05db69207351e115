"""watch's scheduler check: an lr scheduler built on another optimizer than the one that steps.

`scheduler = StepLR(optimizer)` followed by `optimizer = AdamW(...)` (an optimizer made again
after unfreezing, on resume, in a helper that returns a new one): the scheduler keeps stepping the
first optimizer, which never steps, so the one that trains keeps its first lr while
`scheduler.get_last_lr()`, which the logs show, follows the schedule. torch only warns, once,
that `lr_scheduler.step()` came before `optimizer.step()`.

Schedulers are not registered anywhere torch lets us look, and the optimizer they were built on
keeps no reference to them. While a watch is attached, the `step` of every scheduler class is
wrapped so that it notes the scheduler that steps (a scheduler that has never stepped says
nothing wrong yet); the classes get their own `step` back at detach. Searching the garbage
collector's list instead cost a second on a program with millions of live objects.
The check itself reads a few attributes on sampled optimizer steps.
"""

from __future__ import annotations

import contextlib
import functools
import weakref
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
        self._handles: list[Any] = []

    def attach(self) -> None:
        from torch.optim.optimizer import register_optimizer_step_pre_hook

        if not self._handles:
            _follow()
            self._handles = [register_optimizer_step_pre_hook(self._pre)]

    def detach(self) -> None:
        if self._handles:
            _unfollow()
        for h in self._handles:
            h.remove()
        self._handles.clear()

    def _mine(self, optimizer: torch.optim.Optimizer) -> bool:
        return any(id(p) in self._params for g in optimizer.param_groups for p in g["params"])

    def _pre(self, optimizer: torch.optim.Optimizer, args: Any, kwargs: Any) -> None:
        n = self._steps.get(id(optimizer), 0)  # every optimizer counted: one dict read a step
        self._steps[id(optimizer)] = n + 1
        if n == 0 or (n >= _FIRST_STEPS and n % self._every):
            return  # the first step: no scheduler has stepped after an optimizer step yet
        with contextlib.suppress(Exception):  # a check never stops the training
            self._check(optimizer)

    def _check(self, optimizer: torch.optim.Optimizer) -> None:
        if not _stepped or hasattr(optimizer.step, "_wrapped_by_lr_sched"):
            return  # no scheduler steps, or one was built on this optimizer: the usual cases
        if not self._mine(optimizer):
            return
        for scheduler in list(_stepped):
            other = scheduler.optimizer
            if (
                other is optimizer
                or not self._mine(other)
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


# the schedulers that stepped while a watch was attached; weak: none is kept past its program's use
_stepped: weakref.WeakSet[Any] = weakref.WeakSet()
_own_steps: dict[type[Any], Any] = {}  # class -> the `step` it defines, while wrapped
_followers = 0  # attached watches: two (a GAN's generator and discriminator) wrap once


def _follow() -> None:
    global _followers
    _followers += 1
    if _followers > 1:
        return
    for kind in _scheduler_classes():
        own = kind.__dict__.get("step")
        if callable(own):
            _own_steps[kind] = own
            kind.step = _noting(own)


def _unfollow() -> None:
    global _followers
    _followers = max(0, _followers - 1)
    if _followers:
        return
    for kind, own in _own_steps.items():
        kind.step = own
    _own_steps.clear()
    _stepped.clear()


def _noting(step: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(step)
    def noted(self: Any, *args: Any, **kwargs: Any) -> Any:
        with contextlib.suppress(TypeError):  # a scheduler class with __slots__ and no weakref
            _stepped.add(self)
        return step(self, *args, **kwargs)

    return noted


def _scheduler_classes() -> list[type[Any]]:
    """LRScheduler, ReduceLROnPlateau (apart before torch 2.2) and their subclasses so far."""
    from torch.optim.lr_scheduler import LRScheduler, ReduceLROnPlateau

    kinds: list[type[Any]] = []
    todo: list[type[Any]] = [LRScheduler, ReduceLROnPlateau]
    while todo:
        kind = todo.pop()
        if kind not in kinds:
            kinds.append(kind)
            todo.extend(kind.__subclasses__())
    return kinds
