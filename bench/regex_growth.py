"""Which patterns of the knowledge base and the code search super-linearly, and how slow they are.

Every pattern tests/test_robustness.py checks (bench/regex_pumping.py: kb_patterns, code_patterns)
is pumped the same way; each one flagged is then timed on its input at 1,000, 4,000 and 16,000
repetitions, so that a real quadratic (x16 at each step) is told from a disturbed measurement, and
its cost is seen at the lengths the tool reads (lines cut at 10,000 characters, sentences at 5,000,
log lines of metrics at 2,000).

Usage: python bench/regex_growth.py [--kb-only | --code-only] [--match SUBSTRING]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# In place of this folder, where bench/bench.py would shadow the bench package.
sys.path[0] = str(ROOT)

from bench.regex_pumping import (  # noqa: E402
    code_patterns,
    deadline,
    inputs,
    kb_patterns,
    seconds,
    super_linear,
)


def timings(compiled: re.Pattern[str], head: str, unit: str, end: str) -> str:
    out = []
    for n in (1000, 4000, 16000):
        try:
            with deadline(30):
                out.append(f"{seconds(compiled, head + unit * n + end, repeats=3) * 1000:.1f}")
        except TimeoutError:
            out.append(">30000")
            break
    return " / ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kb-only", action="store_true")
    parser.add_argument("--code-only", action="store_true")
    parser.add_argument("--match", default="", help="only patterns or places containing this")
    args = parser.parse_args()
    patterns = [] if args.code_only else kb_patterns()
    patterns += [] if args.kb_only else code_patterns()
    patterns = [p for p in patterns if args.match in p[0] or args.match in p[1]]
    print(f"{len(patterns)} patterns, {sum(len(inputs(p, f)) for _, p, f in patterns)} inputs")
    for where, pattern, flags in patterns:
        compiled = re.compile(pattern, flags)
        for head, unit, end in inputs(pattern, flags):
            ratio = super_linear(compiled, head, unit, end)
            if ratio is not None:
                print(f"\n{where}: {pattern[:300]!r} flags={flags}")
                print(f"  x{ratio:.1f} on {head!r} + {unit!r} x N + {end!r}")
                ms = timings(compiled, head, unit, end)
                print(f"  ms at N = 1k / 4k / 16k: {ms}", flush=True)
                break


if __name__ == "__main__":
    main()
