"""The plain scan that stands in for pyahocorasick (a browser has no pyahocorasick) reports
exactly the occurrences the automaton reports."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from diagnoser.knowledge.substrings import _Scan, automaton

_WORDS = st.dictionaries(
    st.text(alphabet="ab c显存", min_size=1, max_size=4), st.integers(), max_size=8
)


@given(words=_WORDS, text=st.text(alphabet="ab c显存x", max_size=60))
@settings(max_examples=300, deadline=None, derandomize=True)
def test_the_scan_finds_what_the_automaton_finds(words: dict[str, int], text: str) -> None:
    fast = automaton(words)
    if fast is None:
        assert not words
        return
    assert sorted(_Scan(words).iter(text)) == sorted(fast.iter(text))


def test_no_words_no_automaton() -> None:
    assert automaton({}) is None and automaton({}, or_scan=False) is None
