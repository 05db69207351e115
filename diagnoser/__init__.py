"""torch-diagnoser: explains PyTorch errors and training symptoms from the text users paste."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

# Public names, imported on first use: `import diagnoser` must not import torch.
_LAZY = {
    "preflight": "diagnoser.runtime.preflight",
    "watch": "diagnoser.runtime.watch",
    "set_seed": "diagnoser.runtime.helpers",
    "lr_find": "diagnoser.runtime.helpers",
    "overfit_one_batch": "diagnoser.runtime.helpers",
    "DiagnoserCallback": "diagnoser.runtime.lightning_callback",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'diagnoser' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
