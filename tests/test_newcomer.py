"""What a newcomer meets: the CLI with nothing piped, a sentence as an argument, a mistyped id,
and answers that must quote what the paste already holds. Texts: real output, tests/data/real."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from .conftest import cli
from .test_real import _read

REAL = Path(__file__).parent / "data" / "real"


def _paste(path: Path) -> str:
    """A real paste without its header lines (# source:, # expect: ...)."""
    return _read(path)[1]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize(("lang", "words"), [("C.UTF-8", "Ctrl-D"), ("zh_CN.UTF-8", "粘贴")])
def test_a_terminal_with_nothing_piped_is_told_how_to_paste(lang: str, words: str) -> None:
    import pty

    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    pid, fd = pty.fork()
    if pid == 0:  # child: stdin, stdout and stderr are the terminal
        os.execve(sys.executable, [sys.executable, "-m", "diagnoser"], {**env, "LANG": lang})
    seen = b""
    while b"Ctrl-Z" not in seen:  # the hint's last words, in both languages
        chunk = os.read(fd, 4096)
        assert chunk, seen
        seen += chunk
    os.write(fd, b"\x04")  # Ctrl-D on an empty line: end of input
    try:
        while os.read(fd, 4096):
            pass
    except OSError:
        pass
    _, status = os.waitpid(pid, 0)
    assert words in seen.decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 1  # nothing pasted: no entry


def test_a_piped_stdin_gets_no_hint() -> None:
    assert "Ctrl-D" not in cli(stdin="loss is nan").stderr


@pytest.mark.parametrize("args", [("loss is nan",), ("loss", "is", "nan")])
def test_an_argument_that_is_no_file_is_diagnosed_as_text(args: tuple[str, ...]) -> None:
    out = json.loads(cli(*args, "--json").stdout)
    assert out["matches"][0]["id"] == "nan-loss"


def test_a_missing_file_is_still_reported(tmp_path: Path) -> None:
    for name in (str(tmp_path / "train.log"), "train.log"):
        proc = cli(name, cwd=tmp_path)
        assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_show_suggests_the_nearest_ids() -> None:
    proc = cli("show", "cuda-om")
    assert proc.returncode == 2 and "did you mean cuda-oom" in proc.stderr
    assert "did you mean" not in cli("show", "zzzzzz").stderr


def test_the_echoed_line_is_the_errors_own_line() -> None:
    """Every line carries a log prefix and no exception line is pasted: the line quoted back is
    the launcher's failure, not the SIGTERM notice printed before it."""
    text = _paste(REAL / "torchrun-summary" / "torch213-launcher-log.txt")
    assert "SIGTERM" in text.split("\n")[0]
    out = cli("--lang", "en", stdin=text).stdout
    echoed = out.split("What happened\n", 1)[1].split("\n", 1)[0]
    assert echoed.strip().startswith("failed (exitcode: 1) local_rank: 1"), out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rank_traceback_in_the_paste_is_quoted_not_pointed_at(lang: str) -> None:
    text = _paste(REAL / "torchrun-summary" / "torch213-rank-keyerror.txt")
    out = cli("--lang", lang, stdin=text).stdout
    assert "KeyError: 1" in out and "ddp_rank.py:9" in out
    assert "look above" not in out and "上面" not in out.split("原因")[0]
    data = json.loads(cli("--json", stdin=text).stdout)
    assert "KeyError: 1" in data["matches"][0]["explanation"]


def test_no_match_on_a_whole_traceback_does_not_ask_for_the_whole_traceback() -> None:
    whole = cli("--lang", "en", stdin=_paste(REAL / "noise" / "torch213-plain-keyerror.txt"))
    assert whole.returncode == 1
    assert "Paste the whole traceback" not in whole.stdout and "diagnoser list" in whole.stdout
    fragment = cli("--lang", "en", stdin="it crashed again\n")
    assert "Paste the whole traceback" in fragment.stdout


HEALTHY_LOG = "".join(
    f"epoch {step // 200 + 1} step {step} loss {2.3 / (1 + step / 300):.3f} acc {step / 1000:.2f}\n"
    for step in range(100, 1100, 100)
)


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "This log's numbers"), ("zh", "这段日志里的数字")]
)
def test_a_declined_training_log_is_not_asked_for_a_traceback(lang: str, words: str) -> None:
    """Nothing wrong in a healthy log's numbers: the answer says so, and asks for no traceback."""
    proc = cli("--lang", lang, stdin=HEALTHY_LOG)
    assert proc.returncode == 1
    assert words in proc.stdout and "traceback" not in proc.stdout.lower(), proc.stdout
    markdown = cli("--lang", lang, "--format", "markdown", stdin=HEALTHY_LOG).stdout
    assert words in markdown and "traceback" not in markdown.lower()


def test_a_fenced_paste_keeps_the_fence_out_of_the_message() -> None:
    text = _paste(REAL / "wrap" / "batch-size-mismatch.txt")
    fenced = f"I get this:\n```python\n{text.strip()}\n```\nany idea?\n"
    data = json.loads(cli("--json", stdin=fenced).stdout)
    assert data["matches"][0]["id"] == "batch-size-mismatch"
    messages = [e["message"] for e in data["errors"]]
    assert messages and not any("```" in m for m in messages), messages
