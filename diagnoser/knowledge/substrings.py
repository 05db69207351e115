"""Every occurrence of many words in one text, in one pass: an Aho-Corasick automaton
(pyahocorasick). Where pyahocorasick cannot be installed (the guide's paste box runs the engine in
a browser), a plain scan that reports the same occurrences, a find() per word, stands in."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


def automaton(words: dict[str, Any], *, or_scan: bool = True) -> Any:
    """Something whose .iter(text) yields (end, value) for every occurrence of every word,
    overlapping ones too (end is the index of its last character). None without words (an
    automaton without words cannot search), and without pyahocorasick unless or_scan."""
    if not words:
        return None
    try:
        import ahocorasick  # imported when first needed: a start-up that needs none saves it
    except ImportError:  # tests/test_layers.py runs the engine with it blocked
        return _Scan(words) if or_scan else None
    found = ahocorasick.Automaton(ahocorasick.STORE_ANY)
    for word, value in words.items():
        found.add_word(word, value)
    found.make_automaton()
    return found


class _Scan:
    def __init__(self, words: dict[str, Any]) -> None:
        self.words = list(words.items())

    def iter(self, text: str) -> Iterable[tuple[int, Any]]:
        hits = []
        for word, value in self.words:
            start = text.find(word)
            while start != -1:
                hits.append((start + len(word) - 1, value))
                start = text.find(word, start + 1)
        hits.sort(key=lambda hit: hit[0])
        return hits
