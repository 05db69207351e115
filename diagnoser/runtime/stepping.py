"""Stepping any optimizer the way its class asks: `torch.optim.LBFGS` (and optimizers written like
it) take a closure that recomputes the loss, the others step on the gradients already there."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import torch


def needs_closure(optimizer: torch.optim.Optimizer) -> bool:
    """Whether `optimizer.step` has a `closure` parameter without a default (LBFGS)."""
    try:
        parameter = inspect.signature(optimizer.step).parameters.get("closure")
    except (TypeError, ValueError):
        return False
    return parameter is not None and parameter.default is inspect.Parameter.empty


def step(optimizer: torch.optim.Optimizer, loss_of: Callable[[], torch.Tensor]) -> Any:
    """One optimizer step. An optimizer that needs a closure gets one that zeroes the gradients,
    recomputes the loss with `loss_of()` and backpropagates it; the others step on the
    gradients already computed."""
    if not needs_closure(optimizer):
        return optimizer.step()

    def closure() -> torch.Tensor:
        optimizer.zero_grad()
        loss = loss_of()
        loss.backward()
        return loss

    return optimizer.step(closure)  # type: ignore[arg-type]  # torch's stub says float; it passes the closure's value through
