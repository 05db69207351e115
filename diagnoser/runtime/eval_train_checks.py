"""One batch through the model in eval mode and in train mode: outputs that differ by an order
of magnitude or more, or by their own size while a layer inside is an order of magnitude off
channel by channel, mean the layers that switch with model.eval() do not match training
(BatchNorm statistics of data on another scale: a model trained on normalised images fed raw
pixels, or on one recording per batch whose gains vary a hundredfold; a hand-written norm layer
whose running statistics never update; a custom layer whose eval branch is broken). The first
module whose outputs disagree is named.

Dropout alone cannot do this: it keeps each activation's expected value, and at p=0.5 the two
outputs differ by about their own size, not ten times it, in every channel alike. Before
BatchNorm has seen a batch its running statistics are the initial mean 0 and variance 1, and for
the first tens of steps they lag behind the weights in every network: the check waits until they
have settled.

preflight runs it on its first batch (and puts everything back with state.preserved); watch
on the first few eval batches after the statistics settled (EvalTrainProbe).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from .findings import Finding
from .mode_checks import mode_dependent
from .state import modes_preserved, unseen_by_hooks

ORDERS = 10.0  # eval and train outputs this many times their own size apart
OWN_SIZE = 1.0  # the model's outputs this far apart suffice when a module inside is ORDERS apart
_PROBES = 3  # eval batches compared (after the statistics settled) before the probe stops
_TINY = 1e-6  # outputs this small in both modes carry no scale to compare
_INITIAL_LEFT = 0.05  # share of the initial running statistics left when they count as settled


def ready(model: nn.Module) -> bool:
    """Whether the check can say something: a layer whose output depends on its mode other than
    Dropout, and every tracking norm layer's running statistics settled."""
    return bool(mode_dependent(model)) and settled(model)


def settled(model: nn.Module) -> bool:
    return all(
        _settled(m)
        for m in model.modules()
        if isinstance(m, nn.modules.batchnorm._NormBase) and m.track_running_stats
    )


def _settled(norm: nn.modules.batchnorm._NormBase) -> bool:
    """Whether a norm layer's running statistics describe the batches rather than their initial
    values (mean 0, variance 1): what remains of those after n updates at momentum m is
    (1 - m)^n. Early in training eval mode lags behind train mode in every network (a ResNet's
    eval loss is many times its train loss after 30 steps); that is not yet a fault. Statistics
    from a checkpoint that did not save the count (torchvision's older weights load with
    num_batches_tracked=0) count as settled when they are not the initial ones."""
    seen = int(norm.num_batches_tracked) if norm.num_batches_tracked is not None else 0
    if seen == 0:
        mean, var = norm.running_mean, norm.running_var
        if mean is None or var is None:
            return False
        return bool(mean.any()) or bool((var != 1).any())
    momentum = norm.momentum
    if momentum is None:  # a cumulative average: every batch counts alike
        return True
    return (1 - momentum) ** seen <= _INITIAL_LEFT


def _moments(value: Any) -> torch.Tensor | None:
    """Rows of (count, sum, sum of squares) of the first float tensor in a module's output,
    float64: the whole tensor, then each of its channels (dim 1) when it has dimensions past
    them (a feature map, a sequence), where a norm layer's statistics show channel by channel."""
    if isinstance(value, (tuple, list)):
        value = next((v for v in value if isinstance(v, torch.Tensor)), None)
    if isinstance(value, dict):
        value = next((v for v in value.values() if isinstance(v, torch.Tensor)), None)
    if not isinstance(value, torch.Tensor) or not value.is_floating_point():
        return None
    if value.layout != torch.strided or value.is_nested or value.numel() == 0:
        return None
    x = value.detach().double()
    count = torch.full((), float(x.numel()), dtype=x.dtype, device=x.device)
    whole = torch.stack([count, x.sum(), x.pow(2).sum()])[None]
    if x.dim() < 3:
        return whole
    channels = x.transpose(0, 1).reshape(x.shape[1], -1)
    counts = torch.full((x.shape[1],), float(channels.shape[1]), dtype=x.dtype, device=x.device)
    per_channel = torch.stack([counts, channels.sum(1), channels.pow(2).sum(1)], 1)
    return torch.cat([whole, per_channel])


def _trace(model: nn.Module, forward: Callable[[], Any]) -> dict[tuple[str, int], torch.Tensor]:
    names = {id(m): n for n, m in model.named_modules()}
    seen: dict[tuple[str, int], torch.Tensor] = {}
    calls: dict[str, int] = {}

    def hook(module: nn.Module, args: Any, output: Any) -> None:
        name = names.get(id(module), "?")
        moments = _moments(output)
        n = calls.get(name, 0)
        calls[name] = n + 1
        if moments is not None:
            seen[(name, n)] = moments

    handles = [m.register_forward_hook(hook) for m in model.modules()]
    try:
        with torch.no_grad():
            forward()
    finally:
        for h in handles:
            h.remove()
    return seen


def _stats(moments: list[float]) -> tuple[float, float, float]:
    """(mean, spread, root mean square) from (count, sum, sum of squares)."""
    count, total, squares = moments
    mean = total / count
    rms = math.sqrt(max(squares / count, 0.0))
    return mean, math.sqrt(max(rms * rms - mean * mean, 0.0)), rms


def _apart(eval_moments: list[float], train_moments: list[float]) -> float:
    """How far apart two outputs are, in units of the smaller one's size (root mean square):
    the distance between their means and spreads, a lower bound of RMS(eval - train)."""
    (m_e, s_e, r_e), (m_t, s_t, r_t) = _stats(eval_moments), _stats(train_moments)
    if not all(map(math.isfinite, (m_e, s_e, m_t, s_t))) or max(r_e, r_t) < _TINY:
        return 0.0
    distance = math.hypot(m_e - m_t, s_e - s_t)
    smaller = min(r_e, r_t)
    return math.inf if smaller == 0 else distance / smaller


def _spread_ratio(eval_moments: list[float], train_moments: list[float]) -> float:
    """How many times one output varies more than the other: a channel that eval mode flattens
    to a constant (its bias) keeps a mean of the train output's size, and only its spread
    shows it."""
    (_, s_e, _), (_, s_t, _) = _stats(eval_moments), _stats(train_moments)
    if not (math.isfinite(s_e) and math.isfinite(s_t)) or max(s_e, s_t) < _TINY:
        return 0.0
    smaller = min(s_e, s_t)
    return math.inf if smaller == 0 else max(s_e, s_t) / smaller


def _gap(eval_rows: list[list[float]], train_rows: list[list[float]]) -> float:
    """How far apart a module's outputs in the two modes are: over the whole tensor, or in the
    median channel when that is further. A norm layer whose running statistics are 100 times
    the batch's flattens every channel to its bias, yet the whole tensor's spread across the
    biases hides it."""
    whole = _apart(eval_rows[0], train_rows[0])
    if len(eval_rows) < 2 or len(eval_rows) != len(train_rows):
        return whole
    pairs = zip(eval_rows[1:], train_rows[1:], strict=True)
    channels = sorted(max(_apart(e, t), _spread_ratio(e, t)) for e, t in pairs)
    return max(whole, channels[len(channels) // 2])


def eval_train_apart(
    model: nn.Module, forward: Callable[[], Any], least: float = OWN_SIZE
) -> tuple[str, float] | None:
    """Run `forward` with the model in eval mode, then in train mode, without gradients. When the
    model's outputs are ORDERS times their size apart, or as far apart as they are large
    (OWN_SIZE) when a module inside is ORDERS apart: the first module (in the order they ran)
    whose outputs are, and how far apart the model's outputs are. The caller restores state.

    The second case is a network whose eval mode flattens its features (trained on batches of
    one recording each, normalised by its own statistics, while the running ones average
    recordings a hundred times louder or quieter): every channel of its BatchNorm is orders of
    magnitude off, and the output collapses to what the biases after it give, which is of the
    output's own size. Its predictions are lost, yet the output alone is only a few times
    apart. `least=ORDERS` asks for the first case only."""
    with unseen_by_hooks(model):
        model.eval()
        evaluated = _trace(model, forward)
        model.train()
        trained = _trace(model, forward)
    common = [key for key in evaluated if key in trained]
    if not common:
        return None
    pairs = [(evaluated[k], trained[k]) for k in common]
    # one transfer per module: a model over several devices has its outputs on each
    read = torch.cat([torch.cat([e, t]).reshape(-1).to("cpu") for e, t in pairs]).tolist()
    gaps, at = {}, 0
    for key, (e, t) in zip(common, pairs, strict=True):
        values = read[at : at + 3 * (len(e) + len(t))]
        at += len(values)
        rows = [values[i : i + 3] for i in range(0, len(values), 3)]
        gaps[key] = _gap(rows[: len(e)], rows[len(e) :])
    root = gaps.get(("", 0))
    if root is None or root < least:
        return None
    first = next((key for key in common if gaps[key] >= ORDERS), None)
    if first is None:
        return None
    return first[0], root


def eval_train_finding(model: nn.Module, name: str, ratio: float, step: int | None) -> Finding:
    """preflight's finding (step None) or watch's at that step."""
    kind = type(dict(model.named_modules()).get(name, model)).__name__
    values: dict[str, Any] = {
        "module": f"{name} ({kind})" if name else kind,
        "ratio": f"{ratio:.1f}" if ratio < 10 else f"{ratio:.0f}" if math.isfinite(ratio) else "∞",
    }
    if step is None:
        return Finding("model.eval-train-differ", values, location=name or None)
    values["step"] = step
    return Finding("watch.eval-train-differ", values, location=name or None)


class EvalTrainProbe:
    """watch's: the comparison on the first _PROBES sampled eval batches after the running
    statistics settled, then never again (two extra forwards without gradients each). Several,
    since one batch can be the one the statistics fit: a model trained on recordings one at a
    time is off on most of them, not on all. Modes, buffers, requires_grad and the RNGs are put
    back before the user's own eval forward runs."""

    def __init__(
        self,
        model: nn.Module,
        report: Callable[[str, str, Finding], None],
        step_of: Callable[[], int],
        every: int,
    ) -> None:
        self._model, self._report, self._step_of, self._every = model, report, step_of, every
        self._handle: Any = None
        self._evals = 0
        self._probes = 0  # eval batches compared
        self._train_batch = 0  # the largest training batch's size seen
        self._busy = False  # inside its own forwards

    def attach(self) -> None:
        if _distributed():
            # SyncBatchNorm in train mode and FSDP's forward are collectives: an extra forward
            # on the ranks that evaluate (often rank 0 alone) would wait for the others forever
            return
        # Only models whose mode-dependent layers keep running statistics of their own (what goes
        # stale): a transformer's layers read `self.training` for dropout and checkpointing only.
        layers = mode_dependent(self._model)
        if self._handle is None and any(
            next(m.buffers(False), None) is not None for _, m in layers
        ):
            self._handle = self._model.register_forward_pre_hook(self._pre, with_kwargs=True)

    def detach(self) -> None:
        if self._handle is not None:
            self._handle.remove()
            self._handle = None

    def _pre(self, module: nn.Module, args: Any, kwargs: Any) -> None:
        if self._busy:
            return
        if module.training:
            size = _batch_size(args)
            if size > self._train_batch:
                self._train_batch = size
            return
        if not _plain((args, kwargs)):
            return  # an argument with state of its own (a generation cache) must see one forward
        # Train mode normalises with the batch it is given: on a batch far smaller than the
        # training ones (one image through a ResNet trained on 16) it is train mode that is off,
        # not eval mode, and nothing is learnt from comparing them.
        if 2 * _batch_size(args) < self._train_batch:
            return
        self._evals += 1
        if self._evals > 3 and self._evals % self._every:
            return
        found = None
        self._busy = True
        try:
            if not settled(module):
                return
            self._probes += 1
            with modes_preserved(module):
                # With no training batch seen (a watch over evaluation alone), the batch's size
                # says nothing of the training's, and train mode on a small batch is off by
                # itself: only outputs an order of magnitude apart count then.
                least = OWN_SIZE if self._train_batch else ORDERS
                found = eval_train_apart(module, lambda: module(*args, **kwargs), least)
        except Exception:  # a check never stops the user's evaluation (nor runs again)
            self._probes = _PROBES
        finally:
            self._busy = False
        if found is not None or self._probes >= _PROBES:
            self.detach()
        if found is not None:
            finding = eval_train_finding(module, *found, step=self._step_of())
            self._report("watch.eval-train-differ", "", finding)


def _batch_size(args: Any) -> int:
    """The first dimension of a forward's first tensor argument (0 when it has none)."""
    first = args[0] if args else None
    if isinstance(first, (tuple, list)) and first:
        first = first[0]
    if isinstance(first, torch.Tensor) and first.dim() > 0:
        return int(first.shape[0])
    return 0


def _plain(value: Any) -> bool:
    """Whether a forward's arguments are tensors and plain values, in tuples, lists and dicts:
    running the forward on them again changes nothing outside the model."""
    if isinstance(value, (torch.Tensor, int, float, bool, str, type(None))):
        return True
    if isinstance(value, (tuple, list)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(v) for v in value.values())
    return False


def _distributed() -> bool:
    dist = torch.distributed
    return bool(dist.is_available() and dist.is_initialized() and dist.get_world_size() > 1)
