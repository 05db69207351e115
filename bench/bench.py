"""Benchmarks, reported as ratios against a baseline measured in the same run.

(a) cold start: `diagnoser --json < sample` as a whole process (index already cached), median of
    repeated runs, divided by the median of `python -c pass`.
(b) throughput: tracebacks diagnosed per second in one process, and the cost of a diagnosis as a
    multiple of parsing alone.

Usage: python bench/bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "shape-matmul.txt"


def _median_seconds(cmd: list[str], runs: int, stdin: bytes = b"") -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cold_start(runs: int) -> None:
    sample = SAMPLE.read_bytes()
    diagnose = [sys.executable, "-m", "diagnoser", "--json"]
    subprocess.run(
        diagnose, input=sample, capture_output=True, check=False
    )  # build the index cache
    baseline = _median_seconds([sys.executable, "-c", "pass"], runs)
    ours = _median_seconds(diagnose, runs, sample)
    print(f"cold start: python -c pass {baseline * 1e3:.1f} ms, diagnoser {ours * 1e3:.1f} ms")
    print(f"cold start ratio: {ours / baseline:.2f}x python -c pass (median of {runs})")


def _rate(fn: Callable[[str], object], texts: list[str], seconds: float = 2.0) -> float:
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for text in texts:
            fn(text)
        done += len(texts)
    return done / (time.perf_counter() - start)


def throughput() -> None:
    sys.path.insert(0, str(ROOT))
    from diagnoser.index import load_index
    from diagnoser.match import diagnose
    from diagnoser.parse import parse

    index = load_index()
    texts = [SAMPLE.read_text(encoding="utf-8")] + [ex for e in index.entries for ex in e.examples]
    parse_rate = _rate(parse, texts)
    match_rate = _rate(lambda text: diagnose(text, index), texts)
    print(f"throughput: {match_rate:,.0f} tracebacks/s diagnosed ({len(texts)} distinct texts)")
    print(f"throughput ratio: a diagnosis costs {parse_rate / match_rate:.1f}x parsing alone")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    cold_start(args.runs)
    throughput()


if __name__ == "__main__":
    main()
