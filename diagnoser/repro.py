"""Run an entry's reproduction script: it fails the way users fail, and `--fixed` shows the fix."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from .index import Entry, reproductions_dir

# The script's exit code when the machine lacks what it needs (a GPU, torchvision): the autotools
# "skipped" convention, which test runners and CI already understand.
EXIT_NEEDS = 77


def script_path(entry: Entry) -> Path:
    return reproductions_dir() / Path(entry.reproduction["script"]).name


def command(entry: Entry, *, fixed: bool) -> list[str]:
    return [sys.executable, str(script_path(entry)), *(["--fixed"] if fixed else [])]


def run(entry: Entry, *, fixed: bool) -> int:
    if importlib.util.find_spec("torch") is None:
        print(
            "diagnoser repro: the reproductions need torch; install it first, e.g. "
            "`pip install torch` (or the CPU build from the PyTorch index).",
            file=sys.stderr,
        )
        return 2
    return subprocess.call(command(entry, fixed=fixed))
