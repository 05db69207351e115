"""`diagnoser triage` on real multi-rank output: a four-rank torchrun job (gloo on CPU) where rank 1
hits a real shape error and the other ranks lose their peer. Its console (`--tee 3`, every line
prefixed `[defaultN]:`) and its per-rank files (`--log-dir`) are the inputs; expectations come
from what the run printed, never from text typed here."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from diagnoser.triage.origin import rank_from_path, root_cause, timestamp
from diagnoser.triage.output import ranks_text
from diagnoser.triage.segment import segments

from .conftest import cli, run_reproduction

_TRAIN = """
import logging, time
import torch, torch.distributed as dist

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(rank)
model = torch.nn.Linear(64, 10)
# a loss that falls, as a training's does: a loss of random inputs and no optimizer is noise that
# jumps up and down, which the log reader rightly calls oscillating (a group of its own)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(20):
    loss = model(torch.randn(8, 64)).pow(2).mean()
    logging.info("step %d loss %.4f", step, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    dist.all_reduce(loss.detach())
if rank == 1:
    time.sleep(0.3)  # the others are already waiting in the next collective
    model(torch.randn(8, 128))
dist.all_reduce(torch.ones(1))
time.sleep(60)
"""


@dataclass(frozen=True)
class Run:
    console: Path  # torchrun's own output with --tee 3: `[default1]:[rank1]: Traceback ...`
    logs: Path  # --log-dir: .../attempt_0/<rank>/stderr.log
    folder: Path


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    folder = tmp_path_factory.mktemp("torchrun")
    (folder / "train.py").write_text(textwrap.dedent(_TRAIN))
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "torch.distributed.run", "--standalone"),
            *("--nproc-per-node", "4", "--tee", "3", "--log-dir", str(folder / "logs")),
            "train.py",
        ],
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=240,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert proc.returncode != 0 and "ChildFailedError" in proc.stderr, proc.stderr[-3000:]
    console = folder / "console.txt"
    console.write_text(proc.stdout + proc.stderr)
    return Run(console, folder / "logs", folder)


def _triage(*args: str) -> dict[str, Any]:
    proc = cli("triage", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def _failing_rank_error(run: Run) -> str:
    """The shape error exactly as rank 1 printed it (behind torch's own `[rank1]: ` prefix)."""
    (stderr,) = run.logs.glob("*/attempt_0/1/stderr.log")
    (line,) = [x for x in stderr.read_text().splitlines() if "RuntimeError" in x]
    return line[line.index("RuntimeError") :]


def _check_first_failure(data: dict[str, Any], run: Run) -> None:
    first = data["first_failure"]
    assert first["id"] == "shape-matmul" and first["rank"] == 1
    assert first["message"] == _failing_rank_error(run)
    roles = {g["role"] for g in data["groups"]}
    assert roles <= {"first_failure", "follower", None}
    (failed,) = [g for g in data["groups"] if g["role"] == "first_failure"]
    assert failed["ranks"] == [1] and failed["count"] == 1
    # The survivors lost their peer: one group, every rank that printed it, none of them rank 1.
    lost = [g for g in data["groups"] if "Connection closed by peer" in g["message"]]
    assert len(lost) == 1, [g["message"] for g in data["groups"]]
    assert lost[0]["role"] == "follower" and lost[0]["id"] == "nccl-error"
    assert lost[0]["ranks"] and set(lost[0]["ranks"]) <= {0, 2, 3}
    assert lost[0]["count"] == len(lost[0]["ranks"])  # identical tracebacks collapsed


def test_console_of_a_torchrun_job(run: Run) -> None:
    data = _triage(str(run.console))
    _check_first_failure(data, run)
    ids = [g["id"] for g in data["groups"]]
    assert "torchrun-child-failed" in ids
    launcher = data["groups"][ids.index("torchrun-child-failed")]
    assert launcher["role"] == "follower" and launcher["ranks"] == []
    # the first failure's line is where rank 1 printed its error in the console
    lines = run.console.read_text().splitlines()
    assert lines[data["first_failure"]["line"] - 1].endswith(_failing_rank_error(run))
    # groups come in order of first occurrence (the console has no times on its tracebacks)
    firsts = [g["first"]["line"] for g in data["groups"]]
    assert firsts == sorted(firsts)


def test_per_rank_files_in_parallel(run: Run) -> None:
    """The --log-dir folder (ranks from its attempt_0/<rank>/ layout), read with -j 2, agrees with
    -j 1; the first failure is rank 1's even though other ranks' files come first."""
    data = _triage("-j", "2", str(run.logs))
    _check_first_failure(data, run)
    assert data["first_failure"]["file"].endswith("attempt_0/1/stderr.log")
    assert data["first_failure"]["time"] is not None
    assert _triage(str(run.logs))["groups"] == data["groups"]


def test_compressed_inputs_and_globs(run: Run, tmp_path: Path) -> None:
    import zstandard

    plain = sorted(run.logs.glob("*/attempt_0/*/stderr.log"))
    for path in plain:
        rank = path.parent.name
        data = path.read_bytes()
        if int(rank) % 2:
            (tmp_path / f"rank{rank}.log.gz").write_bytes(gzip.compress(data))
        else:
            (tmp_path / f"rank{rank}.log.zst").write_bytes(zstandard.compress(data))
    data = _triage(str(tmp_path / "rank*.log.*"))
    _check_first_failure(data, run)
    assert data["first_failure"]["file"].endswith("rank1.log.gz")


def test_markdown_and_text_tables(run: Run) -> None:
    md = cli("triage", "--format", "markdown", "--lang", "en", str(run.console)).stdout
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    assert rows[0] == "| family | count | ranks | first seen | explanation |"
    assert rows[2].startswith("| **`shape-matmul`** | 1 | 1 |")
    assert "## First failure" in md and "### How to fix it" in md
    text = cli("triage", "--lang", "zh", str(run.console)).stdout
    assert text.splitlines()[1].startswith("* shape-matmul")
    assert "最早的报错：" in text and "怎么修" in text


def test_bad_input_is_a_clear_error(tmp_path: Path) -> None:
    proc = cli("triage", str(tmp_path / "missing.log"))
    assert proc.returncode == 2 and "missing.log: no such file or folder" in proc.stderr
    proc = cli("triage", str(tmp_path / "*.log"))
    assert proc.returncode == 2 and "no file matches" in proc.stderr
    damaged = tmp_path / "rank0.log.gz"
    damaged.write_bytes(gzip.compress(b"step 1 loss 0.5\n" * 1000)[:-40])
    proc = cli("triage", str(damaged))
    assert proc.returncode == 1 and "cannot read to the end" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_errors_no_entry_explains_group_by_their_masked_message(tmp_path: Path) -> None:
    """Real JSONDecodeErrors from three ranks: no entry explains them; the two with the same
    wording at other positions are one group (id null), the third wording is another."""
    for rank, text in enumerate(["{", '{"a": 1,', "[1, 2"]):
        proc = subprocess.run(
            [sys.executable, "-c", "import json, sys; json.loads(sys.argv[1])", text],
            capture_output=True,
            text=True,
        )
        (tmp_path / f"rank{rank}.log").write_text(proc.stderr)
    groups = _triage(str(tmp_path))["groups"]
    found = [(g["id"], g["count"], g["ranks"]) for g in groups]
    assert found == [(None, 2, [0, 1]), (None, 1, [2])]
    assert "Expecting property name" in groups[0]["message"]


def test_symptoms_of_a_training_log(tmp_path: Path) -> None:
    """The nan-loss reproduction's real log: a symptom group, no first failure (no exception)."""
    proc = run_reproduction("nan-loss")
    (tmp_path / "rank0.log").write_text(proc.stdout + proc.stderr)
    data = _triage(str(tmp_path))
    assert [(g["id"], g["kind"], g["ranks"]) for g in data["groups"]] == [
        ("nan-loss", "symptom", [0])
    ]
    assert data["first_failure"] is None
    # a group read from the log has no line: the page names its file alone, never "file:None"
    assert data["groups"][0]["first"]["line"] is None
    page = cli("triage", "--format", "html", str(tmp_path))
    assert page.returncode == 0 and "rank0.log" in page.stdout, page.stderr
    assert "None" not in page.stdout


def test_metrics_named_like_errors_are_no_errors(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("".join(f"epoch {i}\nval_error: 0.{i}\ntrain_error: 0.{i}\n" for i in range(50)))
    proc = cli("triage", "--json", str(log))
    assert proc.returncode == 1 and json.loads(proc.stdout)["groups"] == []


# -- an error in the middle of a 1 GB log --------------------------------------------------------


_MEASURED = """
import os, subprocess, sys
with open(sys.argv[2], "wb") as out:
    proc = subprocess.Popen([sys.executable, "-m", "diagnoser", "triage", "--json", sys.argv[1]],
                            stdout=out)
    _, status, usage = os.wait4(proc.pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""


def _triage_measured(path: Path, out: Path) -> tuple[dict[str, Any], int]:
    """`diagnoser triage --json PATH` and its peak RSS in bytes, measured from a fresh small
    parent (a forked child's ru_maxrss starts from its parent's RSS)."""
    proc = subprocess.run(
        [sys.executable, "-c", _MEASURED, str(path), str(out)], capture_output=True, text=True
    )
    code, rss_kib = proc.stdout.split()
    assert code == "0", proc.stderr[-2000:]
    return json.loads(out.read_text()), int(rss_kib) * 1024


def test_error_in_the_middle_of_a_gigabyte(run: Run, tmp_path: Path) -> None:
    """Half a gigabyte of the run's own healthy lines, rank 1's error, another half, and a later
    different error at the very end: triage finds both; the plain diagnoser still answers about
    the last one (the failure that stopped the run) but sees the earlier one too."""
    (stderr,) = run.logs.glob("*/attempt_0/1/stderr.log")
    failing = stderr.read_bytes()
    healthy = b"".join(
        line + b"\n"
        for line in run.console.read_bytes().splitlines()
        if b" INFO step " in line and b"[default0]" in line
    )
    assert healthy
    end = run_reproduction("batch-size-mismatch")
    block = healthy * max(1, (4 << 20) // len(healthy))
    path = tmp_path / "big.log"
    half = 512 << 20
    error_line = 0
    try:
        with open(path, "wb") as f:
            written = lines = 0
            while written < half:
                f.write(block)
                written += len(block)
                lines += block.count(b"\n")
            f.write(failing)
            error_line = lines + failing[: failing.index(b"RuntimeError")].count(b"\n") + 1
            written = 0
            while written < half:
                f.write(block)
                written += len(block)
            f.write((end.stdout + end.stderr).encode())
        data, rss = _triage_measured(path, tmp_path / "out.json")
        assert rss < 300 << 20, f"max RSS {rss >> 20} MB"
        by_id = {g["id"]: g for g in data["groups"]}
        assert by_id["shape-matmul"]["first"]["line"] == error_line
        assert by_id["batch-size-mismatch"]["count"] == 1
        plain = json.loads(cli("--json", str(path)).stdout)
        ids = [m["id"] for m in plain["matches"]]
        assert ids[0] == "batch-size-mismatch" and "shape-matmul" in ids
    finally:
        path.unlink(missing_ok=True)


# -- pieces ----------------------------------------------------------------------------------------


def test_ranks_and_times_from_the_run(run: Run) -> None:
    text = run.console.read_text()
    lines = text.splitlines()
    rank, at = root_cause(lines)
    assert rank == 1 and at is not None  # torchrun's "Root Cause" block names the failed rank
    glog = next(line for line in lines if re.match(r"[WE]\d{4} ", line))
    assert timestamp(glog) is not None
    logged = next(line for line in lines if " INFO step " in line)
    found = timestamp(logged)
    assert found is not None and found.strftime("%Y-%m-%d %H:%M:%S") in logged
    assert rank_from_path("job/rank3.log") == 3
    assert rank_from_path("job/node2/worker5.out") == "node2/worker5"
    assert rank_from_path("logs/run/attempt_0/7/stderr.log") == 7
    assert rank_from_path("train.log") is None
    assert ranks_text([*range(63), 70, "node2/worker5"]) == "0–62, 70, node2/worker5"


def test_segments_keep_exact_line_numbers_across_blocks(run: Run, monkeypatch: Any) -> None:
    """Whatever the block size, each segment's lines are the stream's lines at its numbers."""
    import diagnoser.triage.segment as segment

    data = run.console.read_bytes() * 3
    lines = data.split(b"\n")
    for block in (1 << 20, 4096, 97):
        monkeypatch.setattr(segment, "BLOCK", block)
        found = list(segments(__import__("io").BytesIO(data)))
        assert len(found) >= 3
        for seg in found:
            start = seg.first_line - 1
            assert list(seg.lines) == lines[start : start + len(seg.lines)]


def test_progress_bar_only_on_a_terminal_after_a_second(monkeypatch: Any) -> None:
    import io

    from diagnoser.triage import progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert progress.progress_for(100, io.StringIO()) is None  # not a terminal: nothing
    clock = [1000.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    screen = Terminal()
    bar = progress.progress_for(100, screen)
    assert bar is not None
    bar(10)
    assert screen.getvalue() == ""  # under a second: quiet
    clock[0] += 1.5
    bar(40)
    assert "50%" in screen.getvalue()
    bar.close()
    assert screen.getvalue().endswith("\r")


# -- HTML, in a real browser ----------------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")


def test_html_page_in_chromium(run: Run, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            raise RuntimeError("CI needs Chromium at /usr/bin/chromium for the browser tests")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    page_file = tmp_path / "triage.html"
    page_file.write_text(cli("triage", "--format", "html", "--lang", "en", str(run.logs)).stdout)
    data = _triage(str(run.logs))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        page = browser.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: None if r.url.startswith("file:") else errors.append(r.url))
        page.goto(page_file.as_uri())
        rows = page.locator("tbody tr")
        assert rows.count() == len(data["groups"])
        assert page.locator("tr.first code").inner_text() == "shape-matmul"
        # one dot per rank and group on the timeline; the first failure's is drawn larger
        dots = page.locator("#timeline circle.failure")
        assert dots.count() == sum(len(g["ranks"]) for g in data["groups"] if g["kind"] == "error")
        big = page.locator('#timeline circle[r="8"]')
        assert big.count() == 1 and "rank 1" in big.locator("title").text_content()  # type: ignore[operator]
        assert page.locator("#timeline").bounding_box()["width"] > 200  # type: ignore[index]
        assert "mat1 and mat2" in page.locator("#diagnosis").inner_text()
        browser.close()
    assert errors == []  # self-contained: no console errors, nothing fetched


# -- Spark ----------------------------------------------------------------------------------------


def test_spark_engine_agrees_with_the_local_one(run: Run) -> None:
    pytest.importorskip("pyspark")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        if os.environ.get("CI") == "true":
            raise RuntimeError("CI needs Java 17+ for the Spark engine's test")
        pytest.skip("Spark needs Java 17+")
    from pyspark.sql import SparkSession

    from diagnoser.triage import triage
    from diagnoser.triage.spark import groups_dataframe

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "512m")
        .getOrCreate()
    )
    try:
        rows = groups_dataframe(spark, str(run.logs / "*" / "attempt_0" / "*")).collect()
    finally:
        spark.stop()
    local = triage([str(run.logs)])
    assert [(r.id, r["count"], r.ranks, r.first_file, r.first_line, r.role) for r in rows] == [
        (g.id, g.count, [str(x) for x in g.ranks], g.first.file, g.first.line, local.role(g))
        for g in local.groups
    ]
    assert [r.id for r in rows if r.role == "first_failure"] == ["shape-matmul"]


def test_damaged_cut_off_and_wide_inputs_are_read_or_reported(tmp_path: Path) -> None:
    """A .zst cut in the middle of a frame is reported (zstandard alone takes it for complete)
    and what it held before is still read; damaged .zst data is one line, no traceback; a UTF-16
    log (Windows PowerShell's `>`) is read like any other."""
    import zstandard

    tb = (Path(__file__).parent.parent / "samples" / "shape-matmul.txt").read_bytes()
    frame = zstandard.compress(b"step 1 loss 0.5\n" * 50_000 + tb)
    (tmp_path / "cut.log.zst").write_bytes(frame[: len(frame) * 6 // 10])
    damaged = bytearray(frame)
    damaged[100:140] = b"\xff" * 40
    (tmp_path / "damaged.log.zst").write_bytes(bytes(damaged))
    (tmp_path / "wide.log").write_bytes(tb.decode("utf-8").encode("utf-16"))
    cut = cli("triage", "--json", str(tmp_path / "cut.log.zst"))
    assert "ends in the middle of a frame" in cut.stderr and "Traceback" not in cut.stderr
    assert json.loads(cut.stdout)["bytes"] > 0
    bad = cli("triage", "--json", str(tmp_path / "damaged.log.zst"))
    assert "damaged .zst data" in bad.stderr and "Traceback" not in bad.stderr
    wide = json.loads(cli("triage", "--json", str(tmp_path / "wide.log")).stdout)
    assert [g["id"] for g in wide["groups"]] == ["shape-matmul"]


def test_links_are_read_once_and_loops_are_not_followed(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "rank0.log").write_text("step 1 loss 0.5\n")
    (logs / "again.log").symlink_to(logs / "rank0.log")
    (logs / "loop").symlink_to(logs)  # a folder that contains itself
    for arg in (str(logs), str(tmp_path / "**" / "*.log")):
        data = json.loads(cli("triage", "--json", arg).stdout)
        assert data["files"] == 1, (arg, data["files"])


def test_an_unreadable_folder_is_reported(tmp_path: Path, monkeypatch: Any) -> None:
    """What os.walk meets when a folder may not be read (as a user, not root, would): a problem
    in the report, not a folder silently skipped."""
    from diagnoser.triage.inputs import expand

    (tmp_path / "ok.log").write_text("step 1 loss 0.5\n")
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "rank1.log").write_text("step 1 loss 0.5\n")
    scandir = os.scandir

    def refusing(path: Any = ".") -> Any:
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    problems: list[str] = []
    assert expand([str(tmp_path)], problems) == [str(tmp_path / "ok.log")]
    assert problems == [f"{tmp_path / 'locked'}: folder not read: Permission denied"]


def test_a_killed_worker_is_noticed_and_its_files_read_again(tmp_path: Path) -> None:
    """A worker killed mid-read (as the OOM killer would) does not hang the run: its file is read
    again in the parent and the report says so."""
    tb = (Path(__file__).parent.parent / "samples" / "shape-matmul.txt").read_text()
    for i in range(3):
        (tmp_path / f"rank{i}.log").write_text(tb)
    script = (
        "import os, signal, sys\n"
        "import diagnoser.triage.local as local\n"
        "real = local._scan_in_worker\n"
        "def dying(task):\n"
        "    if task[0].endswith('rank1.log'):\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "    return real(task)\n"
        "local._scan_in_worker = dying\n"
        "from diagnoser.cli import main\n"
        "sys.exit(main(['triage', '--json', '-j', '2', *sys.argv[1:]]))\n"
    )
    (tmp_path / "kill.py").write_text(script)
    proc = subprocess.run(
        [
            sys.executable,
            str(tmp_path / "kill.py"),
            *(str(tmp_path / f"rank{i}.log") for i in range(3)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)},
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "a worker process died" in proc.stderr
    assert json.loads(proc.stdout)["files"] == 3


def test_an_invalid_knowledge_base_is_one_line_and_exit_3(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "broken.yaml").write_text("id: broken\nkind: error\n")
    (tmp_path / "x.log").write_text("step 1 loss 0.5\n")
    proc = cli("triage", "--kb", str(kb), str(tmp_path / "x.log"))
    assert proc.returncode == 3 and "invalid knowledge base" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_gz_whose_deflate_data_is_damaged_is_one_line(tmp_path: Path) -> None:
    """Damage inside the compressed data makes zlib raise its own error (not an OSError): the
    file is reported, the other files read."""
    data = bytearray(gzip.compress(b"step 1 loss 0.5\n" * 5000))
    data[30:60] = bytes((i * 37 + 11) % 256 for i in range(30))
    (tmp_path / "rank0.log.gz").write_bytes(bytes(data))
    tb = (Path(__file__).parent.parent / "samples" / "shape-matmul.txt").read_bytes()
    (tmp_path / "rank1.log").write_bytes(tb)
    proc = cli("triage", "--json", str(tmp_path))
    assert "Traceback (most recent call last)" not in proc.stderr, proc.stderr
    assert "rank0.log.gz" in proc.stderr
    assert [g["id"] for g in json.loads(proc.stdout)["groups"]] == ["shape-matmul"]


def test_a_spark_task_reports_a_damaged_file_instead_of_failing_the_job() -> None:
    """What each Spark task runs on one file's bytes: a damaged .gz gives a result with its
    problem (the driver's report lists it) rather than an exception that fails the whole job;
    a UTF-16 file is read as text, as the local engine reads it."""
    from diagnoser.triage.spark import _scan

    data = bytearray(gzip.compress(b"step 1 loss 0.5\n" * 5000))
    data[30:60] = bytes((i * 37 + 11) % 256 for i in range(30))
    damaged = _scan(("file:/logs/rank0.log.gz", bytes(data)), None)
    assert damaged.problem and "rank0.log.gz" in damaged.problem
    tb = (Path(__file__).parent.parent / "samples" / "shape-matmul.txt").read_text()
    wide = _scan(("file:/logs/rank1.log", tb.encode("utf-16")), None)
    assert [g.id for g in wide.groups.values()] == ["shape-matmul"]
