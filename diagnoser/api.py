"""The public Python API, for tools that diagnose in-process (IDE plugins, CI bots, the Spark
engine) rather than through the CLI. Imported lazily by `diagnoser/__init__.py`:

    from diagnoser import diagnose
    report = diagnose(traceback_text)          # lang=None: as the CLI chooses (i18n.answer_lang)
    best = report["matches"][0]["id"] if report["matches"] else None
"""

from __future__ import annotations

from functools import cache

from .knowledge.index import Index, load_index
from .speak import render
from .speak.i18n import LANGS, answer_lang
from .speak.report import ErrorReport, Report
from .text.cleanup import decode
from .text.match import diagnose as _diagnose
from .text.parse import parse as _parse


@cache
def _index() -> Index:
    return load_index()


def _text(text: str | bytes) -> str:
    if isinstance(text, bytes | bytearray):
        return decode(bytes(text))  # any encoding, as the CLI reads it
    if not isinstance(text, str):
        raise TypeError(f"diagnose() takes str or bytes, not {type(text).__name__}")
    return text


def diagnose(text: str | bytes, lang: str | None = None) -> Report:
    """Explain a traceback, a log or a sentence: the same data `diagnoser --json` prints, with
    the matching entries best first (an empty list when none applies) and every error found.
    lang=None answers in Chinese when the locale or the text itself is Chinese, as the CLI does."""
    if lang is not None and lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)} or None, not {lang!r}")
    text = _text(text)
    return render.report(_diagnose(text, _index()), lang or answer_lang(text))


def parse(text: str | bytes) -> list[ErrorReport]:
    """Every error found in the text, in order, each with its type, message and user frame."""
    return [render.error_report(e) for e in _parse(_text(text)).errors]
