"""training_log skips segments where no known key is followed by a number before running its
costly pair regex: every key canonical_key recognises must end with a word of that pre-filter, or
its values would be lost, and the pre-filter must change no result."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diagnoser.knowledge.index import Index
from diagnoser.text import training_log
from diagnoser.text.training_log import _KEY_THEN_NUMBER, _KEYS, _NUM, canonical_key, read

from .test_symptoms import FORMATS, HEALTHY

ROOT = Path(__file__).resolve().parent.parent
# What _PAIR allows between a key and its value, and the bracket it allows before a number with a
# fraction (`loss[4.99]`; a round one after [:=], `loss=(4.99)`).
_SEPARATOR = r"\]?['\"]?\s*[:=]?\s*['\"]?"
_FRACTION_OR_WORD = re.compile(r"^[-+]?(?:\d*\.\d|nan|inf)", re.IGNORECASE)


@pytest.mark.parametrize(("name", "pattern"), _KEYS, ids=[name for name, _ in _KEYS])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_known_key_then_a_number_passes_the_pre_filter(
    name: str, pattern: re.Pattern[str], data: st.DataObject
) -> None:
    key = data.draw(st.from_regex(pattern, fullmatch=True))
    key = key.upper() if data.draw(st.booleans()) else key  # logs print "Loss" and "GPU mem"
    separator = data.draw(st.from_regex(_SEPARATOR, fullmatch=True))
    number = data.draw(st.from_regex(re.compile(_NUM, re.IGNORECASE), fullmatch=True))
    if _FRACTION_OR_WORD.match(number) and data.draw(st.booleans()):
        said = separator[-1:] in (":", "=") or (
            separator[-1:].isspace() and separator[-2:-1] in (":", "=")
        )
        separator += data.draw(st.sampled_from(["[", "("])) if said else "["
    assert canonical_key(key) == name
    segment = key + separator + number
    assert _KEY_THEN_NUMBER.search(segment.lower()), (name, segment)


def test_values_are_still_read_beside_long_words() -> None:
    line = "epoch 3 | " + "x" * 300 + " | val_loss: 0.25 | GPU mem 1.5 GiB | acc=0.9"
    log = read(line)
    assert [p.value for p in log.series["val_loss"]] == [0.25]
    assert [p.value for p in log.series["memory"]] == [1536.0]
    assert [p.value for p in log.series["acc"]] == [0.9]


def _read_without_pre_filter(text: str, monkeypatch: pytest.MonkeyPatch) -> str:
    with monkeypatch.context() as patched:
        patched.setattr(training_log, "_KEY_THEN_NUMBER", re.compile(""))  # every segment
        return repr(read(text))  # repr: nan == nan


def test_the_pre_filter_changes_nothing_read_from_real_texts(
    index: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every real traceback and log we hold, and the log layouts the symptom tests read."""
    paths = [*(ROOT / "samples").glob("*.txt"), *(ROOT / "tests/data/real").rglob("*.txt")]
    texts = [p.read_text(encoding="utf-8") for p in paths]
    texts += [example for e in index.entries for example in e.examples]
    texts += [HEALTHY, *(line for line, _, _ in FORMATS.values())]
    filtered = [repr(read(t)) for t in texts]
    assert filtered == [_read_without_pre_filter(t, monkeypatch) for t in texts]
    assert sum(bool(read(t).series) for t in texts) >= 20  # logs with numbers were among them


# Pieces of log lines and tracebacks, glued at random: keys, numbers, units, separators, paths.
_PIECES = [
    *("loss", "Val_Loss", "acc", "accuracy", "grad norm", "gpu mem", "data", "time", "bs", "lr"),
    *("epoch", "step", "waiting on data", "optimizer step", 'File "/x/data/dataloader.py"'),
    *("line", "in", "forward", "model", "3", "0.25", "-1e-05", "nan", "inf", "12%", "GiB", "ms"),
    *(" ", "  ", ":", "=", " | ", ", ", " - ", "'", '"', "\t", "{", "}", "[", "]", "/", "_"),
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=14), min_size=1, max_size=4))
def test_the_pre_filter_changes_nothing_read_from_any_line(lines: list[list[str]]) -> None:
    text = "\n".join("".join(line) for line in lines)
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert repr(read(text)) == _read_without_pre_filter(text, monkeypatch)


def test_a_csv_log_reads_by_its_header_and_empty_cells_are_not_zeros() -> None:
    from diagnoser.text.training_log import read

    # the shape of Lightning's CSVLogger metrics.csv and of watch(export=...)'s watch.csv
    text = "epoch,step,train_loss,val_loss\n0,0,2.31,\n0,1,2.2,\n0,1,,2.25\n1,2,nan,\n"
    log = read(text)
    assert [(p.value, p.step) for p in log.series["loss"]][:2] == [(2.31, 0), (2.2, 1)]
    assert str(log.series["loss"][2].value) == "nan"
    assert [p.value for p in log.series["val_loss"]] == [2.25]
