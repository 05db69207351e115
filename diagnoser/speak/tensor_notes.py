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
