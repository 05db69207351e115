"""Shared fixtures. Tests are generated from kb/: a new YAML file needs no new test code."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest

# Each test process compiles its own index and regexes, never the developer's ~/.cache. Set before
# diagnoser is imported: compiled regexes are read at import (diagnoser/knowledge/regex_cache.py).
_CACHE = tempfile.mkdtemp(prefix="diagnoser-test-cache-")
os.environ["DIAGNOSER_CACHE_DIR"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)

from diagnoser.knowledge.index import Index, kb_dir, load_index, reproductions_dir  # noqa: E402
from diagnoser.knowledge.schema import Entry, load_kb  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ENTRIES: list[Entry] = load_kb(kb_dir())  # an invalid kb/ fails collection, loudly
NEEDS_EXIT = 77


@pytest.fixture(scope="session")
def index() -> Index:
    return load_index()


def entry_params(kind: str | None = None) -> list[pytest.param]:  # type: ignore[type-arg]
    return [pytest.param(e, id=e.id) for e in ENTRIES if kind is None or e.kind == kind]


def cli(
    *args: str, stdin: str | bytes = b"", env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `python -m diagnoser ARGS` as a user would, stdin piped in."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    full_env.update({"NO_COLOR": "1", "LANG": "C.UTF-8", **(env or {})})
    proc = subprocess.run(
        [sys.executable, "-m", "diagnoser", *args],
        input=data,
        capture_output=True,
        env=full_env,
        cwd=cwd,
        timeout=120,
    )
    return subprocess.CompletedProcess(
        proc.args,
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


# What costs most is made once per session, not once per pytest-xdist worker: the reproductions'
# outputs (each run imports torch, several train for seconds; half a dozen test modules read them)
# and the built guide. The first process to need one makes it under a lock in this folder; the
# others read it. The folder is made by whichever process imports this first (the controller,
# before it starts the workers, which inherit the variable) and removed by that one at exit.
if "DIAGNOSER_TEST_SHARED" not in os.environ:
    os.environ["DIAGNOSER_TEST_SHARED"] = tempfile.mkdtemp(prefix="diagnoser-test-shared-")
    atexit.register(shutil.rmtree, os.environ["DIAGNOSER_TEST_SHARED"], ignore_errors=True)
_SHARED = Path(os.environ["DIAGNOSER_TEST_SHARED"])


@cache
def run_reproduction(entry_id: str, fixed: bool = False) -> subprocess.CompletedProcess[str]:
    """Run reproductions/<id>.py; its real output (stdout, stderr) is what a user would paste."""
    from filelock import FileLock  # comes with torch

    stem = f"{entry_id}{'--fixed' if fixed else ''}"
    saved = _SHARED / f"{stem}.json"
    with FileLock(_SHARED / f"{stem}.lock"):
        if not saved.exists():
            script = reproductions_dir() / f"{entry_id}.py"
            proc = subprocess.run(
                [sys.executable, str(script), *(["--fixed"] if fixed else [])],
                capture_output=True,
                text=True,
                timeout=300,
                cwd=ROOT,
                env={**os.environ, "PYTHONWARNINGS": "default"},
            )
            record = [proc.args, proc.returncode, proc.stdout, proc.stderr]
            saved.write_text(json.dumps(record), encoding="utf-8")
    args, returncode, stdout, stderr = json.loads(saved.read_text(encoding="utf-8"))
    return subprocess.CompletedProcess(args, returncode, stdout, stderr)


def skip_if_needs(proc: subprocess.CompletedProcess[str]) -> None:
    if proc.returncode == NEEDS_EXIT:
        reason = (
            proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "needs more than a CPU"
        )
        pytest.skip(reason)


# -- the guide: one full build per test process, shared by test_site and test_browser -----------


def build(out: Path, kb: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if kb is not None:
        env["DIAGNOSER_KB"] = str(kb)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


@pytest.fixture(scope="session")
def site_build() -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The one full build of the guide the tests share: where it went, and what it printed."""
    from filelock import FileLock

    out, log = _SHARED / "site", _SHARED / "site.json"
    with FileLock(_SHARED / "site.lock"):
        if not log.exists():
            done = build(out)
            log.write_text(json.dumps([done.args, done.returncode, done.stdout, done.stderr]))
    args, returncode, stdout, stderr = json.loads(log.read_text())
    assert returncode == 0, stdout[-3000:] + stderr[-3000:]
    return out, subprocess.CompletedProcess(args, returncode, stdout, stderr)


@pytest.fixture(scope="session")
def built_site(site_build: tuple[Path, subprocess.CompletedProcess[str]]) -> Path:
    return site_build[0]
