"""Triage benchmarks, as ratios against a baseline measured in the same run.

(a) throughput: `scan_file` over one log, single process, against a bare Python loop over the
    same file's lines (`for line in f: pass`); the goal is at most 3x.
(b) -j scaling: the same bytes split into 4 files, `diagnoser triage -j 1` against `-j 2`.
(c) peak RSS of `diagnoser triage` on a 2 GB log (measured from a fresh small parent).

The log is healthy training output with real tracebacks (the repository's samples) spread
through it, written to a temporary folder and deleted afterwards.

Usage: python bench/triage_bench.py [--gb 2] [--scan-mb 512]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEALTHY = b"".join(
    b"2026-11-24 10:%02d:%02d,123 INFO epoch 3 | step %d | loss %.4f | lr 1.0e-03 | data 0.01s\n"
    % (i // 60 % 60, i % 60, 1000 + i, 2.0 - i * 1e-4)
    for i in range(4000)
)


def write_log(path: Path, size: int) -> None:
    errors = [p.read_bytes() for p in sorted((ROOT / "samples").glob("*.txt"))]
    written = n = 0
    with open(path, "wb") as f:
        while written < size:
            f.write(HEALTHY)
            written += len(HEALTHY)
            if written % (64 << 20) < len(HEALTHY):  # a traceback every 64 MB
                f.write(errors[n % len(errors)])
                n += 1


def _seconds(fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - start


def throughput(path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from diagnoser.knowledge.index import load_index
    from diagnoser.triage.grouping import scan_file

    index = load_index()

    def loop() -> None:
        with open(path, "rb") as f:
            for _ in f:
                pass

    base = min(_seconds(loop) for _ in range(2))
    ours = min(_seconds(lambda: scan_file(str(path), index)) for _ in range(2))
    mb = path.stat().st_size / 2**20
    print(f"line loop: {base:.2f} s ({mb / base:.0f} MB/s)")
    print(f"triage: {ours:.2f} s ({mb / ours:.0f} MB/s)")
    print(f"triage throughput ratio: {ours / base:.2f}x a bare loop over the lines (goal <= 3x)")


def scaling(folder: Path, size: int) -> None:
    for i in range(4):
        write_log(folder / f"rank{i}.log", size // 4)
    cmd = [sys.executable, "-m", "diagnoser", "triage", "--json", str(folder)]
    one = _seconds(lambda: subprocess.run([*cmd, "-j", "1"], capture_output=True, check=True))
    two = _seconds(lambda: subprocess.run([*cmd, "-j", "2"], capture_output=True, check=True))
    print(
        f"-j 1: {one:.2f} s, -j 2: {two:.2f} s, speed-up {one / two:.2f}x on {os.cpu_count()} cores"
    )


_RSS = """
import os, subprocess, sys
proc = subprocess.Popen([sys.executable, "-m", "diagnoser", "triage", "--json", sys.argv[1]],
                        stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
print(usage.ru_maxrss)
"""


def peak_rss(path: Path) -> None:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _RSS, str(path)], capture_output=True, check=True, text=True
    )
    took = time.perf_counter() - start
    gb = path.stat().st_size / 2**30
    print(f"peak RSS on a {gb:.1f} GB log: {int(out.stdout) / 1024:.0f} MB ({took:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gb", type=float, default=2.0, help="size of the RSS log")
    parser.add_argument("--scan-mb", type=int, default=512, help="size of the throughput log")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        log = folder / "train.log"
        write_log(log, args.scan_mb << 20)
        throughput(log)
        (folder / "ranks").mkdir()
        scaling(folder / "ranks", args.scan_mb << 20)
        log.unlink()
        write_log(log, int(args.gb * 2**30))
        peak_rss(log)


if __name__ == "__main__":
    main()
