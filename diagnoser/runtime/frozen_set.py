"""watch's frozen-set check: parameters frozen (requires_grad=False) when watch starts that are
trainable at the first optimizer step, and held by that optimizer, which then updates them.

Between the freezing code and the first step, most loops only call `model.train()`: a train()
override that re-enables gradients for the whole model (and freezes only its own idea of the
stages), a callback or a helper that calls `requires_grad_(True)` undoes the user's freezing
without a word. The opposite, a train() override that freezes stages (mmdetection's
`frozen_stages`), is a design of those libraries and is not reported.

Once: the comparison runs at the first step of the first optimizer that holds the model's
parameters, then the hook is removed; unfreezing later in training (a fine-tuning schedule) is the
user's choice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from .findings import Finding

_SHOWN = 5


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
            shown = ", ".join(unfrozen[:_SHOWN])
            if len(unfrozen) > _SHOWN:
                shown += f" (+{len(unfrozen) - _SHOWN})"
            values = {
                "count": len(unfrozen),
                "optimizer": type(optimizer).__name__,
                "params": shown,
            }
            location = unfrozen[0]
            self._report("watch.unfrozen", "", Finding("watch.unfrozen", values, location=location))
