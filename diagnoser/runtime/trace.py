"""trace(): one forward of the user's model, a row per layer: what it output and its statistics.

The founding guides' tracers (000 技巧5, 001 §B.1-B.2, 003 §2.2) print shapes from forward hooks
and activation statistics one layer at a time. This is the same look, in one aligned table, also
returned as data. The forward must not change the run it looks at: it runs under no_grad, in
the mode the model is in (a model in train mode is traced as it trains: dropout on, BatchNorm
on batch statistics), and the random state and every buffer (BatchNorm's running statistics)
are put back afterwards; the hooks are removed whatever happens.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from ..speak.optional import requires

with requires("torch", extra="torch", feature="diagnoser.trace"):
    import torch
from torch import nn

from ..speak.i18n import default_lang


@dataclass(frozen=True)
class LayerStats:
    """Statistics of one output tensor, over its finite elements (NaN/Inf are counted apart)."""

    mean: float
    std: float
    min: float
    max: float
    zeros: float  # fraction of elements exactly zero
    nonfinite: int  # NaN and Inf elements


@dataclass(frozen=True)
class LayerRow:
    name: str  # "transformer.h.0.attn.c_attn"; "(output)" for the model's output
    kind: str  # the module's class name
    shapes: tuple[tuple[int, ...], ...]  # every tensor the layer returned
    dtype: str
    device: str
    stats: LayerStats | None  # of the first floating-point output; None when it has none
    params: int  # parameters this layer owns (a tied one is counted where it is first seen)
    tied_to: str | None = None  # the layer whose parameter this one shares (weight tying)


@dataclass(frozen=True)
class Trace:
    rows: tuple[LayerRow, ...]
    total_params: int
    trainable_params: int

    def first_nonfinite(self) -> LayerRow | None:
        """The first layer, in execution order, whose output holds a NaN or an Inf."""
        return next((r for r in self.rows if r.stats and r.stats.nonfinite), None)

    def table(self, lang: str | None = None) -> str:
        return _table(self, lang or default_lang())

    def __str__(self) -> str:
        return self.table()


def trace(
    model: nn.Module,
    batch: Any,
    *,
    file: TextIO | None = sys.stdout,
    lang: str | None = None,
) -> Trace:
    """Run `model` once on `batch` and print a table, a row per module that runs, in the
    order they return (a block after its layers; not a Sequential, whose output is its last
    layer's), and one for the model's output: output shapes, dtype, device, mean, std, min,
    max, fraction of zeros, NaN/Inf count, parameters. A dict batch is passed as keyword
    arguments (Hugging Face models), a tuple or list as positional arguments, anything else as
    the one argument.
    Returns the table as data (`Trace.rows`); `file=None` prints nothing. The model's mode,
    parameters, buffers and the random state are what they were before."""
    recorder = Recorder(model)
    handles = []
    for module in model.modules():
        # every module that is called, as the guide's ActivationLogger: a block's own forward
        # (nanoGPT's x + attn(ln(x))) makes values no layer inside it outputs, and an activation
        # that explodes in the residual stream shows only there. A Sequential's output is its
        # last layer's, a row already.
        if module is model or not isinstance(module, nn.Sequential):
            handles.append(module.register_forward_hook(recorder.hook))
    saved = _Saved(model)
    try:
        with torch.no_grad():
            if isinstance(batch, dict):
                model(**batch)
            elif isinstance(batch, (tuple, list)):
                model(*batch)
            else:
                model(batch)
    finally:
        for h in handles:
            h.remove()
        saved.restore()
    result, _ = recorder.take()
    if file is not None:
        print(result.table(lang), file=file, flush=True)
    return result


class _Saved:
    """The random state and the buffers a forward can change, to put back after it."""

    def __init__(self, model: nn.Module) -> None:
        self.cpu = torch.random.get_rng_state()
        self.cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_initialized() else None
        self.buffers = [(b, b.detach().clone()) for b in model.buffers()]

    def restore(self) -> None:
        torch.random.set_rng_state(self.cpu)
        if self.cuda is not None:
            torch.cuda.set_rng_state_all(self.cuda)
        with torch.no_grad():
            for b, value in self.buffers:
                b.copy_(value)


class Recorder:
    """A row per layer output it is shown, for trace() and for watch(stats=True) at its sampled
    steps. `samples` keeps up to 4096 values of each output (for TensorBoard's histograms)."""

    def __init__(self, model: nn.Module, samples: bool = False) -> None:
        self.model = model
        self.rows: list[LayerRow] = []
        self.samples: list[torch.Tensor | None] = []
        self._keep = samples
        self._names = {id(m): n for n, m in model.named_modules()}
        self._owner: dict[int, str] = {}  # a parameter's first module (weight tying)
        for name, module in model.named_modules():
            for p in module.parameters(recurse=False):
                self._owner.setdefault(id(p), name)

    def hook(self, module: nn.Module, args: Any, output: Any) -> None:
        tensors = _tensors(output)
        first = next((t for t in tensors if t.is_floating_point() or t.is_complex()), None)
        main = first if first is not None else (tensors[0] if tensors else None)
        own = list(module.parameters(recurse=False))
        mine = self._names.get(id(module), "")
        owners = [self._owner.get(id(p), mine) for p in own]
        self.rows.append(
            LayerRow(
                name="(output)" if module is self.model else mine,
                kind=type(module).__name__,
                shapes=tuple(tuple(t.shape) for t in tensors),
                dtype=str(main.dtype).removeprefix("torch.") if main is not None else "",
                device=str(main.device) if main is not None else "",
                stats=_stats(first) if first is not None else None,
                params=sum(p.numel() for p, o in zip(own, owners, strict=True) if o == mine),
                tied_to=next((o for o in owners if o != mine), None),
            )
        )
        if self._keep:
            self.samples.append(_sample(first) if first is not None else None)

    def take(self) -> tuple[Trace, list[torch.Tensor | None]]:
        """The rows so far as a Trace, and their samples; the recorder starts again empty."""
        unique = {id(p): p for p in self.model.parameters()}.values()
        result = Trace(
            tuple(self.rows),
            sum(p.numel() for p in unique),
            sum(p.numel() for p in unique if p.requires_grad),
        )
        samples = self.samples
        self.rows, self.samples = [], []
        return result, samples


def _sample(t: torch.Tensor, size: int = 4096) -> torch.Tensor | None:
    try:
        x = t.detach().flatten()
        if x.is_complex():
            x = x.abs()
        step = max(1, x.numel() // size)
        return x[::step][:size].float().cpu()
    except (RuntimeError, NotImplementedError, TypeError):
        return None


def _stats(t: torch.Tensor) -> LayerStats | None:
    try:
        x = t.detach()
        if x.is_complex():
            x = x.abs()
        x = x.float().flatten()
        finite = torch.isfinite(x)
        values = x[finite]
        nonfinite = int(x.numel() - values.numel())
        if values.numel() == 0:
            nan = math.nan
            return LayerStats(nan, nan, nan, nan, 0.0, nonfinite)
        std = float(values.std()) if values.numel() > 1 else 0.0
        return LayerStats(
            mean=float(values.mean()),
            std=std,
            min=float(values.min()),
            max=float(values.max()),
            zeros=float((x == 0).sum()) / x.numel(),
            nonfinite=nonfinite,
        )
    except (RuntimeError, NotImplementedError, TypeError):
        return None  # a layout with no such reductions (sparse, nested): shown without stats


def _tensors(value: Any) -> list[torch.Tensor]:
    """The tensors in a layer's output: a tensor, tuples and lists (nanoGPT's (logits, loss)),
    dicts (Hugging Face's ModelOutput is one), in order."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _tensors(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _tensors(v)]
    return []


_HEAD = {
    "en": ("layer", "type", "output", "dtype", "device", "mean", "std", "min", "max", "zeros"),
    "zh": (
        "层",
        "类型",
        "输出形状",
        "dtype",
        "设备",
        "均值",
        "标准差",
        "最小值",
        "最大值",
        "零占比",
    ),
}
_TAIL = {"en": ("NaN/Inf", "params"), "zh": ("NaN/Inf", "参数量")}
_TIED = {"en": "tied: {}", "zh": "与 {} 共享"}
_FIRST_BAD = {"en": "← first NaN/Inf", "zh": "← 首个 NaN/Inf"}
_TOTAL = {
    "en": "{n} layers traced; parameters: {total:,} ({trainable:,} trainable)",
    "zh": "共 {n} 层；参数量 {total:,}（可训练 {trainable:,}）",
}


def _table(t: Trace, lang: str) -> str:
    lang = lang if lang in _HEAD else "en"
    bad = t.first_nonfinite()
    lines = [[*_HEAD[lang], *_TAIL[lang], ""]]
    for r in t.rows:
        s = r.stats
        numbers = (
            [
                _num(s.mean),
                _num(s.std),
                _num(s.min),
                _num(s.max),
                f"{s.zeros:.0%}",
                str(s.nonfinite),
            ]
            if s
            else ["-"] * 6
        )
        params = _TIED[lang].format(r.tied_to) if r.tied_to and not r.params else f"{r.params:,}"
        shapes = ", ".join("×".join(map(str, shape)) or "scalar" for shape in r.shapes) or "-"
        mark = _FIRST_BAD[lang] if r is bad else ""
        lines.append([r.name, r.kind, shapes, r.dtype, r.device, *numbers, params, mark])
    widths = [max(_width(row[i]) for row in lines) for i in range(len(lines[0]))]
    out = []
    for row in lines:
        cells = [c + " " * (w - _width(c)) for c, w in zip(row, widths, strict=True)]
        out.append("  ".join(cells).rstrip())
    total = _TOTAL[lang].format(n=len(t.rows), total=t.total_params, trainable=t.trainable_params)
    return "\n".join([*out, total])


def _num(v: float) -> str:
    return f"{v:.3g}" if math.isfinite(v) else str(v)


def _width(text: str) -> int:
    """Columns on a terminal: a CJK character takes two."""
    return sum(2 if ord(c) >= 0x2E80 else 1 for c in text)
