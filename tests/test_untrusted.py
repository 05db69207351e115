"""Every byte of a pasted log is untrusted: no control sequence from it reaches the user's
terminal, and no HTML from it renders live where a Markdown report is pasted."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from diagnoser.knowledge.index import Index
from diagnoser.speak.prompt import to_prompt
from diagnoser.speak.render import to_markdown, to_text
from diagnoser.text.match import diagnose

from .conftest import cli

# A real torch message (shape-matmul's first example) in a traceback.
TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 12, in <module>\n'
    "    out = model(x)\n"
    "RuntimeError: mat1 and mat2 shapes cannot be multiplied (32x64 and 128x10)\n"
)
# ESC c (full reset), ESC ( 0 (line-drawing charset), 8-bit CSI clear-screen, 8-bit OSC title,
# BEL, BS, and a 7-bit OSC 8 hyperlink
ATTACKS = [
    "\x1bc",
    "\x1b(0",
    "\x9b2J",
    "\x9d0;pwned\x07",
    "\x07",
    "\x08\x08\x08",
    "\x1b]8;;http://x\x1b\\",
]
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _poisoned() -> str:
    lines = TRACEBACK.splitlines()
    return "\n".join(attack + line for attack, line in zip(ATTACKS, lines, strict=False)) + "\n"


def test_no_control_sequence_from_the_paste_reaches_any_format() -> None:
    for fmt in ("text", "markdown", "prompt"):
        result = cli("--format", fmt, stdin=_poisoned())
        assert result.returncode == 0, result.stderr
        assert not CONTROL.search(result.stdout), (fmt, CONTROL.findall(result.stdout))
    report = json.loads(cli("--json", stdin=_poisoned()).stdout)
    assert report["matches"][0]["id"] == "shape-matmul"


def test_an_eight_bit_colour_code_does_not_hide_the_message(index: Index) -> None:
    """Colours in their 8-bit form (U+009B) are read away like the 7-bit ones: the message is
    recognised by its signature, scored as the plain paste is."""
    coloured = TRACEBACK.replace("RuntimeError", "\x9b31mRuntimeError\x9b0m")
    plain, seen = diagnose(TRACEBACK, index).best, diagnose(coloured, index).best
    assert plain is not None and seen is not None
    assert (seen.entry.id, seen.score) == (plain.entry.id, plain.score) == ("shape-matmul", 100)


def test_a_fence_in_the_log_does_not_end_the_reports_code_block() -> None:
    paste = TRACEBACK.replace(
        "RuntimeError:", "````\n<img src=x onerror=alert(1)>\n````\nRuntimeError:"
    )
    out = cli("--format", "markdown", stdin=paste).stdout
    assert "<img" not in _outside_code(out), out


def test_triage_markdown_escapes_file_names_and_messages(tmp_path: Path) -> None:
    log = tmp_path / "rank|0 <b>.log"
    log.write_text(TRACEBACK.replace("(32x64", "<script>x</script> | (32x64"), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "diagnoser", "triage", "--format", "markdown", str(log)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode in (0, 1), result.stderr
    prose = _outside_code(result.stdout)
    assert "<script>" not in prose and "<b>" not in prose, result.stdout
    table = [line for line in result.stdout.splitlines() if line.startswith("|")]
    assert table and all(len(re.findall(r"(?<!\\)\|", row)) == 6 for row in table), table


def _outside_code(markdown: str) -> str:
    """The Markdown without its fenced blocks and code spans: where HTML would render."""
    prose, fence = [], None
    for line in markdown.splitlines():
        opened = re.match(r"^(`{3,})", line)
        if fence is None and opened:
            fence = opened.group(1)
        elif fence is not None and line.startswith(fence) and set(line.strip()) == {"`"}:
            fence = None
        elif fence is None:
            prose.append(re.sub(r"(`+)(?:(?!\1)[\s\S])*?\1", "", line))
    return "\n".join(prose)


_NOISE = st.text(
    alphabet=st.sampled_from(
        [
            "\x1b",
            "\x9b",
            "\x9d",
            "\x07",
            "\x08",
            "\x00",
            "[",
            "2",
            "J",
            "c",
            "(",
            "0",
            "`",
            "<",
            ">",
            "a",
            " ",
            "\n",
        ]
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(before=_NOISE, inside=_NOISE, after=_NOISE)
def test_no_input_byte_acts_on_the_reader(before: str, inside: str, after: str) -> None:
    from diagnoser.knowledge.index import load_index

    index = load_index()
    paste = before + TRACEBACK.replace("(32x64", f"{inside}<zq{inside}> (32x64") + after
    diagnosis = diagnose(paste, index)
    for lang in ("en", "zh"):
        for out in (
            to_text(diagnosis, lang),
            to_markdown(diagnosis, lang),
            to_prompt(diagnosis, lang),
        ):
            assert not CONTROL.search(out), repr(CONTROL.findall(out))
        assert "<zq" not in _outside_code(to_markdown(diagnosis, lang))
        assert "<zq" not in _outside_code(to_prompt(diagnosis, lang))
