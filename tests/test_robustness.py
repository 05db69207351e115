"""The diagnoser never crashes, never hangs, and keeps its memory bounded, whatever it is fed."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.regex_pumping import (
    SEPARATORS,
    code_patterns,
    deadline,
    flagged,
    kb_patterns,
    super_linear,
    ways_in,
    words,
)
from diagnoser.knowledge.index import Index
from diagnoser.text.cleanup import decode
from diagnoser.text.match import diagnose

from .conftest import ROOT, cli, run_reproduction

EXAMPLES = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@given(data=st.binary(max_size=4000))
@EXAMPLES
def test_any_bytes_never_raise(data: bytes, index: Index) -> None:
    diagnose(decode(data), index)


@given(text=st.text(max_size=3000))
@EXAMPLES
def test_any_text_never_raises(text: str, index: Index) -> None:
    diagnose(text, index)


_PREFIX = st.sampled_from(
    [
        "",
        "> ",
        "[rank1]: ",
        "[default0]:",
        "[1,0]<stderr>:",
        "[training STDERR] ",
        "E   ",
        "2024-03-01 10:{n:02d}:00,001 - ERROR - ",
        "[10:00:{n:02d}] ",
        "ERROR:root:",
        "Mar  1 10:00:{n:02d} node-7 python3[{n}]: ",
    ]
)
_NOISE = st.sampled_from(
    [
        "",
        "\x1b[0m",
        "100%|██████████| 50/50 [00:01<00:00, 30.2it/s]",
        "\r",
        "  ",
        "\t",
    ]
)


def _clean_outputs() -> list[tuple[str, str]]:
    out = []
    for family in ("shape-matmul", "batch-size-mismatch", "dtype-mismatch"):
        proc = run_reproduction(family)
        out.append((family, proc.stdout + proc.stderr))
    return out


@given(
    which=st.integers(0, 2),
    prefix=_PREFIX,
    noise=_NOISE,
    n=st.integers(0, 59),
    crlf=st.booleans(),
    before=st.text(alphabet="abc xyz\n0123456789:=", max_size=200),
)
@EXAMPLES
def test_prefixes_and_noise_keep_the_family(
    which: int, prefix: str, noise: str, n: int, crlf: bool, before: str, index: Index
) -> None:
    family, clean = _clean_outputs()[which]
    lines = [prefix.format(n=n) + line for line in clean.split("\n")]
    text = before + "\n" + noise + ("\r\n" if crlf else "\n").join(lines)
    best = diagnose(text, index).best
    assert best is not None and best.entry.id == family, text[-1500:]


# -- regexes and sizes ---------------------------------------------------------------
#
# A regex is linear when searching GROWTH times more text costs about GROWTH times more: each
# pattern is searched on runs built to make it backtrack (bench/regex_pumping.py: each way into
# each of its quantified groups, then a run that group accepts, then an end that fails; and runs
# of its own words and of separators), at two lengths, and the costs are compared, never bounded.


KB_PATTERNS = kb_patterns()


@pytest.mark.parametrize(
    ("pattern", "flags"), [p[1:] for p in KB_PATTERNS], ids=[p[0] for p in KB_PATTERNS]
)
def test_every_kb_regex_is_linear(pattern: str, flags: int) -> None:
    assert not flagged(pattern, flags), "x: how much more a 4 times longer run costs"


@given(
    which=st.integers(0, len(KB_PATTERNS) - 1),
    parts=st.lists(
        st.one_of(st.sampled_from(SEPARATORS), st.text(alphabet="aZ_09x(),[]", max_size=6)),
        min_size=1,
        max_size=4,
    ),
    word_first=st.booleans(),
)
@settings(max_examples=150, deadline=None, derandomize=True)
def test_kb_regexes_stay_linear_on_any_repeated_block(
    which: int, parts: list[str], word_first: bool
) -> None:
    """Any block built from the pattern's words and separators, repeated."""
    _, pattern, flags = KB_PATTERNS[which]
    found = words(pattern)
    block = "".join(([found[which % len(found)]] if found and word_first else []) + parts)
    if block:
        compiled = re.compile(pattern, flags)
        assert super_linear(compiled, "", block, "") is None, (pattern, block)


# The linearity check on patterns it must flag, and on the same patterns made linear.
QUADRATIC = {
    # slow-training-dataloader's pattern before `\b` was added: \w* rescans from each start
    "dataloader": r"(?P<loader>'?\w*_?dataloader'?) does not have many workers",
    # the fuzzy stage's error-code pattern before f778706: `\s*:?\s*` after "error code"
    "error code": r"(?i)\berror\s*(?:\(\s*|=\s*|code\s*:?\s*)(\d{1,5})\b",
    # the log reader's key pattern before 9dd074e: its short keys lead to `\s*[:=]?\s*`, which
    # twelve longest ways in (whole matches, "allocatedinf") never reached
    "log keys": r"(?:a(?:ccuracy|cc|llocated)|b(?:ackward|wd|s)|compute|data|epoch|forward|gpu"
    r"|l(?:oading|oad|oss(?:[_.][a-z0-9]{1,8}){0,3}|ogging)|m(?:emory|em|etrics?|odel)|norm"
    r"|optim(?:izer)?|reserved"
    r"|r(?:am|ss)|s(?:ize|tep)|time|u(?:pdate|sed)|/it)['\"]?\s*[:=]?\s*['\"]?[-+]?(?:nan|inf|\.?\d)",
    # loss-not-decreasing's, before this check found it: three \s* around two optional words
    "cubic": r"训练集?\s*(?:上的?)?\s*(?:的)?\s*(?:loss|损失)",
    # nested quantifiers over the same letters: exponential
    "nested": r"x(?:\w+\s*)*y",
    # a lazy run, a word, then a run, with no literal to start from: each start rescans the line
    "lazy": r"[^\n]*?foo[^\n]*",
    # the lint's string literal before: a backslash taken alone or with the next character
    "string": r"""(?P<q>["'])(?P<body>(?:\\.|(?!(?P=q)).)*)(?P=q)""",
}
LINEAR = {
    "dataloader": r"(?P<loader>'?\b\w*_?dataloader'?) does not have many workers",
    "error code": r"(?i)\berror\s*(?:\(\s*|=\s*|code\s*(?::\s*)?)(\d{1,5})\b",
    "log keys": QUADRATIC["log keys"].replace(r"\s*[:=]?\s*", r"(?:\s*[:=])?\s*"),
    "cubic": r"训练集?\s*(?:上的?\s*)?(?:的\s*)?(?:loss|损失)",
    "nested": r"\bx\w*(?:\s+\w+)*\s*y",
    "lazy": r"foo[^\n]*",
    "string": r"""(?P<q>["'])(?P<body>(?:\\(?P=q)|(?!(?P=q))[^\n])*)(?P=q)""",
}


@pytest.mark.parametrize("name", QUADRATIC)
def test_the_linearity_check_flags_a_quadratic_pattern(name: str) -> None:
    with deadline(300):
        assert flagged(QUADRATIC[name], re.IGNORECASE)


@pytest.mark.parametrize("name", LINEAR)
def test_the_linearity_check_passes_the_same_pattern_made_linear(name: str) -> None:
    assert not flagged(LINEAR[name], re.IGNORECASE)


def test_the_ways_in_reach_a_quantifier_behind_a_short_literal() -> None:
    """The pumped inputs start with each way into a quantifier, the short ones too: "acc" leads
    the log reader's old key pattern to its blanks as well as "allocated" does."""
    ways = {head for head, unit in ways_in(QUADRATIC["log keys"], re.IGNORECASE) if unit == " "}
    assert "acc" in ways
    assert ("errorcode", " ") in ways_in(QUADRATIC["error code"])


def test_a_megabyte_line_is_diagnosed_quickly(index: Index) -> None:
    line = "RuntimeError: " + "mat1 and mat2 shapes cannot be multiplied (" * 25_000
    with deadline(60):
        diagnose(line, index)
        diagnose("x" * 1_000_000 + "\nValueError: " + "9" * 1_000_000, index)


_STREAM_2GB = """
import os, subprocess, sys
tail = sys.stdin.buffer.read()
block = b"epoch 1 | step 100 | loss 0.4321 | lr 1.0e-03 | data 0.01s\\n" * 20_000
proc = subprocess.Popen([sys.executable, "-m", "diagnoser", "--json"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE)
written = 0
while written < 2 * 1024**3:
    proc.stdin.write(block)
    written += len(block)
proc.stdin.write(tail)
proc.stdin.close()
out = proc.stdout.read()
_, status, usage = os.wait4(proc.pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss, b'"shape-matmul"' in out)
"""


def test_a_2gb_log_streams_in_bounded_memory() -> None:
    """2 GB of training log piped into the CLI, a real traceback at the end: RSS stays small.

    The measuring parent is a fresh small interpreter: a child's ru_maxrss starts from the RSS
    of the process it was forked from, and a pytest worker alone can be far above 200 MB."""
    tail = run_reproduction("shape-matmul")
    result = subprocess.run(
        [sys.executable, "-c", _STREAM_2GB],
        input=(tail.stdout + tail.stderr).encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=900,
    )
    code, maxrss_kib, found = result.stdout.decode().split()
    assert code == "0" and found == "True", result.stderr.decode()[-2000:]
    assert int(maxrss_kib) < 200 * 1024, f"max RSS {int(maxrss_kib) / 1024:.0f} MB"


CODE_PATTERNS = code_patterns()
# Patterns the code only ever matches (anchored at the start, never searched), with the reason:
# a search would rescan from each start, a match reads each character a bounded number of times.
MATCHED_ONLY = {
    # `_is_error`: `_CLASS.match(err.exc_type)`, an exception's printed type name
    r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*$|(?:\w+::)+\w+$",
}


@pytest.mark.parametrize(
    ("pattern", "flags"), [p[1:] for p in CODE_PATTERNS], ids=[p[0] for p in CODE_PATTERNS]
)
def test_every_code_regex_is_linear(pattern: str, flags: int) -> None:
    method = "match" if pattern in MATCHED_ONLY else "search"
    assert not flagged(pattern, flags, method), "x: how much more a 4 times longer run costs"


def test_the_matched_only_patterns_are_only_matched() -> None:
    """Each pattern MATCHED_ONLY lets through is still in the code, and only ever matched."""
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "diagnoser").rglob("*.py"))
    for pattern in MATCHED_ONLY:
        assert pattern in {p for _, p, _ in CODE_PATTERNS}
        names = [w for w, p, _ in CODE_PATTERNS if p == pattern and "." in w]
        assert names, pattern
        name = names[0].rsplit(".", 1)[1]
        uses = re.findall(rf"\b{name}\.(\w+)\(", sources)
        assert uses and set(uses) <= {"match"}, (name, uses)


ADVERSARIAL_PASTES = {
    "spaces": " " * 100_000,
    "letters": "a" * 100_000,
    "slashes": "/" * 100_000,
    "dotted": "Error." * 16_000 + "Error('x')",
    "repr": "RuntimeError('" + "a\\n" * 33_000 + "')",
    "blank lines": ("\n" + " " * 20_000) * 5,
    "separators": " | " * 33_000,
    "key=value": "loss=1 " * 14_000,
}


def _cli_cpu_seconds(paste: str) -> float:
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = cli("--json", stdin=paste)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert result.returncode in (0, 1), result.stderr
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


@pytest.fixture(scope="module")
def ordinary_paste_cpu_seconds() -> float:
    """What the CLI costs on an ordinary paste of the same size: a real training log's lines and a
    traceback, 100 KB (the baseline the adversarial pastes are compared with, in this run)."""
    lines = "".join(
        f"epoch {i // 100} step {i} loss={2.3 / (1 + i / 500):.4f} acc={min(0.99, i / 2000):.3f}\n"
        for i in range(2_000)
    )
    paste = (lines * 2)[:98_000] + (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 12, in <module>\n    out = model(x)\n'
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x10 and 20x5)\n"
    )
    return min(_cli_cpu_seconds(paste) for _ in range(2))


@pytest.mark.parametrize("name", ADVERSARIAL_PASTES)
def test_the_cli_reads_a_100_kb_adversarial_paste_as_fast_as_an_ordinary_one(
    name: str, ordinary_paste_cpu_seconds: float
) -> None:
    """A paste built to make a pattern backtrack costs no more than a few times an ordinary paste
    of the same size, in the same run (a quadratic pattern costs hundreds of times more)."""
    # the least of two runs, as the baseline is: one run on a loaded machine can cost twice its CPU
    used = min(_cli_cpu_seconds(ADVERSARIAL_PASTES[name]) for _ in range(2))
    assert used <= 3 * ordinary_paste_cpu_seconds, (
        f"{name}: {used:.2f} CPU seconds against {ordinary_paste_cpu_seconds:.2f}"
    )
