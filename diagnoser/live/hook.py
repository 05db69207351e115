"""The exception hook: Python's traceback first, unchanged, then the diagnosis.

`install()` chains to the hooks that were there before (sys.excepthook and threading.excepthook),
so another tool's hook still runs and prints first; the exit status stays Python's. Nothing is
computed until an exception arrives, and the hook never raises: if explaining fails, one line
says so and the user's traceback is already on the screen.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any

ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], Any]

_ENV_DISABLE = "DIAGNOSER_DISABLE"


def disabled() -> bool:
    return os.environ.get(_ENV_DISABLE, "").strip() not in ("", "0")


def explain(exc: BaseException, *, lang: str | None = None, fmt: str = "text") -> None:
    """Write the diagnosis of `exc` (text to stderr, other formats to stdout); never raises.
    Nothing is written when no entry applies: the traceback alone says as much."""
    if not isinstance(exc, Exception):  # KeyboardInterrupt, SystemExit: nothing to explain
        return
    from ..speak.i18n import default_lang

    chosen = lang or default_lang()
    try:
        from .report import diagnose_exception, render

        live = diagnose_exception(exc, chosen, full=fmt in ("markdown", "prompt"))
        if not live.diagnosis.matches and fmt == "text":
            return
        stream = sys.stderr if fmt == "text" else sys.stdout
        colour = fmt == "text" and _colour(stream)
        from ..speak.wrap import terminal_width

        width = terminal_width(stream) if fmt == "text" else None
        stream.write("\n" + render(live, chosen, fmt, colour=colour, width=width))
        stream.flush()
    except BaseException as e:  # the one place that must swallow everything
        _say_failed(e, chosen)


def _colour(stream: Any) -> bool:
    try:
        return "NO_COLOR" not in os.environ and bool(stream.isatty())
    except Exception:
        return False


def _say_failed(e: BaseException, lang: str) -> None:
    from ..speak.i18n import t

    try:
        sys.stderr.write(t("hook_failed", lang).format(error=f"{type(e).__name__}: {e}") + "\n")
        sys.stderr.flush()
    except BaseException:
        pass  # stderr itself is gone: there is nobody left to tell


def _broken_hook(name: str, failure: BaseException) -> None:
    """What Python prints when an exception hook raises: the hook's own error, then (printed by
    the caller) the exception it was given."""
    import traceback

    try:
        sys.stderr.write(f"Error in {name}:\n" + "".join(traceback.format_exception(failure)))
        sys.stderr.write("\nOriginal exception was:\n")
        sys.stderr.flush()
    except BaseException:
        pass  # stderr itself is gone: there is nobody left to tell


def _excepthook(previous: ExceptHook, lang: str | None, fmt: str) -> ExceptHook:
    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        try:
            previous(exc_type, exc, tb)
        except BaseException as failure:  # a broken previous hook must cost the user nothing:
            _broken_hook("sys.excepthook", failure)  # its own error, as Python shows it
            sys.__excepthook__(exc_type, exc, tb)  # and the traceback it failed to print
        explain(exc, lang=lang, fmt=fmt)

    hook.diagnoser_previous = previous  # type: ignore[attr-defined]
    return hook


def _threading_hook(
    previous: Callable[[threading.ExceptHookArgs], Any], lang: str | None, fmt: str
) -> Callable[[threading.ExceptHookArgs], Any]:
    def hook(args: threading.ExceptHookArgs) -> None:
        try:
            previous(args)
        except BaseException as failure:
            _broken_hook("threading.excepthook", failure)
            threading.__excepthook__(args)
        if args.exc_value is not None:
            explain(args.exc_value, lang=lang, fmt=fmt)

    hook.diagnoser_previous = previous  # type: ignore[attr-defined]
    return hook


def installed() -> bool:
    return hasattr(sys.excepthook, "diagnoser_previous")


def install(*, lang: str | None = None, fmt: str = "text") -> ExceptHook | None:
    """Explain uncaught exceptions after their traceback. Returns the previous sys.excepthook
    (None when DIAGNOSER_DISABLE is set: nothing is installed). Installing twice is harmless."""
    if disabled():
        return None
    if installed():
        return sys.excepthook.diagnoser_previous  # type: ignore[attr-defined,no-any-return]
    previous = sys.excepthook
    sys.excepthook = _excepthook(previous, lang, fmt)
    threading.excepthook = _threading_hook(threading.excepthook, lang, fmt)
    # Inside IPython, sys.excepthook never sees a cell's error: IPython catches it itself and
    # offers set_custom_exc for this, which the extension uses.
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        from .ipython import load_ipython_extension

        load_ipython_extension(shell)
    return previous


def uninstall() -> None:
    """Put back the hooks install() replaced."""
    if installed():
        sys.excepthook = sys.excepthook.diagnoser_previous  # type: ignore[attr-defined]
    if hasattr(threading.excepthook, "diagnoser_previous"):
        threading.excepthook = threading.excepthook.diagnoser_previous
