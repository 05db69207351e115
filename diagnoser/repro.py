"""Run an entry's reproduction script: it fails the way users fail, and `--fixed` shows the fix."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from .knowledge.index import Entry, reproductions_dir

# The script's exit code when the machine lacks what it needs (a GPU, torchvision, numpy): the
# autotools "skipped" convention, which test runners and CI already understand.
EXIT_NEEDS = 77


def script_path(entry: Entry) -> Path:
    return reproductions_dir() / Path(entry.reproduction["script"]).name


def command(entry: Entry, *, fixed: bool) -> list[str]:
    return [sys.executable, str(script_path(entry)), *(["--fixed"] if fixed else [])]


def run(entry: Entry, *, fixed: bool, lang: str | None = None) -> int:
    if not _installed("torch"):  # found without importing it: that takes seconds
        from .speak.i18n import default_lang
        from .speak.optional import message

        line = message("diagnoser repro", "torch", "torch", lang or default_lang())
        print(line, file=sys.stderr)
        return 2
    return subprocess.call(command(entry, fixed=fixed))


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a finder that refuses it; `None` in sys.modules
        return False
