"""What every reproduction script shares: the --fixed flag and the "needs" exit code.

Each script runs the user's mistake by default, so torch itself raises the real error, and with
--fixed runs the corrected code and exits 0. When the machine lacks what the family needs (a GPU,
torchvision), the script says so on stderr and exits with NEEDS (77); the tests skip it with that
reason.
"""

from __future__ import annotations

import argparse
import sys

NEEDS = 77


def fixed_flag(description: str) -> bool:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--fixed", action="store_true", help="run the corrected code instead")
    return bool(parser.parse_args().fixed)


def skip(reason: str) -> None:
    print(f"SKIP: {reason}", file=sys.stderr)
    sys.exit(NEEDS)
