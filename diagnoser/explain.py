"""Speak about the user's own values: fill a signature's template with what its regex captured."""

from __future__ import annotations

import re

from .match import Match

# YAML folding joins lines with a space; between two Chinese characters that space is wrong.
_CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
_SPACE_BETWEEN_CJK = re.compile(f"(?<=[{_CJK}])\\s+(?=[{_CJK}])")


class _Missing(dict[str, str]):
    def __missing__(self, key: str) -> str:
        raise KeyError(key)


def _templates(match: Match) -> list[dict[str, str]]:
    if match.signature is not None:
        explain = match.entry.explain_templates(match.signature)
        return [explain] if explain else []
    if match.method == "log":
        return list(match.entry.evidence)
    return []


def explanation(match: Match, lang: str) -> str | None:
    """The first template whose values are all known, filled in; None when none fits."""
    for template in _templates(match):
        try:
            text = template[lang].format_map(_Missing(match.values)).strip()
        except (KeyError, IndexError, ValueError):
            continue  # this wording needs a value the message or log did not give
        return _SPACE_BETWEEN_CJK.sub("", text)
    return None
