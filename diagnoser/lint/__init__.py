"""`diagnoser lint`: static checks of training code, each rule linked to the knowledge-base entry
it prevents. Rules live one group per module and register themselves in `rule.RULES`; none of
them imports torch: they read the syntax tree only."""

from __future__ import annotations

from . import data, loading, losses, modules, tensors, training  # noqa: F401  (registers the rules)
from .engine import lint_file, lint_notebook, lint_paths, lint_source, select_rules
from .rule import RULES, Finding, Rule

__all__ = [
    "RULES",
    "Finding",
    "Rule",
    "lint_file",
    "lint_notebook",
    "lint_paths",
    "lint_source",
    "select_rules",
]
