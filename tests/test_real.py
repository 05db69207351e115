"""Real pasted text, one file each under tests/data/real/<category>/, collected from public issue
trackers and from real torch runs. Each file starts with comment lines:

    # source: where the text came from
    # expect: the entry it must get first, or `none`
    # where: file.py:line that must be reported as the user's line (optional)
    # quote: text the explanation must contain (optional, repeatable)
    # miss: why the tool does not give `expect` yet, and which stage would (optional): the case
      still runs, as a strict xfail, so it turns red the day it passes and the line must go
"""

from __future__ import annotations

from pathlib import Path

import pytest

from diagnoser.knowledge.index import Index
from diagnoser.speak.explain import explanation
from diagnoser.text.match import diagnose

REAL = Path(__file__).parent / "data" / "real"
# logs/ has its own test (test_real_logs.py): its `expect:` is what a reader of the numbers would
# say, "unclear" included, and each paste also says how many values the log reader must get
# wordings3/ holds one folder per letter range of the knowledge base, swept side by side
CASES = sorted(
    p for p in (*REAL.glob("*/*.txt"), *REAL.glob("wordings3/*/*.txt")) if p.parent.name != "logs"
)


def _read(path: Path) -> tuple[dict[str, list[str]], str]:
    header: dict[str, list[str]] = {}
    lines = path.read_text(encoding="utf-8").split("\n")
    while lines and lines[0].startswith("# ") and ":" in lines[0]:
        key, value = lines.pop(0)[2:].split(":", 1)
        header.setdefault(key, []).append(value.strip())
    return header, "\n".join(lines)


def test_every_case_says_where_it_came_from() -> None:
    assert len(CASES) >= 40
    for path in CASES:
        header, _ = _read(path)
        assert header.get("source") and header.get("expect"), path


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_real_paste(path: Path, index: Index, request: pytest.FixtureRequest) -> None:
    header, text = _read(path)
    expect = header["expect"][0]
    if header.get("miss"):
        # a post kept with its true label that the tool still gets wrong: a miss in sight
        request.applymarker(pytest.mark.xfail(reason=header["miss"][0], strict=True))
    diagnosis = diagnose(text, index)
    ranked = [(m.entry.id, m.score) for m in diagnosis.matches]
    if expect == "none":
        assert diagnosis.best is None, ranked
        return
    assert diagnosis.best is not None and diagnosis.best.entry.id == expect, ranked
    for where in header.get("where", []):
        found = diagnosis.best.error.where if diagnosis.best.error else None
        assert found is not None, where
        assert f"{Path(found.filename.replace(chr(92), '/')).name}:{found.lineno}" == where
    said = explanation(diagnosis.best, "en") or ""
    for quote in header.get("quote", []):
        assert quote in said, said


def _wrapped(text: str, width: int) -> str:
    return "\n".join(
        line[i : i + width] for line in text.split("\n") for i in range(0, max(len(line), 1), width)
    )


@pytest.mark.parametrize("width", [40, 60, 80])
def test_hard_wrapped_frames_whatever_the_path_length(width: int, index: Index) -> None:
    """A terminal wraps at a fixed width, so where each frame line breaks depends on how long the
    path is: every length must give back the same family and the same user line."""
    _, text = _read(REAL / "wrap" / "batch-size-mismatch.txt")
    checkout = text.split('File "', 1)[1].split("reproductions/")[0]
    site = text.split("torch/nn/")[0].rsplit('File "', 1)[1]
    for extra in range(0, 90, 3):
        moved = text.replace(site, f"/opt/{'v' * extra}/site-packages/").replace(
            checkout, f"/home/{'u' * extra}/"
        )
        best = diagnose(_wrapped(moved, width), index).best
        assert best is not None and best.entry.id == "batch-size-mismatch", extra
        assert best.error is not None and best.error.where is not None, extra
        assert best.error.where.lineno == 39, extra
