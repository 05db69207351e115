"""Benchmarks, each printed as a ratio against its goal and a baseline measured in the same run.

(a) Cold start, as a user installs it: the wheel is built, installed into a fresh venv (not
    editable, not the dev venv), and `diagnoser --json < sample` is timed against `python -c pass`
    of that venv, the two alternated, median of --runs each. Again with a knowledge base of
    SYNTHETIC_ENTRIES entries: start-up must not grow with the knowledge base.
(b) In process: the cost of a diagnosis (`diagnoser.diagnose`, what `--json` prints) as a
    multiple of parsing the same text, median over a corpus of real tracebacks (samples/ and every
    entry's examples, all printed by real torch), and tracebacks diagnosed per second.

Other commands join (a) through COLD_COMMANDS, one function each: a sentence (the fuzzy stage),
also with the larger knowledge base, `diagnoser lint` on a real script and `diagnoser triage` on
a small run of two ranks are there.

Usage: python bench/bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "shape-matmul.txt"
SYNTHETIC_ENTRIES = 500
SENTENCE = "loss is nan after a few steps"
COLD_GOAL = 3.0  # x `python -c pass`
DIAGNOSIS_GOAL = 5.0  # x parsing alone
RATE_GOAL = 10_000  # tracebacks per second


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


# -- (a) cold start ------------------------------------------------------------------------------


# What the wheel is built from; copied to a fresh folder for each build, so that no build/ left
# in the checkout (setuptools reuses it) slips stale modules into the wheel.
WHEEL_SOURCES = ("pyproject.toml", "README.md", "diagnoser", "kb", "reproductions")


def install_wheel(work: Path, name: str, kb: Path | None = None) -> Path:
    """Build the wheel (with `kb` as its knowledge base, else the real one) and install it with
    its dependencies into a fresh venv, as a user installs it; the venv's bin/."""
    source = work / f"src-{name}"
    source.mkdir()
    for part in WHEEL_SOURCES:
        if (ROOT / part).is_dir():
            ignore = shutil.ignore_patterns("__pycache__")
            shutil.copytree(ROOT / part, source / part, ignore=ignore)
        else:
            shutil.copy(ROOT / part, source / part)
    if kb is not None:
        shutil.rmtree(source / "kb")
        shutil.copytree(kb, source / "kb")
    wheels = work / f"wheels-{name}"
    pip = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", "-w", str(wheels), str(source)], check=True)  # with its deps
    venv = work / f"venv-{name}"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / "bin"
    install = ["install", "--no-index", "--find-links", str(wheels), "torch-diagnoser"]
    subprocess.run([str(bin_dir / "python"), *pip[1:], *install], check=True)
    return bin_dir


def synthetic_kb(work: Path, entries: int) -> Path:
    """The real kb/ plus generated error entries up to `entries`: each borrows a real entry's
    texts and number of signatures, with wordings of its own that no real error contains."""
    import yaml

    kb = work / "kb-synthetic"
    shutil.copytree(ROOT / "kb", kb)
    real = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(kb.glob("*.yaml"))]
    errors = [e for e in real if e.get("kind") == "error"]  # alias files have no kind
    for i in range(entries - len(real)):
        model = errors[i % len(errors)]
        entry_id = f"synthetic-{i:03d}"
        signatures = [
            {"pattern": rf"synthetic failure {i}\.{j}: (?P<what>\w+) went wrong"}
            for j in range(len(model["signatures"]))
        ]
        entry = {
            **model,
            "id": entry_id,
            "signatures": signatures,
            "examples": [f"RuntimeError: synthetic failure {i}.0: tensor went wrong"],
            "see_also": [],
        }
        entry.pop("rank", None)  # ranks are unique across the knowledge base
        (kb / f"{entry_id}.yaml").write_text(yaml.safe_dump(entry, allow_unicode=True))
    return kb


def rank_logs(work: Path) -> Path:
    """A small run of two ranks for `diagnoser triage`: training lines, and one rank's error."""
    folder = work / "ranks"
    folder.mkdir()
    healthy = "".join(f"epoch 1 | step {i} | loss {2 - i / 1e3:.4f}\n" for i in range(200))
    (folder / "rank0.log").write_text(healthy + SAMPLE.read_text(encoding="utf-8"))
    (folder / "rank1.log").write_text(healthy)
    return folder


def _time(cmd: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one run. On a shared machine the CPU time is
    the steadier of the two: waiting for a core counts in the one, not in the other."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, input=stdin, capture_output=True, env=env, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


class Venvs:
    """The installed wheels a cold command runs from, and the inputs it reads."""

    def __init__(self, real: Path, synthetic: Path, ranks: Path) -> None:
        self.real, self.synthetic, self.ranks = real, synthetic, ranks


def _diagnoser_json(v: Venvs) -> list[str]:
    return [str(v.real / "diagnoser"), "--json"]


def _diagnoser_json_synthetic(v: Venvs) -> list[str]:
    return [str(v.synthetic / "diagnoser"), "--json"]


def _diagnoser_sentence(v: Venvs) -> list[str]:
    """A sentence no signature knows: the fuzzy stage (rapidfuzz) and the phrase search run."""
    return [str(v.real / "diagnoser"), "--json", SENTENCE]


def _diagnoser_sentence_synthetic(v: Venvs) -> list[str]:
    return [str(v.synthetic / "diagnoser"), "--json", SENTENCE]


def _diagnoser_lint(v: Venvs) -> list[str]:
    """A real training script with one finding (TD030)."""
    script = ROOT / "reproductions" / "view-non-contiguous.py"
    return [str(v.real / "diagnoser"), "lint", str(script)]


def _diagnoser_triage(v: Venvs) -> list[str]:
    return [str(v.real / "diagnoser"), "triage", str(v.ranks)]


# Label -> the command to time. COLD_GOAL is the diagnosis's, with either knowledge base; the
# other commands are reported against the same baseline.
COLD_COMMANDS: dict[str, Callable[[Venvs], list[str]]] = {
    "diagnoser --json < sample": _diagnoser_json,
    f"same, {SYNTHETIC_ENTRIES}-entry kb": _diagnoser_json_synthetic,
    'diagnoser --json "loss is nan..."': _diagnoser_sentence,
    f"same sentence, {SYNTHETIC_ENTRIES}-entry kb": _diagnoser_sentence_synthetic,
    "diagnoser lint script.py": _diagnoser_lint,
    "diagnoser triage 2 rank logs": _diagnoser_triage,
}
GOAL_COMMANDS = ("diagnoser --json < sample", f"same, {SYNTHETIC_ENTRIES}-entry kb")
# Each command, and the same with the larger knowledge base: how much the second grows.
GROWTH = (
    GOAL_COMMANDS,
    ('diagnoser --json "loss is nan..."', f"same sentence, {SYNTHETIC_ENTRIES}-entry kb"),
)


def cold_start(runs: int, work: Path) -> None:
    venvs = Venvs(
        install_wheel(work, "real"),
        install_wheel(work, "synthetic", synthetic_kb(work, SYNTHETIC_ENTRIES)),
        rank_logs(work),
    )
    sample = SAMPLE.read_bytes()
    env = {**os.environ, "DIAGNOSER_CACHE_DIR": str(work / "cache")}
    env.pop("PYTHONPATH", None)
    commands = {"python -c pass": [str(venvs.real / "python"), "-c", "pass"]}
    commands |= {label: make(venvs) for label, make in COLD_COMMANDS.items()}
    for label, cmd in commands.items():  # compile the index caches once; time only real work
        done = subprocess.run(cmd, input=sample, capture_output=True, env=env, check=False)
        if done.returncode not in (0, 1):  # 1: nothing found, still a full run
            raise SystemExit(f"{label}: exit {done.returncode}\n{done.stderr.decode()}")
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for _ in range(runs):  # alternated, so that a busy moment hits all alike
        for label, cmd in commands.items():
            times[label].append(_time(cmd, sample, env))
    wall = {label: statistics.median(t[0] for t in ts) for label, ts in times.items()}
    cpu = {label: statistics.median(t[1] for t in ts) for label, ts in times.items()}
    base_wall, base_cpu = wall.pop("python -c pass"), cpu.pop("python -c pass")
    print(
        f"cold start, wheel in a fresh venv, median of {runs} (wall clock / CPU time): "
        f"python -c pass {base_wall * 1e3:.1f} / {base_cpu * 1e3:.1f} ms"
    )
    for label in wall:
        ratio, cpu_ratio = wall[label] / base_wall, cpu[label] / base_cpu
        goal = (
            f"  (goal <= {COLD_GOAL:.0f}x: "
            f"{_verdict(ratio <= COLD_GOAL)} / {_verdict(cpu_ratio <= COLD_GOAL)})"
            if label in GOAL_COMMANDS
            else ""
        )
        print(
            f"  {label:30} {wall[label] * 1e3:6.1f} / {cpu[label] * 1e3:5.1f} ms  "
            f"{ratio:4.2f}x / {cpu_ratio:4.2f}x{goal}"
        )
    # The two commands ran side by side in each round: the median of their differences round by
    # round is steadier than the difference of their medians, and the spread of those
    # differences (middle half) says how much of it is noise.
    for plain, synthetic in GROWTH:
        print(f"  growth of {plain!r} with {SYNTHETIC_ENTRIES} entries, x python -c pass:")
        for what, axis, base in (("wall", 0, base_wall), ("CPU", 1, base_cpu)):
            differences = sorted(
                (s[axis] - p[axis]) / base
                for s, p in zip(times[synthetic], times[plain], strict=True)
            )
            low, mid, high = statistics.quantiles(differences, n=4)
            goal = "  (goal: none beyond noise)" if plain in GOAL_COMMANDS else ""
            print(
                f"    {what:4} {mid:+.3f}x (middle half of the rounds {low:+.3f}x to {high:+.3f}x)"
                f"{goal}"
            )


# -- (b) in process ------------------------------------------------------------------------------


def _per_call(fn: Callable[[str], object], text: str, seconds: float) -> float:
    """CPU seconds per call: on a shared machine the wall clock also counts the time spent
    waiting for a core, which is not the diagnoser's cost."""
    calls, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        fn(text)
        calls += 1
    return elapsed / calls


def corpus() -> list[str]:
    from diagnoser.knowledge.index import load_index

    examples = [ex for e in load_index().entries for ex in e.examples]
    return [p.read_text(encoding="utf-8") for p in sorted(SAMPLE.parent.glob("*.txt"))] + examples


def in_process(seconds_per_text: float = 0.02) -> None:
    sys.path.insert(0, str(ROOT))
    from diagnoser import diagnose
    from diagnoser.text.parse import parse

    texts = corpus()
    for text in texts:  # warm: regexes compiled, texts of the shown entries read
        diagnose(text, "en")
    ratios, total = [], 0.0
    for text in texts:
        parsing = _per_call(parse, text, seconds_per_text)
        diagnosing = _per_call(lambda t: diagnose(t, "en"), text, seconds_per_text)
        ratios.append(diagnosing / parsing)
        total += diagnosing
    ratio, rate = statistics.median(ratios), len(texts) / total
    print(f"in process, {len(texts)} real tracebacks, CPU time:")
    print(
        f"  a diagnosis costs {ratio:.1f}x parsing alone (median)  "
        f"(goal <= {DIAGNOSIS_GOAL:.0f}x: {_verdict(ratio <= DIAGNOSIS_GOAL)})"
    )
    print(
        f"  {rate:,.0f} tracebacks diagnosed per CPU second  "
        f"(goal >= {RATE_GOAL:,}: {_verdict(rate >= RATE_GOAL)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="diagnoser-bench-") as work:
        cold_start(args.runs, Path(work))
    in_process()


if __name__ == "__main__":
    main()
