"""watch's optimizer checks, through torch's global optimizer step hooks: they see every optimizer
that holds a parameter of the watched model, with nothing to pass to watch.

- every parameter the optimizer holds is frozen: its steps cannot change anything;
- a step that leaves (nearly) every weight it had a gradient for unchanged, in every group or in
  some: float16/bfloat16 weights whose updates round away, a broken custom optimizer;
- a frozen parameter (requires_grad=False) that a step changes anyway: momentum and weight decay
  keep moving a parameter whose gradient is a zero tensor rather than None (at every step:
  frozen_set.FrozenMoved);
- a group whose lr does not show in its update: it moves at lr 0 (a group deliberately kept at
  lr 0 is not reported: some fine-tuning recipes freeze layers that way);
- float16 weights the optimizer updates directly, at its first step (precision_checks.py);
- stale gradients: a parameter whose `.grad` still holds the last step's gradient when the next
  backward adds to it (optimizer.zero_grad() missing).

Cheap: the weights are compared on sampled steps only (the first three of each optimizer, then
one in `5 * every`: 50 by default), and on a few parameters of each group. What the comparisons
find lasts as long as its cause (a dtype, a missing zero_grad, an optimizer that ignores its lr),
so a later sample finds it as surely; on a small model the comparisons were a third of watch's
cost per step when they ran at every sampled step of watch's.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import torch

from .findings import Finding, listed
from .frozen_set import FrozenMoved
from .precision_checks import Snapshot, bfloat16_rounded_away, bfloat16_snapshot, float16_weights

_SAMPLED_PER_GROUP = 4  # parameters compared before and after a sampled step, per group
_FIRST_STEPS = 3
_SPARSER = 5  # the comparisons' period, in watch's sampling periods
_MOVED_AT_LEAST = 0.1  # a step that moves fewer of the weights with a gradient changes nothing


def _fmt(x: float) -> str:
    return f"{x:.3g}"


class OptimizerChecks:
    def __init__(
        self,
        params: dict[int, str],
        report: Callable[[str, str, Finding], None],
        step_of: Callable[[], int],
        every: int,
        stepped: Callable[[], None],
    ) -> None:
        self._params = params  # id(parameter) -> its name in the model
        self._stepped = stepped  # told after each step of an optimizer holding the model
        self._stepping: torch.optim.Optimizer | None = None  # that optimizer, inside its step
        self._report = report  # (check, key, finding): once per check and key
        self._step_of = step_of
        self._every = every * _SPARSER
        self._steps: dict[int, int] = {}  # id(optimizer) -> steps seen
        # (group index, name, parameter, its values and its gradient before the step)
        self._before: dict[int, list[tuple[int, str, torch.Tensor, torch.Tensor, torch.Tensor]]]
        self._before = {}
        self._bfloat16: dict[int, list[Snapshot]] = {}  # id(optimizer) -> its bfloat16 tensors
        # id(parameter) -> (hook, name, id(optimizer), parameter): after a sampled step, the
        # backwards into one parameter are watched until its optimizer's next step
        self._probes: dict[int, tuple[Any, str, int, torch.Tensor]] = {}
        # id(parameter) -> name: a backward added to the gradient the last step used; stale if
        # the next step comes before a clear (a GAN's generator backward through the
        # discriminator adds to D's gradient, harmlessly: D's next update starts with zero_grad)
        self._uncleared: dict[int, str] = {}
        self._gradless: dict[int, int] = {}  # id(optimizer) -> sampled steps with no gradient
        self._handles: list[Any] = []
        # optimizer -> (its groups' sizes, _held's list): weakly, an id may be reused
        self._held_by: weakref.WeakKeyDictionary[
            torch.optim.Optimizer, tuple[tuple[int, ...], list[tuple[int, str, torch.Tensor]]]
        ] = weakref.WeakKeyDictionary()
        self._frozen_moved = FrozenMoved(report, step_of)

    def attach(self) -> None:
        from torch.optim.optimizer import (
            register_optimizer_step_post_hook,
            register_optimizer_step_pre_hook,
        )

        self._handles = [
            register_optimizer_step_pre_hook(self._pre),
            register_optimizer_step_post_hook(self._post),
        ]

    def detach(self) -> None:
        self._drop_probes()
        self._frozen_moved.close()
        for h in self._handles:
            h.remove()
        self._handles.clear()

    # the hooks ----------------------------------------------------------------------------

    def _held(self, optimizer: torch.optim.Optimizer) -> list[tuple[int, str, torch.Tensor]]:
        """The model's parameters the optimizer holds, with their group: computed again only when
        the groups change (add_param_group), not at every step of a model with many tensors."""
        shape = tuple(len(group["params"]) for group in optimizer.param_groups)
        cached = self._held_by.get(optimizer)
        if cached is not None and cached[0] == shape:
            return cached[1]
        held = [
            (g, self._params[id(p)], p)
            for g, group in enumerate(optimizer.param_groups)
            for p in group["params"]
            if id(p) in self._params
        ]
        self._held_by[optimizer] = (shape, held)
        return held

    def _pre(self, optimizer: torch.optim.Optimizer, args: Any, kwargs: Any) -> None:
        held = self._held(optimizer)
        self._stepping = optimizer if held else None
        self._frozen_moved.before(optimizer, held)
        if self._probes:
            self._settle_probes(optimizer)
        # every optimizer is counted, the model's or not: a step between samples costs one
        # dict read and a modulo (the sampled ones find out whether it holds the model)
        n = self._steps.get(id(optimizer), 0)
        self._steps[id(optimizer)] = n + 1
        if n >= _FIRST_STEPS and n % self._every:
            return
        try:
            # with a closure (LBFGS) the gradients are computed inside step(); args[0] is the
            # optimizer itself
            closure = len(args) > 1 or (kwargs or {}).get("closure") is not None
            self._before_step(optimizer, n, closure)
        except (RuntimeError, TypeError, ValueError):
            self._before.pop(id(optimizer), None)  # a check never stops the training

    def _post(self, optimizer: torch.optim.Optimizer, args: Any, kwargs: Any) -> None:
        if self._before:  # a sampled step
            try:
                self._after_step(optimizer)
            except (RuntimeError, TypeError, ValueError):
                pass
            finally:
                self._before.pop(id(optimizer), None)
                self._bfloat16.pop(id(optimizer), None)
        if self._stepping is optimizer:
            self._stepping = None
            self._stepped()

    def _before_step(self, optimizer: torch.optim.Optimizer, n: int, closure: bool) -> None:
        held = self._held(optimizer)
        if not held:
            return  # another model's optimizer
        if n == 0 and not any(p.requires_grad for _, _, p in held):
            values = {"count": len(held), "params": listed([name for _, name, _ in held])}
            self._report(
                "watch.optim-frozen", str(id(optimizer)), Finding("watch.optim-frozen", values)
            )
        if n == 0:
            named = [(name, p) for _, name, p in held]
            half = float16_weights(optimizer, named, self._step_of())
            if half is not None:
                self._report("watch.float16-weights", "", half)
        if not closure:
            self._without_gradients(optimizer, held)
        candidates: dict[int, list[tuple[int, str, torch.Tensor]]] = {}
        for g, name, p in held:
            grad = p.grad
            usable = grad is not None and grad.layout == torch.strided and not grad.is_nested
            if usable and p.requires_grad:  # frozen ones are FrozenMoved's, at every step
                candidates.setdefault(g, []).append((g, name, p))
        sampled = []
        for group in candidates.values():  # spread over the group: first, last and between
            for g, name, p in _spread(group, _SAMPLED_PER_GROUP):
                assert p.grad is not None
                sampled.append((g, name, p, p.detach().clone(), p.grad.detach().clone()))
        self._before[id(optimizer)] = sampled
        self._bfloat16[id(optimizer)] = bfloat16_snapshot(optimizer, held)

    def _without_gradients(
        self, optimizer: torch.optim.Optimizer, held: list[tuple[int, str, torch.Tensor]]
    ) -> None:
        """Two sampled steps in a row where no trainable parameter the optimizer holds has a
        gradient: step() skips them all (zero_grad() between backward() and step(), a backward
        of another model). One such step alone is the `optimizer.step()` some code calls once
        before training to silence the scheduler's warning."""
        trainable = [p for _, _, p in held if p.requires_grad]
        if not trainable or any(p.grad is not None for p in trainable):
            self._gradless.pop(id(optimizer), None)
            return
        count = self._gradless[id(optimizer)] = self._gradless.get(id(optimizer), 0) + 1
        if count == 2:
            values = {"step": self._step_of(), "optimizer": type(optimizer).__name__}
            finding = Finding("watch.step-without-grads", values)
            self._report("watch.step-without-grads", str(id(optimizer)), finding)

    def _after_step(self, optimizer: torch.optim.Optimizer) -> None:
        sampled = self._before.get(id(optimizer))
        if sampled is None:
            return  # not a sampled step
        # the next backward must find this gradient cleared (or None)
        first = next(((name, p) for _, name, p, _, _ in sampled if p.requires_grad), None)
        if first is not None:
            self._watch_next_gradient(optimizer, *first)
        if not sampled:
            return
        step = self._step_of()
        moved: dict[int, list[float]] = {}  # group -> [weights with a gradient, moved]
        # a group moves when one of its sampled tensors moves: the others may have gradients too
        # small to show in their dtype (vanishing gradients, which grad-vanishing reports)
        moving: set[int] = set()
        ignored: set[int] = set()  # groups at lr 0 that moved: the step does not read their lr
        counts = _counts(optimizer, sampled)  # one read of every tensor's counts
        for (g, _, _, _, _), count in zip(sampled, counts, strict=True):
            if count is None:
                continue
            if len(count) == 1:  # a group at lr 0
                if count[0]:
                    ignored.add(g)
            elif count[0]:
                live, shifted = count
                total = moved.setdefault(g, [0.0, 0.0])
                total[0] += live
                total[1] += shifted
                if shifted >= _MOVED_AT_LEAST * live:
                    moving.add(g)
        self._lr_not_applied(optimizer, step, sorted(ignored))
        stuck = [g for g in moved if g not in moving]
        if not stuck:
            # groups that move, with bfloat16 tensors in them that do not (LayerNorm gains)
            taken = self._bfloat16.get(id(optimizer), [])
            rounded = bfloat16_rounded_away(optimizer, taken, step)
            if rounded is not None:
                self._report("watch.bfloat16-rounded", "", rounded)
            return
        groups = optimizer.param_groups
        lrs = "/".join(sorted({_fmt(float(groups[g]["lr"])) for g in stuck}))
        dtypes = sorted(
            {str(p.dtype).removeprefix("torch.") for g, _, p, _, _ in sampled if g in stuck}
        )
        share = sum(moved[g][1] for g in stuck) / sum(moved[g][0] for g in stuck)
        which = (
            {"en": "every parameter group", "zh": "所有参数组"}
            if len(stuck) == len(moved)
            else _groups(stuck, len(groups))
        )
        values = {
            "step": step,
            "optimizer": type(optimizer).__name__,
            "which": which,
            "share": f"{100 * share:.2g}",
            "lr": lrs,
            "dtype": ", ".join(dtypes),
        }
        self._report("watch.step-no-update", "", Finding("watch.step-no-update", values))

    def _lr_not_applied(
        self, optimizer: torch.optim.Optimizer, step: int, ignored: list[int]
    ) -> None:
        """A group whose lr does not show in its update: it moved at lr 0 (a custom optimizer
        that reads its own copy of the rate, which a scheduler or `group['lr'] = ...` never
        reaches)."""
        if ignored:
            name = type(optimizer).__name__
            which = _groups(ignored, len(optimizer.param_groups))
            values = {"step": step, "optimizer": name, "which": which}
            self._report(
                "watch.lr-ignored", str(id(optimizer)), Finding("watch.lr-ignored", values)
            )

    # stale gradients: one hook on one parameter, for the backward after a sampled step

    def _watch_next_gradient(
        self, optimizer: torch.optim.Optimizer, name: str, p: torch.Tensor
    ) -> None:
        """A hook on the parameter, which runs before each gradient is added to `.grad`, until
        this optimizer's next step: the first backward must find `.grad` None or zero (zero_grad
        ran), or a later clear must come before that step."""
        if not (p.is_leaf and p.requires_grad) or id(p) in self._probes:
            return
        first = [True]

        def hook(grad: torch.Tensor) -> None:
            self._check_stale(name, p, first)

        self._probes[id(p)] = (p.register_hook(hook), name, id(optimizer), p)

    def _check_stale(self, name: str, p: torch.Tensor, first: list[bool]) -> None:
        grad = p.grad
        if grad is not None and (grad.layout != torch.strided or grad.is_nested):
            first[0] = False  # a layout not read: never a finding
            self._uncleared.pop(id(p), None)
            return
        cleared = grad is None or not bool(grad.detach().any())
        if first[0]:
            first[0] = False
            if not cleared:
                self._uncleared[id(p)] = name
        elif cleared:
            self._uncleared.pop(id(p), None)

    def _settle_probes(self, optimizer: torch.optim.Optimizer) -> None:
        """This optimizer steps: a probed parameter of its own whose gradient was never cleared
        since its last sampled step is about to be used again: stale."""
        for key in [k for k, probe in self._probes.items() if probe[2] == id(optimizer)]:
            handle, name, _, p = self._probes.pop(key)
            handle.remove()
            if self._uncleared.pop(key, None) is None:
                continue
            grad = p.grad
            if grad is not None and bool(grad.detach().any()):
                values = {"param": name, "step": self._step_of()}
                finding = Finding("watch.stale-grad", values, location=name)
                self._report("watch.stale-grad", "", finding)

    def _drop_probes(self) -> None:
        for handle, _, _, _ in self._probes.values():
            handle.remove()
        self._probes.clear()
        self._uncleared.clear()


def _counts(
    optimizer: torch.optim.Optimizer,
    sampled: list[tuple[int, str, torch.Tensor, torch.Tensor, torch.Tensor]],
) -> list[list[int] | None]:
    """For each sampled tensor, what its step did, all read with one `tolist()` (one sync on a
    GPU rather than a few per tensor): one in a group at lr 0,
    [finite elements changed] (a warm-up from 0 moves nothing by design, and NaN * 0 is NaN);
    else [elements with a gradient, those of them that changed]. None for a group whose lr is
    no number."""
    sizes: list[int | None] = []
    reads: list[torch.Tensor] = []
    # Counted by torch.count_nonzero, and a gradient's non-zeros read by logical_and from the
    # gradient itself: on a small model each call into torch costs more than the elements it
    # reads, and a boolean tensor's sum() or a comparison with 0 costs about twice as much.
    for g, _, p, before, grad in sampled:
        # torch.ne and friends rather than != and &, which go through a Python wrapper each
        after = p.detach()
        changed = torch.ne(after, before)
        lr = optimizer.param_groups[g].get("lr", 1.0)
        if not isinstance(lr, (int, float, torch.Tensor)):
            sizes.append(None)
        elif float(lr) == 0:
            finite = torch.logical_and(before.isfinite(), after.isfinite())
            reads.append(torch.count_nonzero(torch.logical_and(changed, finite)))
            sizes.append(1)
        else:
            changed_live = torch.logical_and(changed, grad)  # NaN counts as a gradient, as != 0
            reads += [torch.count_nonzero(grad), torch.count_nonzero(changed_live)]
            sizes.append(2)
    if not reads:
        return [None] * len(sizes)
    try:
        values: list[int] = torch.stack(reads).tolist()
    except RuntimeError:  # parameters on several devices: a `.to()` each only then
        values = torch.stack([r.to(reads[0].device) for r in reads]).tolist()
    counts: list[list[int] | None] = []
    for size in sizes:
        if size is None:
            counts.append(None)
        else:
            counts.append(values[:size])
            values = values[size:]
    return counts


def _spread(items: list[Any], n: int) -> list[Any]:
    """n items spread evenly over the list, its first and last among them."""
    if len(items) <= n:
        return items
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def _groups(groups: list[int], count: int) -> dict[str, str]:
    which = ", ".join(map(str, groups))
    return {"en": f"group {which} of {count}", "zh": f"{count} 个参数组中的第 {which} 组"}
