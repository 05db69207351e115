"""The literal text every match of a regex must contain, so that most signatures are ruled out by
a substring test and never compiled: compiling hundreds of patterns would dominate start-up."""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs a start-up milliseconds, and a sentence comes here
    from typing import Any

try:  # the regex parser is private; its home moved in Python 3.11
    from re import _parser as sre_parse  # type: ignore[attr-defined,unused-ignore]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse  # type: ignore[no-redef,unused-ignore]

_MIN_ANCHOR = 4
# The automaton of all anchors (index.Index.candidates) is built at every start, in time that
# grows with the characters it holds: an anchor keeps this many of its literal's characters.
WINDOW = 12


def required_literal(pattern: str) -> str | None:
    """The longest run of literal characters certain to appear in every match, lower-cased (we
    match case-insensitively), or None when there is no such run of four characters or more."""
    best = max(_certain_runs(sre_parse.parse(pattern)), key=len, default="").lower()
    return best if len(best) >= _MIN_ANCHOR else None


def literal_choices(pattern: str) -> frozenset[str]:
    """Literals, lower-cased, one of which every match contains: a run certain to appear, or one
    run from each branch of an alternation ("很慢|太慢" needs "很慢" or "太慢"); the most telling
    such set, or an empty one when a match may contain no literal at all."""
    return _most_telling(_choices(sre_parse.parse(pattern)))


def upper_case_literals(pattern: str) -> list[str]:
    """The upper-case letters a match of the pattern must contain literally: none can match a
    lower-cased text (a sentence as symptoms.normalise leaves it), unless the pattern ignores
    case itself."""
    parsed = sre_parse.parse(pattern)
    if parsed.state.flags & re.IGNORECASE:  # set inline: "(?i)"
        return []
    return _upper_case(parsed)


def _upper_case(parsed: Any) -> list[str]:
    found = []
    for op, arg in parsed:
        name = str(op)
        if name == "LITERAL":
            found += [chr(arg)] if chr(arg) != chr(arg).lower() else []
        elif name == "IN":  # a class: its single characters (a range A-Z names no letter)
            found += [chr(a) for o, a in arg if str(o) == "LITERAL" and chr(a) != chr(a).lower()]
        else:  # groups, branches, repeats, lookarounds: the parts they hold
            for part in arg if isinstance(arg, (list, tuple)) else (arg,):
                for sub in part if isinstance(part, list) else (part,):
                    if isinstance(sub, sre_parse.SubPattern):
                        found += _upper_case(sub)
    return found


def _choices(parsed: Any) -> list[frozenset[str]]:
    """Each set of literals at this level one of which every match contains."""
    found, current = [], ""
    for op, arg in parsed:
        name = str(op)
        if name == "LITERAL":
            current += chr(arg)
            continue
        if current:
            found.append(frozenset([current.lower()]))
        current = ""
        if name == "SUBPATTERN":
            found += _choices(arg[-1])
        elif name == "BRANCH":
            branches = [_most_telling(_choices(branch)) for branch in arg[1]]
            if all(branches):  # a branch without a literal lets a match through without any
                found.append(frozenset().union(*branches))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") and arg[0] >= 1:
            found += _choices(arg[2])  # repeated at least once: its literals are there
    if current:
        found.append(frozenset([current.lower()]))
    return found


def _most_telling(choices: list[frozenset[str]]) -> frozenset[str]:
    """The set whose shortest literal is the longest (the least likely to occur by chance), the
    smallest on a tie."""
    return max(choices, key=lambda s: (min(map(len, s)), -len(s)), default=frozenset())


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


def rarest_windows(literals: list[str | None]) -> list[str | None]:
    """For each literal, its WINDOW-character run that the fewest literals contain (the first
    such run on a tie): still text that every match contains, and about as selective as the whole
    literal, since a shared run only adds candidates that their regexes then refuse."""

    def runs(literal: str) -> list[str]:
        return [literal[i : i + WINDOW] for i in range(max(1, len(literal) - WINDOW + 1))]

    sharing: dict[str, int] = {}
    for literal in set(filter(None, literals)):
        for run in set(runs(literal)):
            sharing[run] = sharing.get(run, 0) + 1
    return [min(runs(lit), key=sharing.__getitem__) if lit else None for lit in literals]
