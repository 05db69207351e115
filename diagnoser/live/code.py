"""The user's code around the failing line, when the file (or IPython's cell cache) has it."""

from __future__ import annotations

import linecache

from ..text.facts import Snippet

RADIUS = 15


def read_snippet(filename: str, lineno: int, radius: int = RADIUS) -> Snippet | None:
    """Lines lineno±radius; linecache also knows IPython's cells and never raises."""
    lines = linecache.getlines(filename)
    if not lines or not 1 <= lineno <= len(lines):
        return None
    first = max(1, lineno - radius)
    last = min(len(lines), lineno + radius)
    return Snippet(
        filename, first, tuple(line.rstrip("\n") for line in lines[first - 1 : last]), lineno
    )
