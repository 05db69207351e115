"""The command as users run it: the JSON contract, languages, colour, exit codes, commands."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diagnoser.cli import MAX_INPUT, build_parser, read_input
from diagnoser.knowledge.groups import GROUPS
from diagnoser.knowledge.index import kb_dir

from .conftest import ENTRIES, ROOT, cli, run_reproduction

CJK = re.compile(r"[\u4e00-\u9fff]")
ANSI = re.compile(r"\x1b\[")


@pytest.fixture(scope="module")
def matmul_output() -> str:
    proc = run_reproduction("shape-matmul")
    return proc.stdout + proc.stderr


def test_json_contract(matmul_output: str) -> None:
    result = cli("--json", stdin=matmul_output)
    assert result.returncode == 0
    out = json.loads(result.stdout)
    first = out["matches"][0]
    assert first["id"] == "shape-matmul"
    assert 0 <= first["score"] <= 100
    assert [m["score"] for m in out["matches"]] == sorted(
        (m["score"] for m in out["matches"]), reverse=True
    )
    # the user's own values and line are handed to tools too
    assert first["values"]["have"] in first["message"]
    assert first["where"]["file"].endswith("shape-matmul.py")


def test_text_quotes_the_users_values_and_line(matmul_output: str) -> None:
    values = re.search(r"\((\d+)x(\d+) and (\d+)x(\d+)\)", matmul_output)
    assert values
    out = cli("--lang", "en", stdin=matmul_output).stdout
    assert f"has {values.group(2)} features per row" in out
    assert f"expects {values.group(3)}" in out
    assert re.search(r"where: \S*shape-matmul\.py:\d+ +`logits = model\(images\)`", out)


@pytest.mark.parametrize("entry_id", [e.id for e in ENTRIES if e.kind == "error"])
def test_chinese_output_for_every_entry(entry_id: str) -> None:
    entry = next(e for e in ENTRIES if e.id == entry_id)
    out = cli("--lang", "zh", stdin=entry.examples[0]).stdout
    assert entry.title.zh in out
    for heading in ("发生了什么", "原因", "怎么修", "复现"):
        assert heading in out
    assert entry.cause.zh.strip().splitlines()[0] in out


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "zh_TW.UTF-8"}, "zh"),
        ({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"}, "en"),
    ],
)
def test_language_comes_from_the_locale(env: dict[str, str], lang: str, matmul_output: str) -> None:
    out = json.loads(cli("--json", stdin=matmul_output, env=env).stdout)
    assert out["lang"] == lang
    assert bool(CJK.search(out["matches"][0]["title"])) == (lang == "zh")


def test_no_colour_when_piped_or_no_color(matmul_output: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    piped = subprocess.run(
        [sys.executable, "-m", "diagnoser"],
        input=matmul_output,
        text=True,
        capture_output=True,
        env=env,
    )
    assert not ANSI.search(piped.stdout)
    assert not ANSI.search(cli(stdin=matmul_output).stdout)  # cli() sets NO_COLOR


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_colour_on_a_terminal_unless_no_color(matmul_output: str, tmp_path: Path) -> None:
    import pty

    sample = tmp_path / "tb.txt"
    sample.write_text(matmul_output)

    def on_tty(env: dict[str, str]) -> bytes:
        pid, fd = pty.fork()
        if pid == 0:  # child: stdout is the terminal
            os.execve(sys.executable, [sys.executable, "-m", "diagnoser", str(sample)], env)
        chunks = []
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        os.waitpid(pid, 0)
        return b"".join(chunks)

    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    assert b"\x1b[" in on_tty(env)
    assert b"\x1b[" not in on_tty({**env, "NO_COLOR": "1"})


def test_exit_codes(tmp_path: Path, matmul_output: str) -> None:
    assert cli(stdin=matmul_output).returncode == 0
    assert cli(stdin="everything is fine\n").returncode == 1
    missing = cli(str(tmp_path / "nope.log"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    assert cli("--lang", "fr").returncode == 2


def test_help_documents_exit_codes() -> None:
    text = build_parser().format_help()
    assert "exit codes:" in text and "77" in text


def test_reads_a_file_argument(tmp_path: Path, matmul_output: str) -> None:
    log = tmp_path / "train.log"
    log.write_text(matmul_output)
    assert json.loads(cli("--json", str(log)).stdout)["matches"][0]["id"] == "shape-matmul"


def test_markdown_format(matmul_output: str) -> None:
    out = cli("--format", "markdown", "--lang", "en", stdin=matmul_output).stdout
    assert out.startswith("## ") and "```" in out


def test_corrupted_kb_gives_one_clear_line(tmp_path: Path, matmul_output: str) -> None:
    kb = tmp_path / "kb"
    shutil.copytree(kb_dir(), kb)
    victim = kb / "shape-matmul.yaml"
    victim.write_text(victim.read_text().replace("kind: error", "kind: eror", 1))
    result = cli("--kb", str(kb), stdin=matmul_output)
    assert result.returncode == 3
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "shape-matmul.yaml: kind: Input should be 'error' or 'symptom'" in lines[0]
    assert "Traceback" not in result.stderr and "pydantic" not in result.stderr


# -- texts that are no PyTorch error get no match --------------------------------------


def _real_output(code: str, error: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True
    )
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith(error), last  # the error we meant, not an ImportError
    return proc.stderr


NOT_TORCH = {
    "KeyError": """
        def get_user(session):
            return session["user_id"]
        get_user({})
    """,
    "django.utils.datastructures.MultiValueDictKeyError": """
        from django.utils.datastructures import MultiValueDict
        def login(post):
            return post["username"]
        login(MultiValueDict({"password": ["x"]}))
    """,
    "ValueError: operands could not be broadcast": """
        import numpy as np
        np.ones((3, 4)) + np.ones((5,))
    """,
    "ValueError: matmul: Input operand 1 has a mismatch": """
        import numpy as np
        np.ones((2, 3)) @ np.ones((4, 5))
    """,
}


@pytest.mark.parametrize("name", NOT_TORCH)
def test_other_libraries_errors_get_no_match(name: str) -> None:
    result = cli("--json", stdin=_real_output(NOT_TORCH[name], name))
    assert json.loads(result.stdout)["matches"] == []
    assert result.returncode == 1


@pytest.mark.parametrize("data", [b"", b"\x00\xff\xfe" * 1000, bytes(range(256)) * 50, b"\n\n\n"])
def test_garbage_never_crashes(data: bytes) -> None:
    result = cli("--json", stdin=data)
    assert result.returncode in (0, 1), result.stderr
    json.loads(result.stdout)


def test_read_input_keeps_the_end_of_a_long_stream() -> None:
    import io

    data = b"x" * (9 * 1024 * 1024) + b"\nRuntimeError: the end"
    kept = read_input(io.BytesIO(data))
    assert kept.endswith(b"RuntimeError: the end") and len(kept) <= MAX_INPUT


# -- the other commands ---------------------------------------------------------------------


def test_list_shows_every_entry_in_both_languages() -> None:
    en = cli("list", "--lang", "en").stdout
    zh = cli("list", "--lang", "zh").stdout
    for entry in ENTRIES:
        assert re.search(rf"^{re.escape(entry.id)} +\S+ +{re.escape(entry.title.en)}$", en, re.M)
        assert entry.title.zh in zh


def test_list_in_chinese_names_the_groups_in_chinese() -> None:
    zh = cli("list", "--lang", "zh").stdout.splitlines()
    for entry in ENTRIES:
        line = next(line for line in zh if line.startswith(f"{entry.id} "))
        assert line[33:].startswith(GROUPS[entry.group]["zh"] + " "), line


def test_chinese_labels_use_full_width_punctuation(matmul_output: str) -> None:
    out = cli("--lang", "zh", "--no-color", stdin=matmul_output).stdout
    assert re.search(r"^  位置：\S+\.py:\d+", out, re.M)
    assert re.search(r"^详情：https://\S+/zh/entries/shape-matmul/$", out, re.M)
    assert "位置:" not in out and "详情:" not in out
    entry = next(e for e in ENTRIES if e.id == "cuda-oom")
    needs = ", ".join(entry.reproduction.needs)
    assert f"（需要：{needs}）" in cli("show", entry.id, "--lang", "zh").stdout
    assert f"(needs: {needs})" in cli("show", entry.id, "--lang", "en").stdout


def test_show_prints_the_whole_entry() -> None:
    """Title, at a glance, cause, fix, reproduction, docs, related, then the known messages."""
    entry = ENTRIES[0]
    out = cli("show", entry.id, "--lang", "en").stdout
    parts = [
        f"# {entry.title.en}",
        "## At a glance",
        entry.glance.cause.en,
        "## Why it happens",
        " ".join(entry.cause.en.split()[:6]),
        "## How to fix it",
        " ".join(entry.fix.en.split()[:6]),
        f"diagnoser repro {entry.id}",
        *(doc.url for doc in entry.docs),
        *(f"- {ref}" for ref in entry.see_also),
        "## Known messages",
        entry.examples[0].split("\n")[0],
    ]
    at = [out.index(part) for part in parts]
    assert at == sorted(at), list(zip(parts, at, strict=True))
    assert cli("show", "no-such-id").returncode == 2


def test_repro_fixed_runs_the_fix() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "diagnoser", "repro", "shape-matmul", "--fixed"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    broken = subprocess.run(
        [sys.executable, "-m", "diagnoser", "repro", "shape-matmul"], capture_output=True, text=True
    )
    assert broken.returncode == 1 and "mat1 and mat2 shapes cannot be multiplied" in broken.stderr


def test_run_passes_output_through_and_diagnoses_the_crash(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text("import torch\nprint('epoch 1')\nx = torch.randn(4, 3) @ torch.randn(5, 2)\n")
    result = cli("run", "--lang", "en", str(script))
    assert result.returncode == 1  # the script's own exit code
    assert "epoch 1" in result.stdout
    assert "Traceback (most recent call last)" in result.stderr  # the original traceback, untouched
    # the diagnosis follows the traceback on stderr, as the exception hook prints it
    assert "[shape-matmul, 100]" in result.stderr
    assert re.search(r"where: \S*train\.py:3", result.stderr)


# Words a user types after `diagnoser`: files, a sentence, the options the plain diagnosis reads
# without argparse, and others that it must leave to argparse (values, abbreviations, mistakes).
_WORDS = [
    "-", "tb.txt", "loss is nan", "显存不足", "", "--json", "--no-color", "--lang", "en", "zh",
    "fr", "--format", "json", "--format=json", "--js", "--lang=zh", "--kb", "kb", "--docs-url",
    "https://x", "--", "-1", "-x", "--no-colour", "--version",
]  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=6))
def test_the_plain_arguments_read_as_argparse_reads_them(argv: list[str]) -> None:
    """Whatever the parser-free reading accepts, argparse reads the same way, and accepts."""
    from diagnoser.cli import _plain_arguments

    plain = _plain_arguments(argv)
    if plain is None:
        return
    try:
        parsed = build_parser().parse_args(argv)
    except SystemExit:
        raise AssertionError(f"argparse refuses {argv}, which the plain reading took") from None
    assert vars(plain) == vars(parsed), argv


def test_the_plain_reading_takes_the_common_commands() -> None:
    from diagnoser.cli import _plain_arguments

    for argv in ([], ["--json"], ["tb.txt", "--lang", "zh"], ["loss", "is", "nan", "--no-color"]):
        assert _plain_arguments(argv) is not None, argv


def test_read_input_gives_a_short_stream_back_whole() -> None:
    """A paste shorter than MAX_INPUT comes back as it is: its errors are not put in front of it
    a second time (a torchrun summary's regrouped segment did, and `--json` listed its errors
    twice, unlike diagnose() and the paste box)."""
    import io

    data = (ROOT / "tests" / "data" / "real" / "torchrun-summary" / "minigpt4.txt").read_bytes()
    assert read_input(io.BytesIO(data)) == data


def test_an_error_early_in_a_big_utf16_log_is_found(tmp_path: Path) -> None:
    """A UTF-16 log (PowerShell's `>`) over the CLI's window: the error near its start is found
    by the streaming reader, as in a UTF-8 log, not only what is in its last bytes."""
    tb = (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8")
    log = tb + "epoch 1 | step 100 | loss 0.4321 | lr 1.0e-03\n" * 150_000
    path = tmp_path / "train.log"
    path.write_bytes(log.encode("utf-16"))
    result = cli("--json", str(path))
    assert "shape-matmul" in [m["id"] for m in json.loads(result.stdout)["matches"]]


def test_a_plain_diagnosis_imports_no_slow_standard_module() -> None:
    """Every module imported counts in a cold start (the 3x goal of README's Speed): `ast`
    (1.5 ms), argparse and the like stay out of the plain `diagnoser --json < file` path."""
    sample = (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8")
    cli("--json", stdin=sample)  # the index and the regex cache are built: a user's next start
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "diagnoser", "--json"],
        input=sample,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert "diagnoser.text.parse" in imported  # the listing is what it seems
    assert not imported & {"ast", "argparse", "inspect", "dataclasses", "typing"}, imported
