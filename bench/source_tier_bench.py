"""What the source tier costs (issue 24): a declined diagnosis with the tier against without it.

(a) Cold, in a fresh interpreter each run: `diagnoser --json` of a PyTorch error no entry
    explains (the CLI's own code path), with the tier and with the tier switched off (the lookup
    replaced by one that finds nothing, so that neither the tier's modules nor its index are
    read), alternated, median of --runs each; printed as the extra milliseconds and
    the ratio. The goal: at most 2 ms more. The same for a matched diagnosis, where the tier is
    never read (its module is not even imported): the difference must be noise.
(b) In process, warm: one lookup (`source_tier.locate`) over real messages torch prints and over
    errors that are not PyTorch's, median and worst; the goal is 1 ms a lookup.

Usage: python bench/source_tier_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECLINED = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 9, in <module>\n'
    "    steps = torch.arange(0, 10, -1)\n"
    "RuntimeError: upper bound and lower bound inconsistent with step sign\n"
)
MATCHED = (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8")
EXTRA_GOAL_MS = 2.0
LOOKUP_GOAL_MS = 1.0

_CLI = """
import sys
if sys.argv[1] == "off":  # as if there were no tier: the lookup never happens
    import diagnoser.text.match as match
    match._located = lambda trace: None
from diagnoser.cli import main
sys.argv = ["diagnoser", "--json"]
try:
    main()
except SystemExit:
    pass
"""


def _once(mode: str, text: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", _CLI, mode], input=text, text=True, capture_output=True, env=env
    )
    return (time.perf_counter() - start) * 1000


def cold(text: str, runs: int) -> tuple[float, float]:
    """Median wall-clock milliseconds of the CLI with the tier and without. The package's
    bytecode is compiled first, as pip does at install (PYTHONDONTWRITEBYTECODE would otherwise
    make every run compile the modules the tier adds, and charge that to it)."""
    import compileall

    compileall.compile_dir(str(ROOT / "diagnoser"), quiet=1)
    on, off = [], []
    _once("on", text), _once("off", text)  # warm the page cache and the compiled index
    for _ in range(runs):
        on.append(_once("on", text))
        off.append(_once("off", text))
    return statistics.median(on), statistics.median(off)


def lookups() -> tuple[float, float, int]:
    sys.path.insert(0, str(ROOT))
    from diagnoser.knowledge import source_tier

    messages = [
        "upper bound and lower bound inconsistent with step sign",
        "shape '[2, 2]' is invalid for input of size 3",
        "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for "
        "tensor number 1 in the list.",
        "Dimension out of range (expected to be in range of [-2, 1], but got 5)",
        "index out of range in self",
        "The expanded size of the tensor (4) must match the existing size (2) at non-singleton "
        "dimension 0.  Target sizes: [4, 3].  Tensor sizes: [2, 3]",
        "grad can be implicitly created only for scalar outputs",
    ]
    data = (ROOT / "tests" / "data" / "not_pytorch_errors.txt").read_text(encoding="utf-8")
    messages += [b.strip().rsplit("\n", 1)[-1] for b in data.split("----") if b.strip()]
    source_tier.locate("warm up the index")
    times = []
    for m in messages:
        exc, _, msg = m.partition(": ")
        start = time.perf_counter()
        for _ in range(20):
            source_tier.locate(msg or m, exc if msg else None)
        times.append((time.perf_counter() - start) * 1000 / 20)
    return statistics.median(times), max(times), len(messages)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=21)
    args = ap.parse_args()
    on, off = cold(DECLINED, args.runs)
    print(
        f"declined error, cold `diagnoser --json`: {on:.1f} ms with the tier, {off:.1f} ms "
        f"without: +{on - off:.2f} ms, {on / off:.3f}x (goal: <= +{EXTRA_GOAL_MS} ms)"
    )
    on, off = cold(MATCHED, args.runs)
    print(
        f"matched error (tier never read): {on:.1f} ms vs {off:.1f} ms: {on - off:+.2f} ms, "
        f"{on / off:.3f}x (goal: noise)"
    )
    median, worst, n = lookups()
    print(
        f"lookup, warm, over {n} messages: median {median:.3f} ms, worst {worst:.3f} ms "
        f"(goal: <= {LOOKUP_GOAL_MS} ms)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
