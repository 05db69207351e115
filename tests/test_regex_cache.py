"""Compiled regular expressions kept across processes: what comes out of the cache is the Pattern
re.compile would have made, and a damaged, foreign or unwritable cache only costs speed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

from .conftest import ROOT

# Named groups, flags, look-around, Unicode classes, repetitions, alternatives: re's compiler
# produces different opcodes for each.
PATTERNS = [
    (r"(?P<a>\d+) x (?P<b>\d+)", 0),
    (r"^\s*File \"(?P<file>[^\"]+)\", line (?P<line>\d+)", 2 | 8),  # IGNORECASE | MULTILINE
    (r"(?<![\w.])nan(?!\w)|inf(?:inity)?", 2),
    (r"[\u3000-\u9fff]+|\w{4,}?", 0),
    (r"(?:a|b(c)?)*d", 16),  # DOTALL
]
TEXTS = ["12 x 34", '  file "/x/y.py", Line 7', "loss nan, infinity", "显存不足 abcdef", "abcbd"]

# Compile PATTERNS with compile_cached in a fresh process; print whether re's own compiler ran for
# them and what each pattern makes of TEXTS.
PROBE = """
import json, sys
import re._compiler
calls = []
original = re._compiler.compile
re._compiler.compile = lambda p, f=0: (calls.append(p), original(p, f))[1]
from diagnoser.knowledge.regex_cache import compile_cached
patterns, texts = json.loads(sys.argv[1])
found = []
for pattern, flags in patterns:
    compiled = compile_cached(pattern, flags)
    assert isinstance(compiled, re.Pattern)
    found.append([[m.groupdict() if m else None, m.group(0) if m else None]
                  for m in map(compiled.search, texts)])
print(json.dumps({"compiled": [p for p, _ in patterns if p in calls], "found": found}))
"""


def probe(cache: Path) -> dict[str, list[object]]:
    env = {**os.environ, "DIAGNOSER_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps([PATTERNS, TEXTS])],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def expected() -> list[list[list[object]]]:
    import re

    return [
        [
            [m.groupdict() if m else None, m.group(0) if m else None]
            for m in map(re.compile(p, f).search, TEXTS)
        ]
        for p, f in PATTERNS
    ]


def test_a_second_process_compiles_nothing_and_matches_the_same(tmp_path: Path) -> None:
    first = probe(tmp_path)
    assert first["compiled"] == [p for p, _ in PATTERNS]  # nothing cached yet
    assert list(tmp_path.glob("regex-*.marshal"))
    second = probe(tmp_path)
    assert second["compiled"] == []  # every pattern came out of the cache
    assert second["found"] == first["found"] == expected()


def test_the_cached_pattern_equals_re_compile(tmp_path: Path) -> None:
    probe(tmp_path)  # fills the cache
    check = (
        "import re; from diagnoser.knowledge.regex_cache import compile_cached, _known; "
        f"ps = {PATTERNS!r}; assert all(k in _known for k in ps); "
        "assert all(compile_cached(p, f) == re.compile(p, f) for p, f in ps)"
    )
    env = {**os.environ, "DIAGNOSER_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr


def test_a_damaged_cache_file_is_compiled_again(tmp_path: Path) -> None:
    probe(tmp_path)
    (cached,) = tmp_path.glob("regex-*.marshal")
    cached.write_bytes(b"\x00garbage" * 100)
    again = probe(tmp_path)
    assert again["found"] == expected()
    assert again["compiled"] == [p for p, _ in PATTERNS]
    assert probe(tmp_path)["compiled"] == []  # and the file was written whole again


def test_foreign_opcodes_are_refused_and_the_pattern_compiled(tmp_path: Path) -> None:
    import marshal

    probe(tmp_path)
    (cached,) = tmp_path.glob("regex-*.marshal")
    data = marshal.loads(cached.read_bytes()[4:])
    for key, kept in list(data.items()):  # each pattern's arguments, marshalled on their own
        flags, code, *rest = marshal.loads(kept)
        data[key] = marshal.dumps((flags, [99999] * len(code), *rest))  # no opcode of _sre's
    raw = marshal.dumps(data)  # with a sound CRC-32: _sre itself refuses these
    cached.write_bytes(zlib.crc32(raw).to_bytes(4, "little") + raw)
    again = probe(tmp_path)
    assert again["found"] == expected()
    assert again["compiled"] == [p for p, _ in PATTERNS]


def test_a_changed_entry_that_sre_would_accept_is_not_trusted(tmp_path: Path) -> None:
    """Opcodes of another valid pattern in one entry: _sre would run them and match differently;
    the file's CRC-32 no longer holds, so nothing in it is used."""
    import marshal

    probe(tmp_path)
    (cached,) = tmp_path.glob("regex-*.marshal")
    raw = cached.read_bytes()
    data = marshal.loads(raw[4:])
    first, second = (PATTERNS[0], PATTERNS[4])
    data[first] = data[second]
    cached.write_bytes(raw[:4] + marshal.dumps(data))  # the old CRC-32
    again = probe(tmp_path)
    assert again["found"] == expected()
    assert again["compiled"] == [p for p, _ in PATTERNS]


def test_an_unwritable_cache_compiles_every_time_without_a_word(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    first = probe(blocker / "cache")  # probe asserts an exit status of 0 and an empty stderr
    assert probe(blocker / "cache") == first
    assert first["found"] == expected()


def test_a_cold_diagnosis_compiles_no_pattern_the_second_time(tmp_path: Path) -> None:
    """Every pattern of the text path goes through the cache: after one run, none is compiled."""
    sample = (ROOT / "samples" / "shape-matmul.txt").read_bytes()
    check = (
        "import runpy, sys; sys.argv = ['diagnoser', '--json']\n"
        "from diagnoser.knowledge import regex_cache\n"
        "try:\n    runpy.run_module('diagnoser', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "sys.stderr.write(repr(sorted(p for p, _ in regex_cache._new)))"
    )
    env = {**os.environ, "DIAGNOSER_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}

    def new_patterns() -> str:
        done = subprocess.run(
            [sys.executable, "-c", check], input=sample, capture_output=True, env=env
        )
        assert b'"shape-matmul"' in done.stdout, done.stderr
        return done.stderr.decode()

    assert new_patterns() != "[]"  # the first run compiles, and keeps what it compiled
    assert new_patterns() == "[]"
