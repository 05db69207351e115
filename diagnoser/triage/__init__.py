"""Triage many logs at once: every error and symptom in every file, grouped, first failure first.

    from diagnoser.triage import triage
    report = triage(["logs/"], jobs=2)
    report.first_failure.id, [(g.id, g.count, g.ranks) for g in report.groups]

Modules: inputs (files, folders, globs, .gz/.zst), segment (the streaming reader that cuts a
stream into error-bearing chunks), origin (ranks, timestamps, torchrun's root cause), grouping
(parse/match per chunk, groups, first failure), output (text, Markdown, JSON, HTML), local and
spark (the engines; `diagnoser.triage.spark.groups_dataframe` returns a Spark DataFrame), command
(`diagnoser triage`). Nothing here is imported by `import diagnoser`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` costs milliseconds on the diagnoser's start (cli reads logs here)
if TYPE_CHECKING:
    from pathlib import Path

    from .grouping import Report


def triage(paths: list[str], *, jobs: int = 1, kb: Path | None = None) -> Report:
    """Group the errors of the files, folders and globs in `paths` (raises InputError for a path
    that names nothing)."""
    from ..knowledge.index import load_index
    from . import local
    from .inputs import expand

    return local.run(expand(paths), load_index(kb), jobs, kb)
