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


def explanation(match: Match, lang: str) -> str | None:
    sig = match.signature
    if sig is None or sig.explain is None:
        return None
    try:
        text = sig.explain[lang].format_map(_Missing(match.values)).strip()
    except (KeyError, IndexError, ValueError):
        return None  # a wording that left an optional group empty: say nothing rather than guess
    return _SPACE_BETWEEN_CJK.sub("", text)
