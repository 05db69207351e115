"""Speak about the user's own values: fill a signature's template with what its regex captured."""

from __future__ import annotations

import re

from ..text.match import Match

# YAML folding joins lines with a space; between two Chinese characters that space is wrong.
_CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
# Not compiled at import: its large character classes cost a start-up 1.5 ms, and only text
# with non-ASCII characters needs it (re caches it once used).
_SPACE_BETWEEN_CJK = f"(?<=[{_CJK}])\\s+(?=[{_CJK}])"


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
        return text if text.isascii() else re.sub(_SPACE_BETWEEN_CJK, "", text)
    return None
