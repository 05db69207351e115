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

REAL = Path(__file__).parent / "data" / "real"
TRUNCATED = REAL / "truncated"


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


WORKER = Path(__file__).parent / "data" / "real" / "worker-reraise"


def test_frames_that_re_raise_answer_a_message_no_entry_knows(index: Index) -> None:
    """torch <= 1.1 re-raised a DataLoader worker's exception with the worker's traceback as its
    message, so the last line is the user's own TypeError: the re-raising frames answer it."""
    _, post = _read(WORKER / "torch04-typeerror-han.txt")
    best = diagnose(post, index).best
    assert best is not None and best.entry.id == "dataloader-worker-exception"
    assert best.method == "frames" and best.error is not None
    assert best.error.exc_type == "TypeError" and not best.error.says_nothing


def test_a_message_an_entry_knows_comes_before_the_frames_that_re_raised_it(
    index: Index,
) -> None:
    """The same torch 0.4 layout ending in torch's own message (captured from torch 2.13): the
    entry that explains the message answers, not the wrapper's frames."""
    _, post = _read(WORKER / "torch04-typeerror-han.txt")
    stack = (
        "RuntimeError: stack expects each tensor to be equal size, but got [3, 224, 224] at "
        "entry 0 and [3, 200, 200] at entry 1"
    )
    head = post[: post.index("TypeError: object of type")]
    ids = [m.entry.id for m in diagnose(head + stack, index).matches]
    assert ids[0] == "collate-unequal-size" and "dataloader-worker-exception" not in ids


def test_an_exception_whose_str_failed_says_nothing(index: Index) -> None:
    """Python prints "<exception str() failed>" for an exception that cannot print itself: no
    message, so its frames answer (torch 2.13's re-raise of such a worker exception)."""
    _, out = _read(WORKER / "torch213-str-failed.txt")
    best = diagnose(out, index).best
    assert best is not None and best.entry.id == "dataloader-worker-exception"
    assert best.method == "frames" and best.error is not None and best.error.says_nothing


def test_frames_that_do_not_re_raise_stay_quiet_under_a_message(index: Index) -> None:
    """torch.load's frames (weights-only-load, load-cuda-on-cpu) name nothing once a message is
    printed: an unknown message raised through them is not theirs."""
    _, cut = _read(TRUNCATED / "torch213-weights-only.txt")
    assert diagnose(cut, index).best.entry.id == "weights-only-load"  # type: ignore[union-attr]
    other = cut.rsplit("\n", 1)[0] + "\n    raise ValueError(msg)\nValueError: bad magic in my file"
    assert diagnose(other, index).best is None


@pytest.mark.parametrize(
    ("path", "note"),
    [
        (TRUNCATED / "torch213-weights-only.txt", "frames"),
        (WORKER / "torch213-str-failed.txt", "frames_bare"),
        (WORKER / "torch04-typeerror-han.txt", "frames_wrapped"),
        # the post put "[...]" where the message was: left out, not absent
        (REAL / "read15" / "distributed-launch-calledprocesserror-cut.txt", "frames"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_answer_says_why_frames_answered(
    path: Path, note: str, lang: str, index: Index
) -> None:
    """A cut paste, a message that says nothing, a message the frames re-raised: each is told so,
    and never as one of the others."""
    from diagnoser.speak.i18n import t
    from diagnoser.speak.render import to_text

    _, text = _read(path)
    shown = " ".join(to_text(diagnose(text, index), lang).split())
    notes = {n: " ".join(t(n, lang).split()) for n in ("frames", "frames_bare", "frames_wrapped")}
    assert [n for n, said in notes.items() if said in shown] == [note]
