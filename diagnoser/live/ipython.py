"""The IPython/Jupyter extension: `%load_ext diagnoser`.

IPython catches a cell's exception itself, so sys.excepthook never sees it; `set_custom_exc` is
IPython's own way in and needs no front-end extension (Jupyter, Colab, VS Code, terminal). The
handler shows IPython's traceback exactly as it would, then publishes the diagnosis as a display
bundle: notebooks render its HTML, terminal IPython prints its plain text. `%diagnose` explains
the last error again (e.g. `%diagnose zh`).
"""

from __future__ import annotations

import sys
import traceback
from html import escape
from types import TracebackType
from typing import Any

from ..speak.i18n import LANGS, default_lang, t


def _bundle(exc: BaseException, lang: str, *, always: bool) -> dict[str, str] | None:
    from ..speak import render
    from .html import to_html
    from .report import diagnose_exception

    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    live = diagnose_exception(exc, lang, text=text)
    if not live.diagnosis.matches and not always:
        return None
    plain = render.to_text(live.diagnosis, lang, context=live.context)
    html = to_html(live.diagnosis, lang, live.context)
    return {"text/plain": "\n" + plain, "text/html": html or f"<pre>{escape(plain)}</pre>"}


def _publish(exc: BaseException, lang: str, *, always: bool = False) -> None:
    try:
        bundle = _bundle(exc, lang, always=always)
        if bundle is None:
            return
        from IPython.display import display

        display(bundle, raw=True)  # type: ignore[no-untyped-call]
    except Exception as e:  # never let the explanation hide the user's error
        print(t("hook_failed", lang).format(error=f"{type(e).__name__}: {e}"), file=sys.stderr)


def _handler(
    shell: Any,
    etype: type[BaseException],
    value: BaseException,
    tb: TracebackType | None,
    tb_offset: int | None = None,
) -> None:
    shell.showtraceback((etype, value, tb), tb_offset=tb_offset, running_compiled_code=True)
    _publish(value, default_lang())


def _diagnose_magic(line: str) -> None:
    """%diagnose [en|zh]: explain the last error again."""
    lang = line.strip() if line.strip() in LANGS else default_lang()
    exc = getattr(sys, "last_exc", None) or getattr(sys, "last_value", None)
    if exc is None:
        print({"en": "No error to explain yet.", "zh": "还没有可以解释的错误。"}[lang])
        return
    _publish(exc, lang, always=True)


def load_ipython_extension(shell: Any) -> None:
    shell.set_custom_exc((Exception,), _handler)
    shell.register_magic_function(_diagnose_magic, "line", "diagnose")


def unload_ipython_extension(shell: Any) -> None:
    shell.set_custom_exc((), None)
