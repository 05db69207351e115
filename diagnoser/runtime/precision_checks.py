"""Mixed precision that does not apply: layers autocast should run in float16/bfloat16 that run in
full precision anyway, while the user believes AMP is on.

Read in watch's forward hooks, on the layers autocast casts (Linear, convolutions, Bilinear):

- autocast is enabled for another device type than the one the layer computes on
  (`torch.autocast("cuda")` around a model left on the CPU, `torch.autocast("cpu")` around a
  model on the GPU): nothing is cast;
- autocast is enabled for the layer's device, but the layer computes in float64 (a model or
  inputs made `.double()`, numpy's float64 data): autocast only casts float32 tensors.

A layer run inside `torch.autocast(..., enabled=False)` (a deliberate float32 island) is never
reported: autocast is then off for its device, and on for no other.

And low-precision weights the optimizer updates directly, with no float32 master copy: float16
ones at the first step (float16_weights), bfloat16 tensors whose updates round away at a sampled
step (bfloat16_rounded_away).
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from .findings import Finding, listed

ELIGIBLE = (nn.Linear, nn.Bilinear, nn.modules.conv._ConvNd)
_DEVICE_TYPES = ("cuda", "cpu", "xpu", "mps")


def _enabled(device_type: str) -> bool:
    try:
        return bool(torch.is_autocast_enabled(device_type))
    except (TypeError, RuntimeError):  # torch < 2.4: no device argument; unknown device types
        if device_type == "cpu":
            return bool(torch.is_autocast_cpu_enabled())
        return device_type == "cuda" and bool(torch.is_autocast_enabled())


def autocast_not_applied(name: str, output: Any, step: int) -> Finding | None:
    """For the output of an autocast-eligible layer: a finding when autocast is meant to apply
    to it and does not, else None."""
    out = output[0] if isinstance(output, (tuple, list)) and output else output
    if not isinstance(out, torch.Tensor) or not out.is_floating_point():
        return None
    here = out.device.type
    if _enabled(here):
        if out.dtype != torch.float64:
            return None
        why = {
            "en": f"autocast({here}) is on, but this layer computes in float64, which autocast "
            "never casts (a model or inputs made .double(), numpy's float64 data)",
            "zh": f"autocast({here}) 已开启，但这一层在 float64 下计算，而 autocast 从不转换 "
            "float64（模型或输入被 .double() 了，或者数据是 numpy 的 float64）",
        }
    else:
        others = [d for d in _DEVICE_TYPES if d != here and _enabled(d)]
        if not others:
            return None  # no autocast at all, or a deliberate enabled=False region
        why = {
            "en": f"autocast is on for {others[0]}, but this layer runs on {here}, so nothing "
            "is cast",
            "zh": f"autocast 开在 {others[0]} 上，但这一层跑在 {here} 上，什么都不会被转换",
        }
    values = {
        "module": name,
        "step": step,
        "dtype": str(out.dtype).removeprefix("torch."),
        "why": why,
    }
    return Finding("watch.autocast-off", values, location=name)


def float16_weights(
    optimizer: torch.optim.Optimizer, named: list[tuple[str, torch.Tensor]], step: int | None
) -> Finding | None:
    """The trainable float16 parameters an optimizer updates directly (model.half(), then
    training, with no float32 master copy); preflight's finding (step None) or watch's.

    float16 keeps 10 bits of mantissa: an update below about 1e-3 of a weight rounds away, and
    torch says float16 weights are not how AMP trains (GradScaler.unscale_ refuses them with
    "Attempting to unscale FP16 gradients."). bfloat16 weights are left alone: torch's own
    recipes train in pure bfloat16 (torchtune's default dtype), and watch.step-no-update reports
    the steps whose bfloat16 updates do round away."""
    half = [name for name, p in named if p.requires_grad and p.dtype == torch.float16]
    if not half:
        return None
    values: dict[str, Any] = {
        "optimizer": type(optimizer).__name__,
        "count": len(half),
        "params": listed(half),
    }
    if step is None:
        return Finding("optim.float16-weights", values, location=half[0])
    values["step"] = step
    return Finding("watch.float16-weights", values, location=half[0])


# bfloat16 updates that round away, per tensor ---------------------------------------------------

_COMPARED = 4096  # elements of each bfloat16 tensor compared before and after a sampled step
_MIN_LIVE = 8  # elements with a gradient a tensor needs for its share to mean something
_STUCK = 0.9  # a tensor whose elements with a gradient this share of did not change is stuck

# (name, the first elements of the parameter (a view), their copy, where the gradient is not 0)
Snapshot = tuple[str, torch.Tensor, torch.Tensor, torch.Tensor]


def bfloat16_snapshot(
    optimizer: torch.optim.Optimizer, held: list[tuple[int, str, torch.Tensor]]
) -> list[Snapshot]:
    """Before a sampled step: the first elements of each trainable bfloat16 tensor the optimizer
    holds (a copy of at most _COMPARED elements each, not of the model). Only torch.optim's own
    optimizers, whose bfloat16 update rounds to nearest: an optimizer with stochastic rounding
    or Kahan summation (torchao, optimi) moves a weight in some steps by design, and an element
    unchanged at one step is then no lost update."""
    if not type(optimizer).__module__.startswith("torch.optim"):
        return []
    taken = []
    for g, name, p in held:
        grad = p.grad
        if p.dtype != torch.bfloat16 or not p.requires_grad or grad is None:
            continue
        lr = optimizer.param_groups[g].get("lr")
        if not isinstance(lr, (int, float, torch.Tensor)) or float(lr) == 0:
            continue  # a warm-up from 0 moves nothing by design
        if type(p.detach()) is not torch.Tensor or grad.layout != torch.strided:
            continue  # a sharded parameter (DTensor) would gather to be read
        if not (p.is_contiguous() and grad.is_contiguous()):
            continue
        view = p.detach().view(-1)[:_COMPARED]
        live = torch.ne(grad.detach().view(-1)[:_COMPARED], 0)
        taken.append((name, view, view.clone(), live))
    return taken


def bfloat16_rounded_away(
    optimizer: torch.optim.Optimizer, taken: list[Snapshot], step: int
) -> Finding | None:
    """After the step: the bfloat16 tensors where most elements that had a gradient did not
    change. bfloat16 keeps 8 bits of mantissa: at a weight of 1.0 (a LayerNorm gain) neighbouring
    values are 0.0078 apart, so an Adam update of lr 6e-4 rounds back to the same weight every
    step, whatever the gradient says. One read of every count (one sync on a GPU)."""
    if not taken:
        return None
    device = taken[0][1].device
    reads = []
    for _, view, before, gradient in taken:
        reads += [gradient.sum(), torch.logical_and(gradient, torch.eq(view, before)).sum()]
    counts: list[int] = torch.stack([r.to(device) for r in reads]).tolist()
    stuck, live_total, kept_total = [], 0, 0
    for i, (name, _, _, _) in enumerate(taken):
        live, kept = counts[2 * i], counts[2 * i + 1]
        if live >= _MIN_LIVE and kept >= _STUCK * live:
            stuck.append(name)
            live_total += live
            kept_total += kept
    if not stuck:
        return None
    lrs = sorted({f"{float(g['lr']):.3g}" for g in optimizer.param_groups if "lr" in g})
    values = {
        "step": step,
        "optimizer": type(optimizer).__name__,
        "count": len(stuck),
        "params": listed(stuck),
        "share": f"{100 * kept_total / live_total:.0f}",
        "lr": "/".join(lrs),
    }
    return Finding("watch.bfloat16-rounded", values, location=stuck[0])
