"""watch's checks across the ranks of a DistributedDataParallel run: replicas must stay equal.

DDP keeps one copy of the model per rank equal by construction: the same start (rank 0's weights
are broadcast when the wrapper is made), the same averaged gradients (an all-reduce during
backward), the same optimizer step. Each check below compares a checksum of every parameter
across the ranks, in one small all_gather:

- gradients, just before an optimizer step: they differ when the backward did not go through the
  DDP wrapper (`model.module(x)` instead of `model(x)`, a second model built around the same
  layers), so nothing was averaged;
- weights, just after it: they differ when something changed one rank alone (a checkpoint loaded
  on rank 0 after the wrapper was made, a rank-dependent edit of the weights, a parameter updated
  outside the optimizer), and every later step trains different models.

Only for a model wrapped in DistributedDataParallel, with torch.distributed initialised and more
than one rank: then every rank runs the same optimizer steps, so the collectives here meet (they
are sampled on the step count, the first steps then one in `every`, never on a local condition).
FSDP and DTensor parameters are sharded, not replicated: they are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
import torch.distributed as dist
from torch import nn

from .findings import Finding

_FIRST_STEPS = 3
_RTOL = 1e-5  # replicas are equal to the last bit; a little room for reductions in other orders


def _replicated(model: nn.Module) -> list[tuple[str, torch.Tensor]]:
    from torch.nn.parallel import DistributedDataParallel

    if not isinstance(model, DistributedDataParallel):
        return []
    return [
        (name.removeprefix("module."), p)
        for name, p in model.named_parameters()
        if type(p).__name__ != "DTensor" and type(p.data).__name__ != "DTensor"
    ]


class RankChecks:
    def __init__(
        self, model: nn.Module, report: Callable[[str, str, Finding], None], every: int
    ) -> None:
        self._params = _replicated(model)
        self._ids = {id(p) for _, p in self._params}
        self._report = report
        self._every = every
        self._steps = 0  # optimizer steps of the model's optimizer seen on this rank
        self._handles: list[Any] = []

    def attach(self) -> None:
        if not self._params or not _distributed():
            return
        from torch.optim.optimizer import (
            register_optimizer_step_post_hook,
            register_optimizer_step_pre_hook,
        )

        self._handles = [
            register_optimizer_step_pre_hook(self._pre),
            register_optimizer_step_post_hook(self._post),
        ]

    def detach(self) -> None:
        for h in self._handles:
            h.remove()
        self._handles.clear()

    def _mine(self, optimizer: torch.optim.Optimizer) -> bool:
        return any(id(p) in self._ids for g in optimizer.param_groups for p in g["params"])

    def _sampled(self) -> bool:
        n = self._steps
        return n < _FIRST_STEPS or n % self._every == 0

    def _pre(self, optimizer: torch.optim.Optimizer, args: Any, kwargs: Any) -> None:
        if not self._mine(optimizer) or not self._sampled():
            return
        grads = [(name, p.grad) for name, p in self._params]
        differs = _first_difference(grads)
        if differs is not None:
            values = {"param": differs, "step": self._steps, "ranks": dist.get_world_size()}
            finding = Finding("watch.ranks-grads-differ", values, location=differs)
            self._report("watch.ranks-grads-differ", "", finding)

    def _post(self, optimizer: torch.optim.Optimizer, args: Any, kwargs: Any) -> None:
        if not self._mine(optimizer):
            return
        sampled = self._sampled()
        self._steps += 1
        if not sampled:
            return
        differs = _first_difference([(name, p) for name, p in self._params])
        if differs is not None:
            values = {"param": differs, "step": self._steps - 1, "ranks": dist.get_world_size()}
            finding = Finding("watch.ranks-diverged", values, location=differs)
            self._report("watch.ranks-diverged", "", finding)


def _distributed() -> bool:
    return dist.is_available() and dist.is_initialized() and dist.get_world_size() > 1


def _first_difference(tensors: list[tuple[str, torch.Tensor | None]]) -> str | None:
    """The name of the first tensor whose checksum (sum, sum of squares) is not the same on every
    rank, or None. Every rank must call it at the same point: it holds one all_gather."""
    sums: list[float | torch.Tensor] = []
    device = torch.device("cpu")
    for _, t in tensors:
        if t is None or t.layout != torch.strided:
            sums += [0.0, 0.0]  # no gradient: the same on every rank as long as it is everywhere
            continue
        x = t.detach()
        device = x.device
        sums.append(x.double().sum())
        sums.append(x.double().pow(2).sum())
    if dist.get_backend() == "nccl" and device.type != "cuda":
        device = torch.device("cuda", torch.cuda.current_device())
    mine = torch.stack([torch.as_tensor(s, dtype=torch.float64, device=device) for s in sums])
    gathered = [torch.empty_like(mine) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, mine)
    stacked = torch.stack(gathered).cpu()
    equal = torch.isclose(stacked, stacked[0:1].expand_as(stacked), rtol=_RTOL, atol=1e-12)
    bad = (~equal).any(0).nonzero()
    if not len(bad):
        return None
    return tensors[int(bad[0]) // 2][0]
