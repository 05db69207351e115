"""torch-diagnoser: explains PyTorch errors and training symptoms from the text users paste.

The public API is imported lazily, so that `import diagnoser` costs nothing until it is used:

    from diagnoser import diagnose, parse
    diagnose(text, lang=None)  # -> Report, what `diagnoser --json` prints
    parse(text)                # -> list[ErrorReport], the errors found in the text

The engine lives in three layers, bottom to top: diagnoser.knowledge (the compiled knowledge
base), diagnoser.text (reading what users paste) and diagnoser.speak (answering them).
"""

from __future__ import annotations

from .knowledge import __version__ as __version__

# Public name -> the submodule that defines it, imported on first use: `import diagnoser` must
# not import torch, which the runtime helpers need. A new export is one line here (and one in the
# TYPE_CHECKING block below, for type checkers).
_EXPORTS = {
    "diagnose": "api",
    "parse": "api",
    "Report": "speak.report",
    "MatchReport": "speak.report",
    "ErrorReport": "speak.report",
    "Where": "speak.report",
    "preflight": "runtime.preflight",
    "watch": "runtime.watch",
    "trace": "runtime.trace",
    "TrainingFindingError": "runtime.findings",  # what watch(on_finding="raise") raises
    "set_seed": "runtime.helpers",
    "lr_find": "runtime.helpers",
    "overfit_one_batch": "runtime.helpers",
    "DiagnoserCallback": "runtime.lightning_callback",
    "DiagnoserTrainerCallback": "runtime.hf_callback",
    "install": "live.hook",
    "load_ipython_extension": "live.ipython",  # `%load_ext diagnoser`
    "unload_ipython_extension": "live.ipython",
}

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .api import diagnose as diagnose
    from .api import parse as parse
    from .live.hook import install as install
    from .live.ipython import load_ipython_extension as load_ipython_extension
    from .live.ipython import unload_ipython_extension as unload_ipython_extension
    from .runtime.findings import TrainingFindingError as TrainingFindingError
    from .runtime.helpers import lr_find as lr_find
    from .runtime.helpers import overfit_one_batch as overfit_one_batch
    from .runtime.helpers import set_seed as set_seed
    from .runtime.hf_callback import DiagnoserTrainerCallback as DiagnoserTrainerCallback
    from .runtime.lightning_callback import DiagnoserCallback as DiagnoserCallback
    from .runtime.preflight import preflight as preflight
    from .runtime.trace import trace as trace
    from .runtime.watch import watch as watch
    from .speak.report import ErrorReport as ErrorReport
    from .speak.report import MatchReport as MatchReport
    from .speak.report import Report as Report
    from .speak.report import Where as Where


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
