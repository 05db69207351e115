"""Benchmark of `diagnoser lint` on the official PyTorch examples (shared/corpora/pytorch-examples):

(a) the whole command, `python -m diagnoser lint FILES`, against `python -m compileall -q -f FILES`
    on the same files (byte-compiled into a temporary folder), median of repeated runs;
(b) lines linted per second in one process (parse + every rule).

Usage: python bench/lint_bench.py [--runs N] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def find_corpus() -> Path | None:
    for folder in [ROOT, *ROOT.parents]:
        candidate = folder / "shared" / "corpora" / "pytorch-examples"
        if candidate.is_dir():
            return candidate
    return None


def _median_seconds(cmd: list[str], runs: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--corpus", type=Path, default=find_corpus())
    args = parser.parse_args()
    if args.corpus is None or not args.corpus.is_dir():
        sys.exit("lint benchmark: no corpus (shared/corpora/pytorch-examples); pass --corpus DIR")
    files = sorted(str(p) for p in args.corpus.rglob("*.py"))
    lines = sum(len(Path(f).read_bytes().splitlines()) for f in files)
    with tempfile.TemporaryDirectory() as cache:
        # a fresh pycache prefix: compileall really compiles, and writes nothing into the corpus
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
        compile_s = _median_seconds(
            [sys.executable, "-m", "compileall", "-q", "-f", *files], args.runs, env
        )
        lint_s = _median_seconds(
            [sys.executable, "-m", "diagnoser", "lint", *files], args.runs, env
        )
    print(f"corpus: {len(files)} files, {lines:,} lines ({args.corpus})")
    print(f"compileall -q -f: {compile_s * 1e3:.0f} ms, diagnoser lint: {lint_s * 1e3:.0f} ms")
    print(f"lint ratio: {lint_s / compile_s:.2f}x compileall (median of {args.runs}; goal <= 4x)")

    sys.path.insert(0, str(ROOT))
    from diagnoser.lint import RULES, lint_file

    rules = list(RULES.values())
    paths = [Path(f) for f in files]
    start, done = time.perf_counter(), 0
    while time.perf_counter() - start < 2.0:
        for p in paths:
            lint_file(p, rules)
        done += lines
    print(f"lint throughput: {done / (time.perf_counter() - start):,.0f} lines/s in one process")


if __name__ == "__main__":
    main()
