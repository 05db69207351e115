"""Train/eval mode checks.

- preflight: two eval-mode forwards of one batch must agree; when they do not, something random
  still runs at eval (`F.dropout(x, p)` whose `training` defaults to True, a Dropout submodule left
  in train mode), and the first module whose outputs differ is named.
- watch: a forward of the model in eval mode while some of its Dropout layers are still in train
  mode (`model.encoder.eval()` instead of `model.eval()`, a train() call after eval()).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from .findings import Finding, listed

_RTOL, _ATOL = 1e-3, 1e-5  # eval outputs equal up to non-deterministic kernels


def _checksum(value: Any) -> torch.Tensor | None:
    """(sum, sum of squares) of the first float tensor in a module's output, in float64."""
    if isinstance(value, (tuple, list)):
        value = next((v for v in value if isinstance(v, torch.Tensor)), None)
    if not isinstance(value, torch.Tensor) or not value.is_floating_point():
        return None
    if value.layout != torch.strided or value.is_nested:
        return None
    x = value.detach().double()
    return torch.stack([x.sum(), x.pow(2).sum()]).cpu()


def _traced_forward(
    model: nn.Module, forward: Callable[[], Any]
) -> list[tuple[str, torch.Tensor | None]]:
    names = {id(m): n or type(m).__name__ for n, m in model.named_modules()}
    seen: list[tuple[str, torch.Tensor | None]] = []
    handles = [
        m.register_forward_hook(
            lambda mod, args, out: seen.append((names.get(id(mod), "?"), _checksum(out)))
        )
        for m in model.modules()
    ]
    try:
        with torch.no_grad():
            forward()
    finally:
        for h in handles:
            h.remove()
    return seen


def eval_forwards_differ(model: nn.Module, forward: Callable[[], Any]) -> Finding | None:
    """Run `forward` twice with the model in eval mode; a finding naming the first module whose
    outputs differ, or None. The caller restores modes and RNG."""
    model.eval()
    first = _traced_forward(model, forward)
    second = _traced_forward(model, forward)
    for (name, a), (_, b) in zip(first, second, strict=False):
        if a is None or b is None or not torch.isfinite(a).all():
            continue
        if not torch.allclose(a, b, rtol=_RTOL, atol=_ATOL):
            kind = type(dict(model.named_modules()).get(name, model)).__name__
            values = {"module": f"{name} ({kind})" if name != kind else kind}
            return Finding("model.eval-random", values, location=name)
    return None


def dropouts(model: nn.Module) -> list[tuple[str, nn.Module]]:
    return [
        (n, m) for n, m in model.named_modules() if isinstance(m, nn.modules.dropout._DropoutNd)
    ]


def dropout_training_at_eval(
    model: nn.Module, layers: list[tuple[str, nn.Module]], step: int
) -> Finding | None:
    """For a forward of `model` in eval mode: its Dropout layers still in train mode."""
    training = [n for n, m in layers if m.training and float(getattr(m, "p", 0.0)) > 0]
    if not training:
        return None
    values = {"layers": listed(training), "count": len(training), "step": step}
    return Finding("watch.eval-dropout", values, location=training[0])


def mode_dependent(model: nn.Module) -> list[tuple[str, nn.Module]]:
    """The layers other than Dropout whose forward reads `self.training`: BatchNorm, RNNs and
    attention with dropout, custom layers with a training branch (stochastic depth, a functional
    dropout). A layer whose output does not depend on its mode (Linear, ReLU) is left out: its
    `training` flag changes nothing, so a stray True there is no fault."""
    found = []
    for name, module in model.named_modules():
        if isinstance(module, nn.modules.dropout._DropoutNd):
            continue  # watch.eval-dropout and model.eval-random report these
        if isinstance(module, nn.modules.batchnorm._NormBase) and not module.track_running_stats:
            continue  # it normalises with the batch's statistics in both modes
        code = getattr(type(module).forward, "__code__", None)
        if code is not None and "training" in code.co_names:
            found.append((name, module))
    return found


def training_under_eval(
    model: nn.Module, layers: list[tuple[str, nn.Module]], step: int | None
) -> Finding | None:
    """For a model in eval mode: its mode-dependent layers still in train mode (a train()
    override that ignores mode=False, `layer.training = True`, `model.block.train()` after
    `model.eval()`). step None: preflight's check, else watch's at that step."""
    if model.training:
        return None
    training = [n or type(m).__name__ for n, m in layers if m.training]
    if not training:
        return None
    values: dict[str, Any] = {"layers": listed(training), "count": len(training)}
    if step is None:
        return Finding("model.eval-training", values, location=training[0])
    values["step"] = step
    return Finding("watch.eval-training", values, location=training[0])
