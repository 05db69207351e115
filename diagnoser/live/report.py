"""A live exception diagnosed: its traceback text through the same match as pasted text, plus
what only the process knows (each error's tensors, the user's code, the environment)."""

from __future__ import annotations

import sys
import traceback
from dataclasses import dataclass
from functools import cache

from ..knowledge.index import Index, load_index
from ..text.facts import Context, Facts
from ..text.match import Diagnosis, diagnose
from ..text.parse import Error
from . import env
from .capture import capture
from .code import read_snippet

FORMATS = ("text", "json", "markdown", "prompt")


@dataclass(frozen=True)
class LiveDiagnosis:
    diagnosis: Diagnosis
    context: Context


def chain(exc: BaseException) -> list[BaseException]:
    """The exception and those it was raised from or during, in the order Python prints them."""
    out: list[BaseException] = []
    e: BaseException | None = exc
    while e is not None and all(e is not seen for seen in out):
        out.append(e)
        e = (
            e.__cause__
            if e.__cause__ is not None
            else (None if e.__suppress_context__ else e.__context__)
        )
    return out[::-1]


def _owner(err: Error, exceptions: list[BaseException]) -> BaseException | None:
    """The live exception a parsed error was printed from: same type, message starting alike."""
    for exc in exceptions:
        if err.exc_type and err.exc_type.rsplit(".", 1)[-1] != type(exc).__name__:
            continue
        first = str(exc).split("\n", 1)[0].strip()
        if first[:200] in err.message:
            return exc
    return None


def text_context(diagnosis: Diagnosis, lang: str) -> Context:
    """For pasted text: this machine's environment (read without importing torch) and the code
    around the failing line when that file is here to read."""
    best = diagnosis.best
    err = best.error if best and best.error else diagnosis.trace.root
    where = err.where if err else None
    snippet = read_snippet(where.filename, where.lineno) if where else None
    return Context(environment=tuple(env.rows(env.light(), lang)), snippet=snippet)


@cache
def _index() -> Index:
    """Loaded once per process: a notebook explains many errors with the same knowledge base."""
    return load_index()


def environment(lang: str) -> tuple[tuple[str, str], ...]:
    """In a process that has torch loaded, its build is known for free; else metadata only."""
    found = env.collect() if "torch" in sys.modules else env.light()
    return tuple(env.rows(found, lang))


def diagnose_exception(
    exc: BaseException,
    lang: str,
    *,
    index: Index | None = None,
    text: str | None = None,
    full: bool = False,
) -> LiveDiagnosis:
    """`text` is the traceback as it was printed (IPython's differs from Python's); `full` adds
    the user's code and the environment, which Markdown and the prompt show."""
    if text is None:
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    diagnosis = diagnose(text, index or _index())
    exceptions = chain(exc)
    captured: dict[int, Facts] = {}
    facts = []
    for err in diagnosis.trace.errors:
        owner = _owner(err, exceptions)
        if owner is None:
            facts.append(Facts())
            continue
        if id(owner) not in captured:
            captured[id(owner)] = capture(owner)
        facts.append(captured[id(owner)])
    snippet = None
    if full and diagnosis.trace.root and diagnosis.trace.root.where:
        where = diagnosis.trace.root.where
        snippet = read_snippet(where.filename, where.lineno)
    context = Context(
        facts=tuple(facts),
        environment=environment(lang) if full else (),
        snippet=snippet,
        traceback=text,
    )
    return LiveDiagnosis(diagnosis, context)


def render(
    live: LiveDiagnosis,
    lang: str,
    fmt: str,
    *,
    colour: bool = False,
    docs_url: str | None = None,
    width: int | None = None,
) -> str:
    from ..speak import render as r
    from ..speak.prompt import to_prompt

    if fmt == "json":
        return r.to_json(live.diagnosis, lang, live.context) + "\n"
    if fmt == "markdown":
        return r.to_markdown(live.diagnosis, lang, live.context)
    if fmt == "prompt":
        return to_prompt(live.diagnosis, lang, live.context)
    return r.to_text(
        live.diagnosis,
        lang,
        colour=colour,
        docs_url=docs_url or r.DOCS_URL,
        context=live.context,
        width=width,
    )
