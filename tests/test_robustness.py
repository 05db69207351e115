"""The diagnoser never crashes, never hangs, and keeps its memory bounded, whatever it is fed."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diagnoser.cleanup import decode
from diagnoser.index import Index
from diagnoser.match import diagnose

from .conftest import ENTRIES, ROOT, run_reproduction

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


@contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    """A generous bound, far above the milliseconds these take, so it never flakes: it exists
    only to turn catastrophic backtracking (minutes) into a failure instead of a hung suite."""

    def fail(*_: object) -> None:
        raise TimeoutError(f"took more than {seconds}s")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _patterns() -> list[pytest.param]:  # type: ignore[type-arg]
    found = []
    for e in ENTRIES:
        for i, sig in enumerate(e.signatures):
            found.append(pytest.param(sig.pattern, id=f"{e.id}-{i}"))
            if sig.unless:
                found.append(pytest.param(sig.unless, id=f"{e.id}-{i}-unless"))
        for i, pattern in enumerate(e.symptoms.patterns if e.symptoms else []):
            found.append(pytest.param(pattern, id=f"{e.id}-symptom-{i}"))
    return found


def _adversarial(pattern: str) -> list[str]:
    """Long inputs from the pattern's own alphabet: its literal characters, digits, spaces."""
    alphabet = sorted(set(re.sub(r"\\.|[\[\](){}?*+|^$]", "", pattern)) | set("0 9x,."))
    words = "".join(alphabet)
    return [
        words * (20_000 // max(len(words), 1)),
        "a" * 20_000,
        " ".join(["1"] * 10_000),
        "(" + "1x" * 10_000,
        "[" + "1, " * 7_000,
        words[: len(words) // 2] * (20_000 // max(len(words) // 2, 1)) + "!",
    ]


@pytest.mark.parametrize("pattern", _patterns())
def test_no_kb_regex_backtracks_catastrophically(pattern: str) -> None:
    compiled = re.compile(pattern, re.IGNORECASE)
    with _deadline(20):
        for text in _adversarial(pattern):
            compiled.search(text)


def test_a_megabyte_line_is_diagnosed_quickly(index: Index) -> None:
    line = "RuntimeError: " + "mat1 and mat2 shapes cannot be multiplied (" * 25_000
    with _deadline(60):
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
