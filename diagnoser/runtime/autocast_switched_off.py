"""An autocast that torch itself switched off: `torch.autocast(device_type="cuda", ...)` on a
machine without CUDA, or a dtype the device's autocast does not support. torch's
`autocast.__init__` then warns ("CUDA is not available or torch_xla is imported. Disabling
autocast.") and sets `self._enabled = False`, and the bfloat16/float16 run the user configured
computes in float32 with every number plausible. No layer hook can see it: autocast is then off
for every device type, exactly as in a run without AMP.

While a watch is attached, `autocast.__init__` is wrapped: after torch's own runs, an autocast
that was asked for (enabled) in a low-precision dtype and is disabled is reported to every
attached watch. A deliberate `enabled=False` (`enabled=use_amp`) and a float32 dtype (the user
asked for full precision) are not. torch.cuda.amp.autocast and torch.cpu.amp.autocast call the
base `__init__`, so they are seen too; torch.compile builds its autocast from the class without
calling `__init__`, so compiled code is untouched.

The wrapper adds a frame between torch's `warnings.warn(..., stacklevel=2)` and the user's line:
while it is installed, the module's `warnings` is a stand-in that adds that frame back, so the
warning still names the user's line (and is shown once per line of theirs, as without watch).
The originals are restored exactly when the last watch detaches.
"""

from __future__ import annotations

import functools
import inspect
import sys
import threading
import warnings
from collections.abc import Callable
from typing import Any

import torch
from torch import nn
from torch.amp import autocast_mode

from .findings import Finding

Report = Callable[[str, str, Finding], None]

_lock = threading.Lock()
_listeners: dict[Report, tuple[nn.Module, Callable[[], int]]] = {}
_ORIGINAL = autocast_mode.autocast.__dict__["__init__"]  # torch's
_ENABLED_AT = list(inspect.signature(_ORIGINAL).parameters).index("enabled") - 1  # in *args
_in_chain = False  # _init is called by autocast.__init__


def follow(report: Report, model: nn.Module, step_of: Callable[[], int]) -> None:
    """A watch attaches: its `report` gets the finding, at the step `step_of` says. The first
    one installs the wrapper."""
    global _in_chain
    with _lock:
        if not _in_chain:
            autocast_mode.autocast.__init__ = _init  # type: ignore[method-assign]
            autocast_mode.__dict__["warnings"] = _WARNINGS
            _in_chain = True
        _listeners[report] = (model, step_of)


def unfollow(report: Report) -> None:
    """A watch detaches; the last one puts torch's `__init__` and `warnings` back, unless code
    other than ours wrapped `__init__` since: ours then stays in its chain, passing through."""
    global _in_chain
    with _lock:
        if _listeners.pop(report, None) is None or _listeners:
            return
        if autocast_mode.autocast.__dict__.get("__init__") is _init:
            autocast_mode.autocast.__init__ = _ORIGINAL  # type: ignore[method-assign]
            autocast_mode.__dict__["warnings"] = warnings
            _in_chain = False


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    _ORIGINAL(self, *args, **kwargs)
    if not _listeners:
        return
    try:
        asked = kwargs.get("enabled", args[_ENABLED_AT] if len(args) > _ENABLED_AT else True)
        found = _switched_off(self) if asked and not self._enabled else []
    except Exception:  # a check never stops the user's training
        return
    for report, finding in found:  # outside: on_finding="raise" is meant to stop the run
        report("watch.autocast-disabled", "", finding)


functools.update_wrapper(_init, _ORIGINAL)  # its signature: torch.compile binds arguments by it


def _switched_off(ctx: Any) -> list[tuple[Report, Finding]]:
    """Each attached watch's finding about an autocast torch disabled, if the user asked it for a
    low-precision dtype (asked for float32, the run computes in what the user wanted)."""
    dtype = ctx.fast_dtype
    if not (isinstance(dtype, torch.dtype) and dtype.is_floating_point and dtype.itemsize < 4):
        return []
    device_type = str(ctx.device)
    if device_type == "cuda":  # the one reason torch disables CUDA autocast
        why = {"en": "CUDA is not available", "zh": "CUDA 不可用"}
    else:
        why = {
            "en": f"{device_type} autocast does not support {_name(dtype)}",
            "zh": f"{device_type} 上的 autocast 不支持 {_name(dtype)}",
        }
    found = []
    for report, (model, step_of) in list(_listeners.items()):
        param = next((p for p in model.parameters() if p.is_floating_point()), None)
        values = {
            "step": step_of(),
            "autocast": f'torch.autocast(device_type="{device_type}", dtype={_name(dtype)})',
            "why": why,
            "device": str(param.device) if param is not None else "cpu",
            "param_dtype": _name(param.dtype) if param is not None else "float32",
            "dtype": _name(dtype),
        }
        found.append((report, Finding("watch.autocast-disabled", values)))
    return found


def _name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


class _WarningsOneFrameUp:
    """torch.amp.autocast_mode's `warnings` while `_init` is installed: `warn` is the real one,
    counting one frame more for its own and one more when `_init` called torch's `__init__`."""

    def __getattr__(self, name: str) -> Any:
        return getattr(warnings, name)

    def warn(
        self, message: Any, category: Any = None, stacklevel: int = 1, *args: Any, **kwargs: Any
    ) -> None:
        try:  # the frame torch means: its `stacklevel` counted from its own caller, this one
            if sys._getframe(stacklevel).f_code is _init.__code__:
                stacklevel += 1
        except ValueError:  # fewer frames than that: the warning names the outermost one
            pass
        warnings.warn(message, category, stacklevel + 1, *args, **kwargs)


_WARNINGS = _WarningsOneFrameUp()
