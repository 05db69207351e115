"""The diagnoser never crashes, never hangs, and keeps its memory bounded, whatever it is fed."""

from __future__ import annotations

import importlib
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diagnoser.knowledge.index import Index
from diagnoser.text.cleanup import decode
from diagnoser.text.match import diagnose

from .conftest import ENTRIES, ROOT, cli, run_reproduction

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
    """A safety net far above what these take: it turns exponential backtracking (hours) into a
    failure instead of a hung suite. The real bound is on CPU time (_linear)."""

    def fail(*_: object) -> None:
        raise TimeoutError(f"took more than {seconds}s")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _kb_patterns() -> list[tuple[str, str]]:
    found = []
    for e in ENTRIES:
        for i, sig in enumerate(e.signatures):
            found.append((f"{e.id}-{i}", sig.pattern))
            if sig.unless:
                found.append((f"{e.id}-{i}-unless", sig.unless))
        for i, pattern in enumerate(e.symptoms.patterns if e.symptoms else []):
            found.append((f"{e.id}-symptom-{i}", pattern))
        # the words that rule a sentence out are searched in every sentence that names the entry
        for rule in ("contradicted_by", "confirmed_by", "ruled_out_by"):
            for i, pattern in enumerate(getattr(e.symptoms, rule) if e.symptoms else []):
                found.append((f"{e.id}-{rule}-{i}", pattern))
    return found


KB_PATTERNS = _kb_patterns()
LINE = 50_000  # characters: a long line of a real log is a few KB; a paste of a repr, tens of KB
# CPU seconds for one search of a 50 KB line. Linear patterns take 0.1-50 ms here; a quadratic one
# takes seconds (the four this test found took 0.9-15 s). CPU time, not wall-clock: a busy machine
# slows the clock, not the work.
CPU_BOUND = 0.3
SEPARATORS = [
    " ",
    "  ",
    "\t",
    ",",
    ", ",
    ":",
    ": ",
    ".",
    "/",
    "\\",
    "_",
    "-",
    "=",
    "'",
    '"',
    "\n",
    "|",
]


def _words(pattern: str) -> list[str]:
    """The pattern's literal words: what a quantifier next to them could rescan (`hidden\\S*` on
    "hiddenhidden...", `\\w*_?dataloader` on "aaaa...")."""
    return re.findall(r"[A-Za-z_]{3,}", re.sub(r"\\.", " ", pattern))[:8]


def _adversarial(pattern: str, size: int = LINE) -> list[str]:
    """Long inputs built from what the pattern looks for: its words repeated (with and without a
    separator), long runs of letters, digits and each separator, shapes like `(1x1x...` and
    `[1, 1, ...`, a near miss (all but the last character), and each way into the pattern
    (_prefixes) followed by a long run that a quantifier after it could rescan."""
    words = _words(pattern)
    blocks = ["a", "1", "x", "1x", "(1x", "[1, ", "A_", *SEPARATORS, *words]
    blocks += [w + sep for w in words for sep in (" ", "_", ".")] + ["".join(words)]
    texts = [b * (size // len(b)) for b in blocks if b]
    texts += [(w * (size // len(w)))[:-1] + "!" for w in words]
    return texts + _after_prefixes(pattern)


# A quadratic pattern is only slow past the text that leads into it: `\berror\s*code\s*:?\s*(\d)`
# rescans a run of blanks only after "error code", which no run of one block contains. Shorter
# than LINE: a quadratic search of 20,000 characters already takes seconds.
PREFIXED_RUN = 20_000
RUNS = [" ", "a", "1"]  # blanks, word characters, digits: what \s*, \w*, \d* and .* take
MAX_PREFIXES = 12


def _after_prefixes(pattern: str) -> list[str]:
    """Each of the pattern's ways in followed by a long run of blanks, of letters and of digits,
    and repeated to a long line."""
    texts = []
    for prefix in _prefixes(pattern):
        texts += [prefix + run * PREFIXED_RUN for run in RUNS]
        texts.append(prefix * (PREFIXED_RUN // len(prefix)))
    return texts


def _sre() -> tuple[Any, Any]:
    """re's own parser and its node kinds (re._parser since Python 3.11, sre_parse before)."""
    try:
        return importlib.import_module("re._parser"), importlib.import_module("re._constants")
    except ImportError:
        return importlib.import_module("sre_parse"), importlib.import_module("sre_constants")


def _prefixes(pattern: str) -> list[str]:
    r"""The shortest texts that match the pattern up to the end of each of its literal fragments,
    one per branch taken (read from the parsed pattern: `error\s*(?:\(|code\s*:?)` gives
    "error", "error(", "errorcode"), longest first."""
    parser, c = _sre()
    try:
        parsed = parser.parse(pattern)
    except re.error:
        return []
    found: set[str] = set()

    def walk(items: list[Any], heads: list[str]) -> list[str]:
        for n, (op, arg) in enumerate(items):
            if op is c.LITERAL:
                heads = [h + chr(arg) for h in heads]
                if n + 1 == len(items) or items[n + 1][0] is not c.LITERAL:
                    found.update(heads)  # the end of a literal fragment
            elif op is c.NOT_LITERAL:
                heads = [h + ("b" if arg == ord("a") else "a") for h in heads]
            elif op is c.ANY:
                heads = [h + "a" for h in heads]
            elif op is c.IN:
                heads = [h + _member(arg, c) for h in heads]
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
                low, _, sub = arg
                for _ in range(min(low, 3)):
                    heads = walk(list(sub), heads)
            elif op is c.SUBPATTERN:
                heads = walk(list(arg[-1]), heads)
            elif op is getattr(c, "ATOMIC_GROUP", None):
                heads = walk(list(arg), heads)
            elif op is c.BRANCH:
                heads = [t for alt in arg[1] for t in walk(list(alt), heads)][:64]
            # anchors, lookarounds and backreferences consume nothing here
        return heads

    walk(list(parsed), [""])
    return sorted(found, key=lambda t: (-len(t), t))[:MAX_PREFIXES]


def _member(items: list[Any], c: Any) -> str:
    """A character the class `[...]` matches."""

    def inside(ch: str) -> bool:
        for op, arg in items:
            if op is c.LITERAL and ch == chr(arg):
                return True
            if op is c.RANGE and arg[0] <= ord(ch) <= arg[1]:
                return True
            if op is c.CATEGORY and re.fullmatch(_CATEGORIES.get(str(arg), "(?!)"), ch):
                return True
        return False

    negated = bool(items) and items[0][0] is c.NEGATE
    if negated:
        items = items[1:]
    for ch in (" ", "a", "1", "_", "-", "/", "x", ".", ":"):
        if inside(ch) != negated:
            return ch
    return "a"


_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}


def _cpu_seconds(compiled: re.Pattern[str], text: str) -> float:
    start = time.process_time()
    compiled.search(text)
    return time.process_time() - start


@pytest.mark.parametrize("pattern", [p for _, p in KB_PATTERNS], ids=[i for i, _ in KB_PATTERNS])
def test_every_kb_regex_is_linear(pattern: str) -> None:
    compiled = re.compile(pattern, re.IGNORECASE)  # how the matcher compiles them
    with _deadline(120):
        slow = {
            text[:24]: round(seconds, 2)
            for text in _adversarial(pattern)
            if (seconds := _cpu_seconds(compiled, text)) > CPU_BOUND
        }
    assert not slow, f"quadratic on 50 KB lines starting with: {slow}"


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
    """Any block built from the pattern's words and separators, repeated to a 50 KB line."""
    _, pattern = KB_PATTERNS[which]
    words = _words(pattern)
    block = "".join(([words[which % len(words)]] if words and word_first else []) + parts)
    if not block:
        return
    text = block * (LINE // len(block))
    with _deadline(120):
        seconds = _cpu_seconds(re.compile(pattern, re.IGNORECASE), text)
    assert seconds <= CPU_BOUND, (pattern, block, seconds)


def test_the_linearity_check_catches_a_quadratic_pattern() -> None:
    """The check can fail: slow-training-dataloader's pattern as it was before `\\b` was added,
    on lines of 20 KB (seconds already; 50 KB would take a minute)."""
    quadratic = re.compile(r"(?P<loader>'?\w*_?dataloader'?) does not have many workers", re.I)
    texts = _adversarial(quadratic.pattern, size=20_000)
    assert any(_cpu_seconds(quadratic, t) > CPU_BOUND for t in texts)


def test_the_linearity_check_reaches_a_quantifier_behind_a_literal() -> None:
    """The fuzzy stage's error-code pattern before f778706: `\\s*:?\\s*` after "error code"
    rescans a run of blanks only once "error" and "code" lead into it, which no run of one block
    holds. The texts built from the pattern's ways in catch it; the others did not."""
    old = re.compile(r"(?i)\berror\s*(?:\(\s*|=\s*|code\s*:?\s*)(\d{1,5})\b")
    assert "errorcode" in _prefixes(old.pattern)
    prefixed = _after_prefixes(old.pattern)
    assert any(_cpu_seconds(old, t) > CPU_BOUND for t in prefixed)
    others = [t for t in _adversarial(old.pattern, size=PREFIXED_RUN) if t not in prefixed]
    assert all(_cpu_seconds(old, t) <= CPU_BOUND for t in others)


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


def _code_patterns() -> list[tuple[str, int]]:
    """Every pattern the engine compiles (compile_cached) on its way through real tracebacks,
    logs and every report format, but the knowledge base's own (tested above)."""
    from diagnoser.knowledge import regex_cache
    from diagnoser.knowledge.index import load_index
    from diagnoser.speak.prompt import to_prompt
    from diagnoser.speak.render import to_markdown, to_text

    index = load_index()
    data = Path(__file__).parent / "data"
    for path in [*(data.parent.parent / "samples").glob("*.txt"), *data.glob("real/*/*.txt")]:
        found = diagnose(path.read_text(encoding="utf-8", errors="replace"), index)
        to_text(found, "en"), to_markdown(found, "zh"), to_prompt(found, "en")
    diagnose("训练时 loss 一直不下降\nepoch 1 loss 2.3 acc 0.1\nepoch 2 loss 2.3 acc 0.1", index)
    kb = {p for _, p in KB_PATTERNS}
    return sorted((p, f) for p, f in regex_cache._made if p not in kb)


CODE_PATTERNS = _code_patterns()


@pytest.mark.parametrize(
    ("pattern", "flags"), CODE_PATTERNS, ids=[p[:40] for p, _ in CODE_PATTERNS]
)
def test_every_code_regex_is_linear(pattern: str, flags: int) -> None:
    compiled = re.compile(pattern, flags)
    with _deadline(120):
        slow = {
            text[:24]: round(seconds, 2)
            for text in _adversarial(pattern)
            if (seconds := _cpu_seconds(compiled, text)) > CPU_BOUND
        }
    assert not slow, f"quadratic on 50 KB lines starting with: {slow}"


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


@pytest.mark.parametrize("name", ADVERSARIAL_PASTES)
def test_the_cli_reads_a_100_kb_adversarial_paste_in_under_a_cpu_second(name: str) -> None:
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = cli("--json", stdin=ADVERSARIAL_PASTES[name])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert result.returncode in (0, 1), result.stderr
    used = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    assert used <= 1.0, f"{name}: {used:.2f} CPU seconds"


def test_the_log_readers_key_pattern_is_linear_after_its_short_keys() -> None:
    """The check above feeds each pattern its twelve longest ways in, which for the log reader's
    many keys are whole matches ("allocatedinf"): a run of blanks after "loss" never reached
    `\\s*[:=]?\\s*`, which took seconds on it."""
    from diagnoser.text.training_log import _KEY_THEN_NUMBER

    with _deadline(120):
        slow = {
            key: round(seconds, 2)
            for key in ("loss", "acc", "epoch", "memory", "loss_cls")
            for run in RUNS
            if (seconds := _cpu_seconds(_KEY_THEN_NUMBER, key + run * PREFIXED_RUN)) > CPU_BOUND
        }
    assert not slow, f"quadratic after: {slow}"
