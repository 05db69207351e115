"""training_log skips segments without a known key word before running its costly pair regex:
every key canonical_key recognises must contain one of those words, or its values would be lost."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diagnoser.training_log import _KEY_WORD, _KEYS, canonical_key, read


@pytest.mark.parametrize(("name", "pattern"), _KEYS, ids=[name for name, _ in _KEYS])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_known_key_contains_a_key_word(
    name: str, pattern: object, data: st.DataObject
) -> None:
    key = data.draw(st.from_regex(pattern, fullmatch=True))  # type: ignore[call-overload]
    assert canonical_key(key) is not None
    assert _KEY_WORD.search(key), (name, key)


def test_values_are_still_read_beside_long_words() -> None:
    line = "epoch 3 | " + "x" * 300 + " | val_loss: 0.25 | GPU mem 1.5 GiB | acc=0.9"
    log = read(line)
    assert [p.value for p in log.series["val_loss"]] == [0.25]
    assert [p.value for p in log.series["memory"]] == [1536.0]
    assert [p.value for p in log.series["acc"]] == [0.9]
