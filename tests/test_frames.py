"""Frame signatures: a traceback cut off before its message is recognised by the library calls it
went through, below any message hit, and a bad `calls` entry is refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from diagnoser.knowledge.index import Index
from diagnoser.knowledge.schema import KBError, load_kb
from diagnoser.text.match import diagnose

from .test_kb import _broken_copy
from .test_real import _read

TRUNCATED = Path(__file__).parent / "data" / "real" / "truncated"


def test_a_cut_traceback_is_matched_by_its_frames_below_any_message_hit(index: Index) -> None:
    _, cut = _read(TRUNCATED / "torch213-load-cuda.txt")
    best = diagnose(cut, index).best
    assert best is not None and best.entry.id == "load-cuda-on-cpu"
    assert best.method == "frames" and best.score < 85  # under every signature and fuzzy hit
    message = (
        "RuntimeError: Attempting to deserialize object on a CUDA device but "
        "torch.cuda.is_available() is False."
    )
    whole = diagnose(cut + "\n" + message, index).best
    assert whole is not None and whole.method == "signature" and whole.score > best.score


def test_frames_that_say_nothing_about_the_family_match_nothing(index: Index) -> None:
    _, cut = _read(TRUNCATED / "torch213-linear-none.txt")
    assert diagnose(cut, index).best is None


def test_the_source_condition_needs_the_innermost_frame(index: Index) -> None:
    """collate-unsupported-type needs `raise TypeError(` in the innermost frame: the same calls
    ending in a frame that stacks tensors are the other collate family."""
    _, stack = _read(TRUNCATED / "torch213-collate-stack.txt")
    _, raised = _read(TRUNCATED / "torch213-collate-type.txt")
    ids = [[m.entry.id for m in diagnose(t, index).matches] for t in (stack, raised)]
    assert ids == [["collate-unequal-size"], ["collate-unsupported-type"]]


@pytest.mark.parametrize(
    ("calls", "reason"),
    [(["serialization.py"], "expected `path/file.py:function-regex`"), (["a.py:f("], "missing )")],
)
def test_a_bad_call_names_file_field_and_reason(
    calls: list[str], reason: str, tmp_path: Path
) -> None:
    kb = _broken_copy(tmp_path, "load-cuda-on-cpu", {"frames": [{"calls": calls}]})
    with pytest.raises(KBError) as err:
        load_kb(kb)
    assert "load-cuda-on-cpu.yaml: frames[0].calls" in str(err.value)
    assert reason in str(err.value)
