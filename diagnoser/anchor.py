"""The literal text every match of a regex must contain, so that most signatures are ruled out by
a substring test and never compiled: compiling hundreds of patterns would dominate start-up."""

from __future__ import annotations

from typing import Any

try:  # the regex parser is private; its home moved in Python 3.11
    from re import _parser as sre_parse  # type: ignore[attr-defined,unused-ignore]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse  # type: ignore[no-redef,unused-ignore]

_MIN_ANCHOR = 4


def required_literal(pattern: str) -> str | None:
    """The longest run of literal characters certain to appear in every match, lower-cased (we
    match case-insensitively), or None when there is no such run of four characters or more."""
    best = max(_certain_runs(sre_parse.parse(pattern)), key=len, default="").lower()
    return best if len(best) >= _MIN_ANCHOR else None


def _certain_runs(parsed: Any) -> list[str]:
    """Runs of consecutive literals at this level; a plain group's own level counts too, while
    anything optional, repeated or alternative ends a run and contributes nothing."""
    runs, current = [], ""
    for op, arg in parsed:
        if str(op) == "LITERAL":
            current += chr(arg)
            continue
        runs.append(current)
        current = ""
        if str(op) == "SUBPATTERN":
            runs += _certain_runs(arg[-1])
    return [*runs, current]
