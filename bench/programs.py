"""Fresh programs written as users write them (tests/data/programs/*.py, each with one mistake
and an `# expect: <entry id>` first line, or `# expect: none` where no entry explains it), run
with the real torch, their output diagnosed.

Unlike the reproductions, these were written apart from the entries, in the shapes users write
(a forgotten flatten in a forward, labels read from a CSV as floats, a model kept in a plain
list): the question is whether the diagnoser names the mistake from the output alone.

Each program runs in a child forked from one process that imported torch once (seconds, not a
minute), with its stdout and stderr sent to a file, exactly as `python prog.py 2>&1` prints.
That process must not have run any torch operation itself: a child forked after torch's thread
pool started can deadlock in its first parallel op. So run it as a script of its own (the test
does: `--json`), never from inside a process that trained something.

Usage: python bench/programs.py [--misses] [--json] [--shard K/N]
"""

from __future__ import annotations

import argparse
import json
import os
import runpy
import signal
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "data" / "programs"
sys.path.insert(0, str(ROOT))


def expected(path: Path) -> str | None:
    """The entry the program's output must be answered with; None for `# expect: none`, a
    program whose mistake no entry explains, which the diagnoser must decline."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    want = first.removeprefix("# expect:").strip()
    return None if want == "none" else want


# Each program runs in a second or two; one that hangs (a deadlock, a DataLoader waiting for a
# worker) is killed by its alarm and counted as a miss, its output as far as it got.
PROGRAM_SECONDS = 180


def run(path: Path) -> str:
    """What `python path 2>&1` prints, from a forked child (torch is already imported here)."""
    with tempfile.TemporaryFile() as out:
        pid = os.fork()
        if pid == 0:  # the child: become `python path`
            code = 1
            signal.alarm(PROGRAM_SECONDS)  # SIGALRM's default action ends the child
            try:
                os.dup2(out.fileno(), 1)
                os.dup2(out.fileno(), 2)
                # new streams on those descriptors: a caller's (pytest's) capture objects are not
                sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
                sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
                sys.argv = [str(path)]
                try:
                    runpy.run_path(str(path), run_name="__main__")
                    code = 0
                except SystemExit as stop:
                    # as Python does: sys.exit("message") prints the message and exits with 1
                    if stop.code is not None and not isinstance(stop.code, int):
                        print(stop.code, file=sys.stderr)
                    code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
                except BaseException as error:  # printed as Python prints it, from the
                    tb = error.__traceback__  # program's own first frame (not this runner's)
                    while tb is not None and tb.tb_frame.f_code.co_filename != str(path):
                        tb = tb.tb_next
                    error.__traceback__ = tb or error.__traceback__  # what Python prints
                    sys.__excepthook__(type(error), error, error.__traceback__)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        os.waitpid(pid, 0)
        out.seek(0)
        return out.read().decode("utf-8", "replace")


def programs(shard: int = 0, shards: int = 1) -> list[Path]:
    """The programs of one shard of `shards` (every program with the default): the suite runs
    the shards side by side, since all of them in one process take minutes."""
    return sorted(PROGRAMS.glob("*.py"))[shard::shards]


def results(shard: int = 0, shards: int = 1) -> list[tuple[str, str | None, str | None, str]]:
    """(program, expected id, first answer or None, output) for every program of the shard."""
    import torch  # noqa: F401  - once, before the children are forked

    from diagnoser import diagnose

    found = []
    for path in programs(shard, shards):
        output = run(path)
        matches = diagnose(output, lang="en")["matches"]
        found.append((path.stem, expected(path), matches[0]["id"] if matches else None, output))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="show each miss and its output")
    parser.add_argument("--json", action="store_true", help="every program's result, as JSON")
    parser.add_argument(
        "--shard", default="0/1", metavar="K/N", help="only the K-th of N shares (0-based)"
    )
    args = parser.parse_args()
    shard, shards = (int(part) for part in args.shard.split("/"))
    if not 0 <= shard < shards:
        parser.error(f"--shard {args.shard}: K must be at least 0 and less than N")
    rows = results(shard, shards)
    if args.json:
        keys = ("program", "expected", "first", "output")
        print(json.dumps([dict(zip(keys, row, strict=True)) for row in rows]))
        return 0
    right = sum(first == want for _, want, first, _ in rows)
    wrong = sum(first not in (None, want) for _, want, first, _ in rows)
    declined = sum(first is None and want is not None for _, want, first, _ in rows)
    print(
        f"{right}/{len(rows)} programs answered right (the expected entry first, or declined when"
        f" none fits), {wrong} wrongly, {declined} declined"
    )
    for name, want, first, output in rows:
        if first != want and args.misses:
            print(f"\n{name}: expected {want}, got {first}\n{output.strip()[-600:]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
