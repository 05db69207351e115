"""The anchor table finds exactly the anchors a text contains, and loads as a handful of objects
whatever the number of anchors."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from diagnoser.knowledge.anchor_table import AnchorTable, build
from diagnoser.knowledge.index import _from_file, _to_file

# Letters that make runs shared between anchors and texts likely, some of them more than one
# byte in UTF-8, as a Chinese wording's are.
_ALPHABET = st.sampled_from("abcde :()[]'0123456789\0形状不匹配显存")
_WORDS = st.text(_ALPHABET, min_size=1, max_size=12)
_ANCHORS = st.dictionaries(_WORDS, st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=3))


def _loaded(anchors: dict[str, list[int]]) -> AnchorTable:
    """As a start-up reads the table: its arrays views of the index file's bytes, at whatever
    offsets (and alignments) the index file put them."""
    return AnchorTable(_from_file(_to_file({"ids": b"x", "anchors": build(anchors)}))["anchors"])


def _contained(anchors: dict[str, list[int]], text: str) -> list[int]:
    return sorted(t for word, targets in anchors.items() if word in text for t in targets)


@settings(max_examples=300, deadline=None)
@given(_ANCHORS, st.lists(st.one_of(_WORDS, st.integers(0, 50)), max_size=8))
def test_search_finds_what_a_substring_test_of_every_anchor_finds(
    anchors: dict[str, list[int]], parts: list[str | int]
) -> None:
    # texts made of anchors (an int picks one) and noise, so that most contain some
    words = list(anchors)
    text = "".join(words[p % len(words)] if isinstance(p, int) and words else str(p) for p in parts)
    assert sorted(_loaded(anchors).search(text)) == _contained(anchors, text)


def test_short_anchors_are_tested_on_every_text() -> None:
    """An anchor shorter than a run has no key to be filed under."""
    anchors = {"ab": [1], "形": [2], "abcdef": [3]}
    table = _loaded(anchors)
    for text in ("", "a", "xab", "abcdef", "形状", "ab形"):
        assert sorted(table.search(text)) == _contained(anchors, text)


def test_a_lone_surrogate_is_searched_like_any_character() -> None:
    """Logs read with surrogateescape carry undecodable bytes as lone surrogates."""
    anchors = {"bad \udcff byte": [7], "bad byte": [8]}
    assert _loaded(anchors).search("a bad \udcff byte here") == [7]


def test_an_empty_table_finds_nothing() -> None:
    assert _loaded({}).search("any text at all") == []
    assert _loaded({}).words() == []


def test_words_and_targets_number_the_anchors_alike() -> None:
    anchors = {f"anchor number {i}": [i, i + 1000] for i in range(50)}
    table = _loaded(anchors)
    numbered = {word: list(table.targets(k)) for k, word in enumerate(table.words())}
    assert numbered == anchors


def test_the_stored_table_is_a_few_objects_whatever_its_size() -> None:
    """What a start-up unmarshals: bytes and ints, not one object per anchor."""
    for count in (10, 5000):
        data = build({f"wording {i:05d} of an error": [i] for i in range(count)})
        assert all(isinstance(v, bytes | int | str) for k, v in data.items() if k != "short")
        assert data["short"] == []  # every anchor here is long enough for a key
