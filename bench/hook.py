"""What the exception hook costs, as ratios against a baseline measured in the same run.

(a) start-up: `python -c "import diagnoser.auto; import torch"` against `python -c "import torch"`
    (median CPU time of repeated runs), and the hook alone against `python -c pass`.
(b) at an exception: printing the traceback and the diagnosis (the hook, with the tensors of the
    failing frame) against printing the traceback alone, for a real torch shape error; the first
    exception of a process (which loads the cached KB index) and later ones are reported apart.

Usage: python bench/hook.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import resource
import statistics
import subprocess
import sys
import time
import traceback
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _median_seconds(code: str, runs: int) -> float:
    """The child's CPU time (user + sys): on a shared machine wall time mostly measures the
    neighbours, while the work a start-up does is what the hook adds to."""
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def start_up(runs: int) -> None:
    bare = _median_seconds("pass", runs)
    hook = _median_seconds("import diagnoser.auto", runs)
    torch = _median_seconds("import torch", runs)
    both = _median_seconds("import diagnoser.auto; import torch", runs)
    print(f"start-up CPU: python -c pass {bare * 1e3:.0f} ms, with the hook {hook * 1e3:.0f} ms")
    print(f"start-up CPU: import torch {torch * 1e3:.0f} ms, with the hook {both * 1e3:.0f} ms")
    print(f"start-up ratio: {both / torch:.3f}x python -c 'import torch' (median of {runs})")


def _failing() -> BaseException:
    import torch
    from torch import nn

    model = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(128, 10))
    images = torch.randn(32, 64)
    try:
        model(images)
    except RuntimeError as e:
        return e
    raise AssertionError("the model was meant to fail")


def _timed(fn: Any, exc: BaseException) -> float:
    sink = io.StringIO()
    start = time.perf_counter()
    with redirect_stderr(sink):
        fn(type(exc), exc, exc.__traceback__)
    return time.perf_counter() - start


def at_exception(runs: int) -> None:
    sys.path.insert(0, str(ROOT))
    from diagnoser.live import hook

    # As after any first use: the KB index is compiled and cached (bench.py does the same).
    build = "from diagnoser.knowledge.index import load_index; load_index()"
    subprocess.run([sys.executable, "-c", build], check=True, cwd=ROOT)
    exc = _failing()
    hook.install(lang="en")
    ours = sys.excepthook
    hook.uninstall()
    first = _timed(ours, exc)  # imports the diagnoser's modules and loads the cached index
    plain = statistics.median(_timed(traceback.print_exception, exc) for _ in range(runs))
    warm = statistics.median(_timed(ours, exc) for _ in range(runs))
    print(
        f"at an exception: traceback alone {plain * 1e3:.2f} ms, with the diagnosis "
        f"{warm * 1e3:.1f} ms (first in a process {first * 1e3:.0f} ms)"
    )
    print(
        f"at an exception ratio: {warm / plain:.0f}x printing the traceback alone "
        f"(first: {first / plain:.0f}x; median of {runs})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    start_up(args.runs)
    at_exception(args.runs)


if __name__ == "__main__":
    main()
