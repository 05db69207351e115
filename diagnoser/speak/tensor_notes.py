"""Say what the message does not: which of the user's tensors is on which device, which one is
float64, which operand does not fit which layer. Built from the facts of the failing frames
(diagnoser/live); each note is given only when the facts show it, never guessed."""

from __future__ import annotations

from collections.abc import Sequence

from ..text.facts import Facts, ModuleFact, TensorFact
from ..text.match import Match

_MAX_NAMES = 4
_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _names(names: Sequence[str], lang: str) -> str:
    shown = [f"`{n}`" for n in names[:_MAX_NAMES]]
    if len(names) > _MAX_NAMES:
        shown.append("…")
    return ("、" if lang == "zh" else ", ").join(shown)


def _visible(facts: Facts) -> list[TensorFact]:
    """The tensors under the user's own names; torch's internals only when there are none."""
    return [t for t in facts.tensors if not t.internal] or list(facts.tensors)


def _device_note(facts: Facts, lang: str) -> str | None:
    by_device: dict[str, list[str]] = {}
    for t in _visible(facts):
        if t.kind == "tensor":
            by_device.setdefault(t.device, []).append(t.name)
    for m in facts.modules:
        if m.device:
            by_device.setdefault(m.device, []).append(m.name)
    if len(by_device) < 2:
        return None
    if lang == "zh":
        parts = [f"{dev} 上有 {_names(names, lang)}" for dev, names in by_device.items()]
        return "你的 tensor 和模型不在同一个设备上：" + "；".join(parts) + "。"
    parts = [f"on {dev}: {_names(names, lang)}" for dev, names in by_device.items()]
    return "Your tensors and modules are on different devices: " + "; ".join(parts) + "."


def _dtype_note(facts: Facts, lang: str) -> str | None:
    by_dtype: dict[str, list[str]] = {}
    for t in _visible(facts):
        by_dtype.setdefault(t.dtype, []).append(t.name)
    for m in facts.modules:
        if m.dtype:
            by_dtype.setdefault(m.dtype, []).append(m.name)
    floats = [d for d in by_dtype if d in _FLOATS]
    if len(by_dtype) < 2:
        return None
    if "float64" in floats and len(floats) > 1:
        others = [d for d in floats if d != "float64"]
        other_names = [n for d in others for n in by_dtype[d]]
        if lang == "zh":
            return (
                f"{_names(by_dtype['float64'], lang)} 是 float64，"
                f"而 {_names(other_names, lang)} 是 {'/'.join(others)}。"
                "float64 通常来自 NumPy（`torch.from_numpy`、`np.float64` 的数组）："
                "在喂给模型之前 `.float()` 一下。"
            )
        doubles = by_dtype["float64"]
        return (
            f"{_names(doubles, lang)} {'is' if len(doubles) == 1 else 'are'} float64, while "
            f"{_names(other_names, lang)} {'is' if len(other_names) == 1 else 'are'} "
            f"{'/'.join(others)}. float64 usually "
            "comes from NumPy (`torch.from_numpy`, an `np.float64` array): call `.float()` "
            "before the model."
        )
    parts = [f"{d}: {_names(names, lang)}" for d, names in by_dtype.items()]
    if lang == "zh":
        return "失败的这一步里各个 tensor 的 dtype：" + "；".join(parts) + "。"
    return "The dtypes in the failing step: " + "; ".join(parts) + "."


def _mismatch(module: ModuleFact, tensor: TensorFact) -> int | None:
    """The size the tensor has where the module wants module.in_size, when they differ."""
    if module.in_size is None or module.in_dim is None or len(tensor.shape) < -module.in_dim:
        return None
    have = tensor.shape[module.in_dim]
    return have if have != module.in_size else None


class Correction(str):
    """A note that contradicts the explanation's advice: said before it (render.py)."""


def _reduced_from(t: TensorFact, want: int, facts: Facts) -> tuple[TensorFact, int] | None:
    """Another tensor in sight that is `t` with one more dimension, of the size the layer wants:
    `t` is most likely it reduced (mean, sum, max, indexing) over that dimension."""
    for other in _visible(facts):
        if other is t or len(other.shape) != len(t.shape) + 1:
            continue
        for d in range(1, len(other.shape) - 1):  # not the batch, and not already the last
            if other.shape[d] == want and other.shape[:d] + other.shape[d + 1 :] == t.shape:
                return other, d
    return None


def _reduced_note(t: TensorFact, m: ModuleFact, facts: Facts, lang: str) -> Correction | None:
    if m.in_dim != -1 or m.in_size is None:
        return None
    found = _reduced_from(t, m.in_size, facts)
    if found is None:
        return None
    source, d = found
    keep = [i for i in range(1, len(source.shape)) if i != d]
    dims = ", ".join(map(str, keep))
    example = f"`{source.name}.mean(dim={keep[0]})`" if len(keep) == 1 else ""
    was, now = f"`{source.name}` {tuple(source.shape)}", f"`{t.name}` {tuple(t.shape)}"
    layer = f"`{m.name}` = {m.summary}"
    if lang == "zh":
        instead = f"（{example}）" if example else ""
        return Correction(
            f"{now} 就是 {was} 去掉了第 {d} 维，而这一维的大小 {m.in_size} 正是 {layer} "
            f"要的特征数：多半是 mean / sum / max 或者索引取错了维度。改成在第 {dims} 维上做"
            f"{instead}，不要去改这一层的 in_features，否则模型会在错误的维度上训练。"
        )
    return Correction(
        f"`{t.name}` {tuple(t.shape)} is `{source.name}` {tuple(source.shape)} without its "
        f"dimension {d}, whose size {m.in_size} is just what `{m.name}` = {m.summary} expects: "
        f"the mean, sum, max or index most likely took the wrong dimension. Reduce over dimension "
        f"{dims} instead{(' (' + example + ')') if example else ''} rather than changing the "
        "layer's in_features, which would train on the wrong axis."
    )


def _shape_note(facts: Facts, lang: str) -> str | None:
    modules = {m.name: m for m in facts.modules}
    tensors = {t.name: t for t in facts.tensors}
    for module_name, tensor_name in facts.calls:
        m, t = modules.get(module_name), tensors.get(tensor_name)
        if m is None or t is None:
            continue
        have = _mismatch(m, t)
        if have is None:
            continue
        reduced = _reduced_note(t, m, facts, lang)
        if reduced is not None:
            return reduced
        what = {"en": "features (last dimension)", "zh": "个特征（最后一维）"}
        if m.in_dim != -1:
            what = {"en": "channels", "zh": "个通道"}
        shape = tuple(t.shape)
        if lang == "zh":
            return (
                f"`{t.name}` 的形状是 {shape}，有 {have} {what['zh']}，但 `{m.name}` = {m.summary} "
                f"要的是 {m.in_size}。"
            )
        return (
            f"`{t.name}` has shape {shape}: {have} {what['en']}, but `{m.name}` = {m.summary} "
            f"expects {m.in_size}."
        )
    shown = [t for t in facts.tensors if t.name in facts.in_line]
    layers = [m for m in facts.modules if m.name in facts.in_line and m.in_size is not None]
    if not shown:
        return None
    items = [f"`{t.name}` {t.short}" for t in shown[:_MAX_NAMES]]
    items += [f"`{m.name}` = {m.summary}" for m in layers[:_MAX_NAMES]]
    if lang == "zh":
        return "出错这一行里的 tensor 和层：" + "；".join(items) + "。"
    return "In the failing line: " + "; ".join(items) + "."


def tensor_notes(match: Match, facts: Facts, lang: str) -> list[str]:
    """The notes this entry's family calls for, from the facts of its error."""
    if not facts:
        return []
    group = match.entry.group
    notes: list[str | None] = []
    if group == "dtypes-and-devices":
        device = _device_note(facts, lang)
        notes.append(device)
        if device is None or "dtype" in match.entry.id:
            notes.append(_dtype_note(facts, lang))
    elif group == "shapes":
        notes.append(_shape_note(facts, lang))
    return [n for n in notes if n]
