"""Recall on realistic buggy files (tests/lint/fixtures/recall/): each is a small training script
or module as users write them, with one bug a user would write, in several shapes per rule (in a
Sequential, at the end of forward, in a helper, across if/else, in Chinese names, in a Lightning
module). The first line names the rule that must find it; `<name>.fixed.py` is the same file with
the bug fixed, where lint must find nothing at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from diagnoser.lint import RULES, lint_source

RECALL = Path(__file__).parent / "fixtures" / "recall"
BUGGY = sorted(p for p in RECALL.glob("*.py") if not p.name.endswith(".fixed.py"))

# Written before the rules were looked at, and still missed: the shape each needs.
KNOWN_MISSES = {}


def _codes(path: Path) -> set[str]:
    source = path.read_text(encoding="utf-8")
    return {f.code for f in lint_source(source, str(path), list(RULES.values()))}


def _expected(path: Path) -> str:
    return path.read_text(encoding="utf-8").splitlines()[0].removeprefix("# expect:").strip()


def test_there_are_enough_files_with_several_shapes_per_rule() -> None:
    assert len(BUGGY) >= 40
    rules = [_expected(p) for p in BUGGY]
    assert len(set(rules)) >= 30
    assert sum(rules.count(r) > 1 for r in set(rules)) >= 4  # rules tried in several shapes


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(
            p, id=p.stem, marks=pytest.mark.xfail(reason=KNOWN_MISSES[p.stem], strict=True)
        )
        if p.stem in KNOWN_MISSES
        else pytest.param(p, id=p.stem)
        for p in BUGGY
    ],
)
def test_the_bug_is_found_by_its_rule(path: Path) -> None:
    assert _expected(path) in _codes(path)


@pytest.mark.parametrize("path", BUGGY, ids=lambda p: p.stem)
def test_the_fixed_file_is_quiet(path: Path) -> None:
    fixed = path.with_name(path.stem + ".fixed.py")
    assert _codes(fixed) == set()


def test_recall_is_at_least_85_percent() -> None:
    found = sum(_expected(p) in _codes(p) for p in BUGGY)
    assert found / len(BUGGY) >= 0.85, f"{found}/{len(BUGGY)}"
