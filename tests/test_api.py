"""The public Python API: `from diagnoser import diagnose, parse`, the data `--json` prints."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import diagnoser
from diagnoser import diagnose, parse

from .conftest import ROOT, cli

# The real output of reproductions/shape-matmul.py, with a user's path in it.
SAMPLE = (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8")


def test_diagnose_returns_what_json_prints() -> None:
    printed = json.loads(cli("--json", "--lang", "zh", stdin=SAMPLE).stdout)
    assert diagnose(SAMPLE, lang="zh") == printed
    best = printed["matches"][0]
    assert (best["id"], best["score"]) == ("shape-matmul", 100)
    assert "64" in best["explanation"] and "128" in best["explanation"]
    assert best["where"]["file"] == "/home/ana/mnist/train.py"


def test_diagnose_reads_bytes_and_says_when_nothing_applies() -> None:
    assert diagnose(SAMPLE.encode("utf-16"), lang="en")["matches"][0]["id"] == "shape-matmul"
    nothing = diagnose("all good, training finished", lang="en")
    assert nothing["matches"] == [] and nothing["lang"] == "en"


def test_parse_returns_the_errors_with_the_users_frame() -> None:
    (error,) = parse(SAMPLE)
    assert error["type"] == "RuntimeError"
    assert error["message"].startswith("mat1 and mat2 shapes cannot be multiplied (32x64")
    assert error["where"] is not None and error["where"]["line"] == 22


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="str or bytes"):
        diagnose(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lang must be one of en, zh"):
        diagnose(SAMPLE, lang="fr")
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        diagnoser.nonexistent  # noqa: B018


def test_import_is_light_and_parse_stays_the_function() -> None:
    """`import diagnoser` loads nothing else; `diagnoser.parse` is the function, also after the
    parser's own module (diagnoser.text.parse) was imported."""
    code = (
        "import sys, diagnoser\n"
        "print(sorted(m for m in sys.modules if m.startswith('diagnoser')))\n"
        "import diagnoser.text.parse\n"
        "print(callable(diagnoser.parse), diagnoser.parse('ValueError: x')[0]['type'])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.splitlines()
    # the package and the version it re-exports from knowledge/__init__.py, nothing more
    assert out == ["['diagnoser', 'diagnoser.knowledge']", "True ValueError"]
