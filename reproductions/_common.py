"""What every reproduction script shares: the --fixed flag and the "needs" exit code.

Each script runs the user's mistake by default, so torch itself raises the real error, and with
--fixed runs the corrected code and exits 0. When the machine lacks what the family needs (a GPU,
torchvision, numpy), the script says so on stderr and exits with NEEDS (77); the tests skip it with
that reason. A script that needs numpy (the `torch` extra installs it) imports it as

    try:
        import numpy as np
    except ModuleNotFoundError:
        not_installed("numpy", extra="torch")

"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

NEEDS = 77


def fixed_flag(description: str) -> bool:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--fixed", action="store_true", help="run the corrected code instead")
    return bool(parser.parse_args().fixed)


def skip(reason: str) -> NoReturn:
    print(f"SKIP: {reason}", file=sys.stderr)
    sys.exit(NEEDS)


def not_installed(package: str, extra: str) -> NoReturn:
    """Skip for a package that is not installed, saying what to install in the words of
    diagnoser/speak/optional.py (the scripts run without diagnoser, so they are repeated here; a
    test keeps the two the same)."""
    skip(
        f"this reproduction needs {package}, which is not installed: pip install {package} "
        f"(in a clone of torch-diagnoser: pip install '.[{extra}]')"
    )
