"""watch's frozen-set checks.

FrozenSetCheck: parameters frozen (requires_grad=False) when watch starts that are trainable at
the first optimizer step, and held by that optimizer, which then updates them. Between the
freezing code and the first step, most loops only call `model.train()`: a train() override that
re-enables gradients for the whole model (and freezes only its own idea of the stages), a
callback or a helper that calls `requires_grad_(True)` undoes the user's freezing without a
word. The opposite, a train() override that freezes stages (mmdetection's `frozen_stages`), is a
design of those libraries and is not reported. Once: the comparison runs at the first step of
the first optimizer that holds the model's parameters, then the hook is removed; unfreezing
later in training (a fine-tuning schedule) is the user's choice.

FrozenMoved: a parameter frozen at any step that an optimizer step still changes.
"""

from __future__ import annotations

import contextlib
import operator
import weakref
from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from .findings import Finding, listed

_WATCHED_STEPS = 3  # steps a frozen parameter is compared before and after
_COMPARED = 4096  # elements of a frozen parameter compared
_TRAINABLE = operator.attrgetter("requires_grad")


class FrozenSetCheck:
    def __init__(self, model: nn.Module, report: Callable[[str, str, Finding], None]) -> None:
        self._model = model
        self._report = report
        self._frozen: dict[int, str] = {}  # id(parameter) -> name, frozen at the start
        self._ours: set[int] = set()
        self._handle: Any = None

    def attach(self) -> None:
        from torch.optim.optimizer import register_optimizer_step_pre_hook

        named = list(self._model.named_parameters())
        self._ours = {id(p) for _, p in named}
        self._frozen = {id(p): n for n, p in named if not p.requires_grad}
        if self._frozen:  # nothing frozen: nothing to unfreeze
            self._handle = register_optimizer_step_pre_hook(self._pre)

    def detach(self) -> None:
        if self._handle is not None:
            self._handle.remove()
            self._handle = None

    def _pre(self, optimizer: torch.optim.Optimizer, args: Any, kwargs: Any) -> None:
        try:
            held = [p for group in optimizer.param_groups for p in group["params"]]
            if not any(id(p) in self._ours for p in held):
                return  # another model's optimizer: wait for this model's first step
            self.detach()  # compared once, at this model's first step
            unfrozen = [
                self._frozen[id(p)] for p in held if id(p) in self._frozen and p.requires_grad
            ]
        except (RuntimeError, TypeError, KeyError, ValueError):
            self.detach()  # a check never stops the training
            return
        if unfrozen:
            values = {
                "count": len(unfrozen),
                "optimizer": type(optimizer).__name__,
                "params": listed(unfrozen),
            }
            location = unfrozen[0]
            self._report("watch.unfrozen", "", Finding("watch.unfrozen", values, location=location))


class FrozenMoved:
    """A parameter frozen during training (requires_grad=False) that an optimizer step moves
    anyway. Backward no longer writes its `.grad`, but a `.grad` left a tensor (zeroed in place by
    zero_grad(set_to_none=False), or never cleared) is still read by torch's optimizers, so
    momentum, weight decay and Adam's running averages keep changing the "frozen" weights; some
    optimizers (reference Muon) decay a parameter whose gradient is None as well.

    At every step, since a layer is frozen at any step (an epoch boundary, a new task):
    `before` runs in the optimizer pre-hook. A step with the same number of trainable parameters
    as the last one, whose frozen ones were all compared already, costs one pass over
    requires_grad and allocates nothing. A frozen parameter is compared on its first
    `_COMPARED` elements (a step that moves a tensor moves them: weight decay and momentum act
    on every element) at its first `_WATCHED_STEPS` steps while frozen; a step that left it in
    place then leaves it in place later too (the same zeroed gradient, the same hyperparameters),
    so the copies stop."""

    def __init__(
        self, report: Callable[[str, str, Finding], None], step_of: Callable[[], int]
    ) -> None:
        self._report = report
        self._step_of = step_of
        self._held: weakref.WeakKeyDictionary[torch.optim.Optimizer, _Held]
        self._held = weakref.WeakKeyDictionary()
        self._watched: dict[int, int] = {}  # id(parameter) -> steps compared while frozen
        self._done = False  # reported: watch tells a kind once
        self._handle: Any = None  # the post-hook of the step being compared

    def before(
        self, optimizer: torch.optim.Optimizer, held: list[tuple[int, str, torch.Tensor]]
    ) -> None:
        """`held`: the model's parameters the optimizer holds, (group, name, parameter), the same
        list object for as long as the optimizer's groups do not change (OptimizerChecks._held)."""
        if self._done:
            return
        try:
            self._before(optimizer, held)
        except (RuntimeError, TypeError, ValueError, KeyError):
            self._drop()  # a check never stops the training

    def _before(
        self, optimizer: torch.optim.Optimizer, listed_held: list[tuple[int, str, torch.Tensor]]
    ) -> None:
        self._drop()  # the last compared step raised before its post-hook
        held = self._held.get(optimizer)
        if held is None or held.source is not listed_held:
            held = self._held[optimizer] = _Held(listed_held)
        trainable = sum(map(_TRAINABLE, held.params))
        if trainable == len(held.params):
            return  # the usual step
        if trainable == held.trainable and held.settled:
            return  # the same frozen set, every one of them compared already
        held.trainable = trainable
        frozen = [
            (name, p)
            for name, p in zip(held.names, held.params, strict=True)
            if not p.requires_grad and _plain(p)
        ]
        moving = [(n, p) for n, p in frozen if self._watched.get(id(p), 0) < _WATCHED_STEPS]
        held.settled = not moving
        if not moving:
            return
        for _, p in moving:
            self._watched[id(p)] = self._watched.get(id(p), 0) + 1
        before = [_head(p).clone() for _, p in moving]
        step = self._step_of()

        def after(opt: torch.optim.Optimizer, args: Any, kwargs: Any) -> None:
            self._drop()
            with contextlib.suppress(RuntimeError, TypeError, ValueError):
                self._after(opt, moving, before, step)

        self._handle = optimizer.register_step_post_hook(after)

    def _after(
        self,
        optimizer: torch.optim.Optimizer,
        moving: list[tuple[str, torch.Tensor]],
        before: list[torch.Tensor],
        step: int,
    ) -> None:
        # one read of every tensor's "changed" flag (one sync on a GPU)
        device = before[0].device
        changed = torch.stack(
            [
                torch.ne(_head(p), b).any().to(device)
                for (_, p), b in zip(moving, before, strict=True)
            ]
        ).tolist()
        moved = [name for (name, _), c in zip(moving, changed, strict=True) if c]
        if not moved:
            return
        self._done = True
        values = {
            "count": len(moved),
            "params": listed(moved),
            "step": step,
            "optimizer": type(optimizer).__name__,
        }
        finding = Finding("watch.frozen-changed", values, location=moved[0])
        self._report("watch.frozen-changed", "", finding)

    def close(self) -> None:
        self._drop()

    def _drop(self) -> None:
        if self._handle is not None:
            self._handle.remove()
            self._handle = None


class _Held:
    """An optimizer's parameters of the model, and what the last step found among them."""

    def __init__(self, held: list[tuple[int, str, torch.Tensor]]) -> None:
        self.source = held
        self.params = [p for _, _, p in held]
        self.names = [name for _, name, _ in held]
        self.trainable = -1  # how many were trainable at the last step with a frozen one
        self.settled = False  # every frozen one then was compared _WATCHED_STEPS times


def _head(p: torch.Tensor) -> torch.Tensor:
    """The first elements of a parameter (a view when it is contiguous)."""
    return p.detach().reshape(-1)[:_COMPARED]


def _plain(p: torch.Tensor) -> bool:
    """A dense tensor of this process: a sharded one (DTensor) would gather to be read."""
    return type(p.detach()) is torch.Tensor and p.layout == torch.strided
