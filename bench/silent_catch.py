"""How many real silent training errors watch and preflight catch, and whether correct programs
stay quiet (issue 25's targets).

tests/data/silent/faulty/*.py reproduce silent errors from public reports, each in the shape its
reporter wrote it, with diagnoser.watch/preflight added as a user would add them. Their header:

    # expect: <entry id>          the entry a finding must name
    # fault-step: <n>             the 0-based training step (watch's count) where the fault starts
    # source: <url>               the report
    # summary: <one line>
    # ranks: 2                    optional: run as `torchrun --nproc-per-node 2` would

tests/data/silent/correct/*.py are correct training programs that must give no finding at all.

A program is caught when a finding naming its entry appears at a step from the fault's to two
after it (preflight's, before training, count as the step the run is at: 0). Every program runs
in a fresh interpreter (`--child`): never forked from a process that ran torch, which deadlocks.
That child replaces diagnoser.watch and diagnoser.preflight with wrappers that record each
finding and the step it came at (watch's on_finding callable; the user's own on_finding still
gets it), then runs the program as `python prog.py`.

Usage: python bench/silent_catch.py [--jobs N] [--json] [--kind faulty|correct] [--only NAME...]
"""

from __future__ import annotations

import argparse
import json
import os
import runpy
import socket
import subprocess
import sys
import tempfile
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SILENT = ROOT / "tests" / "data" / "silent"
CATCH_WINDOW = 2  # steps after the fault's first step that still count as caught
TIMEOUT_S = 300


@dataclass
class Result:
    program: str
    kind: str  # "faulty" | "correct"
    expect: str | None
    fault_step: int | None
    findings: list[dict[str, Any]] = field(default_factory=list)
    crash: str | None = None  # the last lines of a traceback, or why the run failed

    @property
    def caught(self) -> bool:
        if self.expect is None or self.fault_step is None:
            return False
        last = self.fault_step + CATCH_WINDOW
        return any(
            f["entry"] == self.expect and self.fault_step <= f["step"] <= last
            for f in self.findings
        )


def header(path: Path) -> dict[str, str]:
    """The `# key: value` lines at the top of a program."""
    fields = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("# ") or ":" not in line:
            break
        key, _, value = line[2:].partition(":")
        fields[key.strip()] = value.strip()
    return fields


def programs(kind: str) -> list[Path]:
    return sorted((SILENT / kind).glob("*.py"))


# --- the child: one program, its findings recorded ---------------------------------------------


def child(program: Path, out: Path) -> int:
    import diagnoser
    from diagnoser.runtime import preflight as preflight_module
    from diagnoser.runtime import watch as watch_module
    from diagnoser.runtime.findings import Finding
    from diagnoser.speak.i18n import default_lang

    records: list[dict[str, Any]] = []
    watches: list[Any] = []
    told: set[int] = set()

    def record(tool: str, finding: Finding, step: int) -> None:
        told.add(id(finding))
        records.append(
            {
                "tool": tool,
                "check": finding.check,
                "entry": finding.entry,
                "severity": finding.severity,
                "step": step,
                "message": finding.message("en"),
            }
        )

    def current_step() -> int:
        return max((w.step_count for w in watches), default=0)

    def watch(model: Any, **options: Any) -> Any:
        theirs = options.pop("on_finding", "warn")
        made: list[Any] = []

        def on_finding(finding: Finding) -> None:
            record("watch", finding, made[0].step_count if made else 0)
            if callable(theirs):
                theirs(finding)
            elif theirs == "raise":
                raise diagnoser.TrainingFindingError(finding)
            elif theirs == "warn":  # the line watch itself prints
                line = f"[diagnoser:{made[0].label}] {finding.line(default_lang())}"
                print(line, file=sys.stderr, flush=True)

        made.append(watch_module.watch(model, on_finding=on_finding, **options))
        watches.append(made[0])
        return made[0]

    def preflight(*args: Any, **kwargs: Any) -> Any:
        report = preflight_module.preflight(*args, **kwargs)
        for finding in report.findings:
            record("preflight", finding, current_step())
        return report

    diagnoser.watch = watch
    diagnoser.preflight = preflight
    sys.argv = [str(program)]
    sys.path.insert(0, str(program.parent))
    crash = None
    try:
        runpy.run_path(str(program), run_name="__main__")
    except SystemExit as stop:
        if stop.code not in (None, 0):
            crash = f"exit status {stop.code}"
    except BaseException:
        crash = traceback.format_exc()[-1500:]
    for w in watches:  # findings watch kept without telling (a repeat of a kind already told)
        for finding in w.findings:
            if id(finding) not in told:
                record("watch", finding, int(finding.values.get("step", w.step_count)))
    out.write_text(json.dumps({"findings": records, "crash": crash}), encoding="utf-8")
    return 0


# --- the parent: every program, each in fresh interpreters -------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(path: Path, kind: str) -> Result:
    fields = header(path)
    fault = fields.get("fault-step")
    result = Result(path.stem, kind, fields.get("expect"), int(fault) if fault else None)
    ranks = int(fields.get("ranks", "1"))
    pythonpath = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env: dict[str, str] = {**os.environ, "PYTHONPATH": pythonpath}
    env.setdefault("OMP_NUM_THREADS", "1")  # several programs at once on few cores
    if ranks > 1:  # as torchrun starts them
        env |= {"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(_free_port())}
        env["WORLD_SIZE"] = str(ranks)
    with tempfile.TemporaryDirectory() as tmp:
        outs = [Path(tmp) / f"rank{r}.json" for r in range(ranks)]
        procs = [
            subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--child", str(path), str(out)],
                env={**env, "RANK": str(r), "LOCAL_RANK": str(r)} if ranks > 1 else env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for r, out in enumerate(outs)
        ]
        for proc, out in zip(procs, outs, strict=True):
            try:
                printed, _ = proc.communicate(timeout=TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                printed, _ = proc.communicate()
                result.crash = f"timed out after {TIMEOUT_S} s"
                continue
            if not out.exists():
                result.crash = result.crash or (printed or "")[-1500:] or "no result"
                continue
            done = json.loads(out.read_text(encoding="utf-8"))
            result.findings += done["findings"]
            result.crash = result.crash or done["crash"]
    return result


def results(
    jobs: int, only: list[str] | None = None, kinds: list[str] | None = None
) -> list[Result]:
    todo = [(p, kind) for kind in kinds or ("faulty", "correct") for p in programs(kind)]
    if only:
        todo = [(p, kind) for p, kind in todo if p.stem in only]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda item: run(*item), todo))


def _finding_text(f: dict[str, Any]) -> str:
    return f"{f['check']}@{f['step']} [{f['entry']}]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=2, metavar=("PROGRAM", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--jobs", type=int, default=2, help="programs run at once (default 2)")
    parser.add_argument("--json", action="store_true", help="every program's result, as JSON")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these programs")
    parser.add_argument("--kind", choices=("faulty", "correct"), help="run only this kind")
    args = parser.parse_args()
    if args.child:
        return child(Path(args.child[0]).resolve(), Path(args.child[1]))
    rows = results(args.jobs, args.only, [args.kind] if args.kind else None)
    if args.json:
        print(json.dumps([dict(asdict(r), caught=r.caught) for r in rows], indent=1))
        return 0
    faulty = [r for r in rows if r.kind == "faulty"]
    correct = [r for r in rows if r.kind == "correct"]
    for r in faulty:
        mark = "caught" if r.caught else "MISSED"
        seen = ", ".join(_finding_text(f) for f in r.findings) or "no finding"
        crash = "  CRASH" if r.crash else ""
        print(f"{mark:7} {r.program}: want {r.expect}@{r.fault_step}; got {seen}{crash}")
    for r in correct:
        seen = ", ".join(_finding_text(f) for f in r.findings)
        state = "quiet" if not (r.findings or r.crash) else "NOISY"
        print(f"{state:7} {r.program}{': ' + seen if seen else ''}{'  CRASH' if r.crash else ''}")
        if r.crash:
            print("        " + r.crash.strip().splitlines()[-1])
    caught = sum(r.caught for r in faulty)
    noisy = sum(len(r.findings) for r in correct)
    crashes = sum(r.crash is not None for r in correct)
    share = f"{100 * caught / len(faulty):.0f}%" if faulty else "-"
    print(
        f"\nfaulty: {caught}/{len(faulty)} caught within {CATCH_WINDOW} steps naming the right "
        f"entry ({share}; target >= 85%)\n"
        f"correct: {noisy} findings, {crashes} crashes on {len(correct)} programs (target 0, 0)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
