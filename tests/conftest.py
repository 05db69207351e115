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
# diagnoser is imported: the compiled regexes are read at import (diagnoser/regex_cache.py).
_CACHE = tempfile.mkdtemp(prefix="diagnoser-test-cache-")
os.environ["DIAGNOSER_CACHE_DIR"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)

from diagnoser.index import Index, kb_dir, load_index, reproductions_dir  # noqa: E402
from diagnoser.schema import Entry, load_kb  # noqa: E402

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


# Reproductions are the suite's main cost (each imports torch, several train for a few seconds),
# and half a dozen test modules read the same outputs. Each runs once per session: the first
# process to need it (a pytest-xdist worker) runs it under a lock, the others read what it wrote.
# The folder is made by whichever process imports this first (the controller, before it starts
# the workers, which inherit the variable) and removed by that process at exit.
if "DIAGNOSER_TEST_REPRODUCTIONS" not in os.environ:
    os.environ["DIAGNOSER_TEST_REPRODUCTIONS"] = tempfile.mkdtemp(prefix="diagnoser-repro-")
    atexit.register(shutil.rmtree, os.environ["DIAGNOSER_TEST_REPRODUCTIONS"], ignore_errors=True)
_REPRODUCTIONS = Path(os.environ["DIAGNOSER_TEST_REPRODUCTIONS"])


@cache
def run_reproduction(entry_id: str, fixed: bool = False) -> subprocess.CompletedProcess[str]:
    """Run reproductions/<id>.py; its real output (stdout, stderr) is what a user would paste."""
    from filelock import FileLock  # comes with torch

    stem = f"{entry_id}{'--fixed' if fixed else ''}"
    saved = _REPRODUCTIONS / f"{stem}.json"
    with FileLock(_REPRODUCTIONS / f"{stem}.lock"):
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
