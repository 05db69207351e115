"""What a lint rule is, what it finds, and the registry every rule module adds itself to.

A rule is data with one small function, the way Ruff and TorchFix write theirs: a stable code, a
name, the knowledge-base entry it prevents, a message in both languages that quotes the user's
code, and the documentation its `--explain` text and its site page are generated from.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from ..knowledge.records import dataclass, field

TYPE_CHECKING = False  # `typing` and `dataclasses` cost ~9 ms of every lint's start
if TYPE_CHECKING:
    from .context import Context

Bilingual = dict[str, str]


@dataclass(frozen=True)
class Hit:
    """What a check returns: the node to point at and the values its message quotes."""

    node: ast.AST
    values: dict[str, str | Bilingual] = field(default_factory=dict)


Check = Callable[["Context"], Iterator[Hit]]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    entry: str  # the kb/ entry this rule prevents
    message: Bilingual  # str.format template; {code} is the user's expression
    why: Bilingual  # why it is a bug (Markdown)
    fix: Bilingual  # what to write instead (Markdown)
    bad: str  # a minimal example that fires
    good: str  # the same code, fixed
    check: Check


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    col: int  # 1-based, like Ruff
    code: str
    entry: str
    message: str


RULES: dict[str, Rule] = {}


def rule(
    code: str,
    name: str,
    entry: str,
    *,
    message: Bilingual,
    why: Bilingual,
    fix: Bilingual,
    bad: str,
    good: str,
) -> Callable[[Check], Check]:
    """Register the decorated check under `code`; codes are unique and never reused."""

    def register(check: Check) -> Check:
        if code in RULES:
            raise ValueError(f"lint rule code {code} registered twice")
        RULES[code] = Rule(code, name, entry, message, why, fix, bad.strip(), good.strip(), check)
        return check

    return register
