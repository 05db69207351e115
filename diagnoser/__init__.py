"""torch-diagnoser: explains PyTorch errors and training symptoms from the text users paste."""

from __future__ import annotations

__version__ = "0.1.0"

# Public name -> the submodule that defines it, imported on first use: `import diagnoser` must
# not import torch, which these need.
_EXPORTS = {
    "preflight": "runtime.preflight",
    "watch": "runtime.watch",
    "set_seed": "runtime.helpers",
    "lr_find": "runtime.helpers",
    "overfit_one_batch": "runtime.helpers",
    "DiagnoserCallback": "runtime.lightning_callback",
    "install": "live.hook",
    "load_ipython_extension": "live.ipython",  # `%load_ext diagnoser`
    "unload_ipython_extension": "live.ipython",
}

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .live.hook import install as install
    from .live.ipython import load_ipython_extension as load_ipython_extension
    from .live.ipython import unload_ipython_extension as unload_ipython_extension
    from .runtime.helpers import lr_find as lr_find
    from .runtime.helpers import overfit_one_batch as overfit_one_batch
    from .runtime.helpers import set_seed as set_seed
    from .runtime.lightning_callback import DiagnoserCallback as DiagnoserCallback
    from .runtime.preflight import preflight as preflight
    from .runtime.watch import watch as watch


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
