"""The command's manners, as a user meets them at a terminal: one Ctrl-D ends a paste, Ctrl-C
leaves quietly, mistakes get a suggestion, the output fits the terminal, the answer speaks the
language of the question. Each test runs the real command (`python -m diagnoser`)."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import ENTRIES, ROOT, cli

CJK = re.compile(r"[\u4e00-\u9fff]")

needs_pty = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "COLUMNS"}
    return {**env, "LANG": "C.UTF-8", "NO_COLOR": "1", **extra}


def _default_sigint() -> None:
    """In the child before it runs the command: Ctrl-C as a user's terminal delivers it. A suite
    started in the background by a non-interactive shell inherits SIGINT ignored (POSIX), and so
    would the command, which Python then never interrupts."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """`python -m diagnoser ARGS` with a pseudo-terminal as stdin, stdout and stderr."""

    def __init__(self, *args: str, columns: int = 80, env: dict[str, str] | None = None) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: size the terminal, then become the command
            import fcntl
            import struct
            import termios

            fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
            _default_sigint()
            os.execve(sys.executable, [sys.executable, "-m", "diagnoser", *args], env or _env())
        self.seen = b""
        self.status: int | None = None

    def read_until(self, marker: bytes, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while marker not in self.seen:
            assert time.monotonic() < deadline, self.seen
            if not self._read(deadline - time.monotonic()):
                raise AssertionError(f"{marker!r} never came: {self.seen!r}")

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], max(timeout, 0))
        if not ready:
            return True  # nothing yet
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # the child closed the terminal
            return False
        self.seen += chunk
        return bool(chunk)

    def wait(self, timeout: float = 60) -> int:
        """The exit code; the child is killed (and the test fails) if it does not exit in time."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                while self._read(0.2) and select.select([self.fd], [], [], 0)[0]:
                    pass
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            self._read(min(0.2, deadline - time.monotonic()))
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        raise AssertionError(f"still running after {timeout}s; it showed: {self.text!r}")

    @property
    def text(self) -> str:
        return self.seen.decode("utf-8", "replace").replace("\r\n", "\n")


# -- 1. one Ctrl-D ends a paste -------------------------------------------------------------


@needs_pty
@pytest.mark.parametrize("last", [b"loss is nan\n", b"loss is nan"], ids=["newline", "mid-line"])
def test_one_ctrl_d_ends_a_paste(last: bytes) -> None:
    """Pasted lines, then one Ctrl-D (on a line of its own, or right after the last line's
    text): the diagnosis comes out and the command exits."""
    term = Terminal()
    term.read_until(b"Ctrl-Z")  # the paste hint
    term.write(b"my training log\n" + last)
    time.sleep(0.2)  # the lines are read before the Ctrl-D comes, as when a person types
    term.write(b"\x04")
    assert term.wait(timeout=30) == 0
    assert "[nan-loss," in term.text


# -- 2. Ctrl-C leaves quietly ---------------------------------------------------------------


@needs_pty
def test_ctrl_c_while_waiting_for_a_paste_exits_130_quietly() -> None:
    term = Terminal()
    term.read_until(b"Ctrl-Z")
    term.write(b"\x03")
    assert term.wait(timeout=30) == 130
    after = term.text.split("Ctrl-Z", 1)[1]
    assert "Traceback" not in after and "KeyboardInterrupt" not in after
    assert len([line for line in after.split("\n") if line.strip(" ^C")]) <= 1, after


def _wait_until_reading(pid: int, timeout: float = 60) -> None:
    """Until the process waits in a read of its pipe (Linux says so in /proc), else a while."""
    wchan = f"/proc/{pid}/wchan"
    if not os.path.exists(wchan):
        time.sleep(3)
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(wchan) as f:
            if "pipe" in f.read():
                return
        time.sleep(0.05)
    raise AssertionError("the command never read its stdin")


def test_sigint_while_reading_a_pipe_exits_130_quietly() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "diagnoser", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
        preexec_fn=_default_sigint,
    )
    assert proc.stdin is not None
    proc.stdin.write(b"RuntimeError: CUDA out of memory.\n")
    proc.stdin.flush()
    _wait_until_reading(proc.pid)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert b"Traceback" not in err and len(err.strip().splitlines()) <= 1, err
    assert cli("--json", stdin="loss is nan").returncode == 0  # a closed pipe still ends it


# -- 3. a mistyped command or option is a usage error with a suggestion ----------------------


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["shwo", "cuda-oom"], "show"),
        (["lsit"], "list"),
        (["lsit", "--group", "shapes"], "list"),
        (["repor", "shape-matmul", "--fixed"], "repro"),
        (["rn", "train.py", "--epochs", "3"], "run"),
        (["tirage", "logs/"], "triage"),
        (["evn"], "env"),
    ],
)
def test_a_mistyped_command_is_a_usage_error(argv: list[str], command: str) -> None:
    proc = cli(*argv)
    assert proc.returncode == 2, proc
    assert proc.stderr == f"diagnoser: unknown command '{argv[0]}'; did you mean '{command}'?\n"
    assert proc.stdout == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["loss is nan"],
        ["loss", "is", "nan"],
        ["run out of memory"],
        ["show me why the loss is nan"],
        ["list index out of range"],
        ["runs", "out", "of", "memory"],  # one letter from `run`, then words: a sentence
        ["lost", "the", "gradients"],  # one letter from `list`
        ["显存不足"],
    ],
)
def test_sentences_that_start_like_a_command_are_diagnosed(argv: list[str]) -> None:
    import json

    proc = cli(*argv, "--json")
    assert proc.returncode in (0, 1), proc.stderr
    assert json.loads(proc.stdout)["errors"][0]["message"] == " ".join(argv)


def test_a_file_named_like_a_mistyped_command_is_read(tmp_path: Path) -> None:
    (tmp_path / "lsit").write_text("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    proc = cli("lsit", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(
    ("argv", "suggestion"),
    [
        (["--jsno"], "--json"),
        (["--no-colour", "tb.txt"], "--no-color"),
        (["--format", "jsno"], "json"),
        (["list", "--gruop", "shapes"], "--group"),
    ],
)
def test_an_unknown_option_is_a_usage_error_with_a_suggestion(
    argv: list[str], suggestion: str
) -> None:
    proc = cli(*argv)
    assert proc.returncode == 2
    assert proc.stderr.startswith("usage: diagnoser")
    assert proc.stderr.rstrip().endswith(f"did you mean '{suggestion}'?"), proc.stderr


# -- 4. several files, or a folder: that is triage's work -----------------------------------


def test_two_files_point_at_triage(tmp_path: Path) -> None:
    for name in ("rank0.log", "rank1.log"):
        (tmp_path / name).write_text("RuntimeError: CUDA out of memory.\n")
    proc = cli("rank0.log", "rank1.log", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().endswith("diagnoser triage rank0.log rank1.log"), proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_a_folder_points_at_triage(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    proc = cli("logs/", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        "diagnoser: logs/ is a directory; to diagnose every log in it: diagnoser triage logs/\n"
    )


# -- 5. a sentence is a sentence, whatever punctuation it holds ------------------------------


@pytest.mark.parametrize(
    ("sentence", "entry"),
    [
        ("训练时 loss 变成 nan/inf", "nan-loss"),
        ("weights never change after optimizer.step", None),
        ("my loss is nan after epoch 3.5", "nan-loss"),
        (r"loss is nan on C:\data", "nan-loss"),
    ],
)
def test_a_quoted_sentence_is_text_whatever_its_punctuation(
    sentence: str, entry: str | None, tmp_path: Path
) -> None:
    import json

    proc = cli(sentence, "--json", cwd=tmp_path)
    assert proc.returncode in (0, 1) and "cannot read" not in proc.stderr, proc.stderr
    out = json.loads(proc.stdout)
    assert out["errors"][0]["message"] == sentence
    if entry:
        assert out["matches"][0]["id"] == entry


@pytest.mark.parametrize("name", ["train.log", "logs/train.out", "run.txt", r"C:\logs\train"])
def test_a_single_word_shaped_like_a_path_is_a_missing_file(name: str, tmp_path: Path) -> None:
    proc = cli(name, cwd=tmp_path)
    assert proc.returncode == 2 and f"cannot read {name}" in proc.stderr


def test_an_existing_file_is_read_whatever_its_name(tmp_path: Path) -> None:
    import json

    for name in ("my run 3.txt", "训练 日志", "nan"):
        (tmp_path / name).write_text("RuntimeError: CUDA out of memory. Tried to allocate 2 GiB\n")
        out = json.loads(cli(name, "--json", cwd=tmp_path).stdout)
        assert out["matches"][0]["id"] == "cuda-oom", name


# -- 8. the answer speaks the question's language -------------------------------------------

CHINESE = "训练时 loss 变成 nan\n"
# The real traceback of samples/, run by a user whose folders have Chinese names.
ENGLISH_IN_A_CHINESE_FOLDER = (
    (ROOT / "samples" / "shape-matmul.txt")
    .read_text(encoding="utf-8")
    .replace("/home/ana/mnist/", "/home/张伟/手写数字/")
    .replace("RuntimeError: mat1", "RuntimeError: (in /home/张伟/手写数字/train.py) mat1")
)


@pytest.mark.parametrize("locale", ["C.UTF-8", "en_US.UTF-8"])
def test_chinese_input_gets_a_chinese_answer(locale: str) -> None:
    import json

    out = json.loads(cli("--json", stdin=CHINESE, env={"LANG": locale}).stdout)
    assert out["lang"] == "zh" and out["matches"][0]["id"] == "nan-loss"
    assert CJK.search(out["matches"][0]["title"])
    assert "原因" in cli(stdin=CHINESE, env={"LANG": locale}).stdout
    assert "### 原因" in cli("--format", "markdown", stdin=CHINESE, env={"LANG": locale}).stdout
    assert "请帮我" in cli("--format", "prompt", stdin=CHINESE, env={"LANG": locale}).stdout
    assert "原因" in cli("显存不足", env={"LANG": locale}).stdout  # a sentence as the argument


def test_lang_wins_over_the_input() -> None:
    import json

    assert json.loads(cli("--json", "--lang", "en", stdin=CHINESE).stdout)["lang"] == "en"


@pytest.mark.parametrize(
    "text",
    [
        ENGLISH_IN_A_CHINESE_FOLDER,
        "KeyError: '标签'\n",  # a value quoted from the user's data is not their words
    ],
)
def test_english_input_with_a_few_chinese_characters_stays_english(text: str) -> None:
    import json

    out = json.loads(cli("--json", stdin=text).stdout)
    assert out["lang"] == "en"


def test_the_api_follows_the_same_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    from diagnoser import diagnose

    for var in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert diagnose(CHINESE)["lang"] == "zh"
    assert diagnose(ENGLISH_IN_A_CHINESE_FOLDER)["lang"] == "en"
    assert diagnose(CHINESE, lang="en")["lang"] == "en"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert diagnose(ENGLISH_IN_A_CHINESE_FOLDER)["lang"] == "zh"  # the locale says Chinese


# -- 9. --format markdown is valid Markdown -------------------------------------------------

SOURCE_WITH_BACKTICKS = 'out = f(`x`, "``y``")'
TRACEBACK_WITH_BACKTICKS = f"""\
Traceback (most recent call last):
  File "/home/ana/mnist/train.py", line 7, in <module>
    {SOURCE_WITH_BACKTICKS}
RuntimeError: mat1 and mat2 shapes cannot be multiplied (32x64 and 128x10) ```
"""


def _markdown_tokens(text: str) -> list:  # type: ignore[type-arg]
    markdown_it = pytest.importorskip("markdown_it")
    return markdown_it.MarkdownIt("commonmark").parse(text)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("text", "source"),
    [
        (
            (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8"),
            "logits = model(images)",
        ),
        (TRACEBACK_WITH_BACKTICKS, SOURCE_WITH_BACKTICKS),
    ],
    ids=["plain", "backticks"],
)
def test_markdown_where_line_is_two_code_spans(text: str, source: str) -> None:
    import json

    out = cli("--format", "markdown", "--lang", "en", stdin=text).stdout
    where = next(
        t for t in _markdown_tokens(out) if t.type == "inline" and t.content.startswith("where")
    )
    parts = [(c.type, c.content) for c in where.children]
    path = json.loads(cli("--json", stdin=text).stdout)["matches"][0]["where"]["file"]
    assert parts == [
        ("text", "where: "),
        ("code_inline", f"{path}:{22 if 'images' in source else 7}"),
        ("text", " — "),
        ("code_inline", source),
    ], out


def test_markdown_code_blocks_and_spans_hold_their_text_whole() -> None:
    """The error's block holds the message whole although it has a ``` run; no backtick is left
    outside code anywhere in the rendered page."""
    import json

    out = cli("--format", "markdown", "--lang", "en", stdin=TRACEBACK_WITH_BACKTICKS).stdout
    message = json.loads(cli("--json", stdin=TRACEBACK_WITH_BACKTICKS).stdout)["matches"][0]
    tokens = _markdown_tokens(out)
    fences = [t.content.rstrip("\n") for t in tokens if t.type == "fence"]
    assert message["message"] in fences, out
    markdown_it = pytest.importorskip("markdown_it")
    html = markdown_it.MarkdownIt("commonmark").render(out)
    outside = re.sub(r"<code>.*?</code>|<pre>.*?</pre>", "", html, flags=re.S)
    assert "`" not in outside, outside


# -- 7. `diagnoser show ID` leads with the explanation --------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_show_leads_with_the_explanation_and_ends_with_a_few_messages(lang: str) -> None:
    entry = next(e for e in ENTRIES if e.id == "dtype-mismatch")  # 47 known messages
    out = cli("show", entry.id, "--lang", lang).stdout
    title, glance = getattr(entry.title, lang), entry.glance
    cause_first = getattr(entry.cause, lang).strip().split("\n")[0].split()[:3]
    fix_first = getattr(entry.fix, lang).strip().split("\n")[0].split()[:3]
    order = [
        out.index(title),
        out.index(getattr(glance.cause, lang)),
        out.index(getattr(glance.fix, lang)),
        out.index(" ".join(cause_first)),
        out.index(" ".join(fix_first)),
        out.index(f"diagnoser repro {entry.id}"),
        out.index(entry.docs[0].url),
        out.rindex(entry.examples[0].split("\n")[0]),
    ]
    assert order == sorted(order), order
    last = {line.strip() for line in out.rsplit("\n## ", 1)[1].split("\n")}
    shown = [ex for ex in entry.examples if ex.split("\n")[0].strip() in last]
    assert shown == list(entry.examples[:3])  # the first three, and how many there are
    assert (f"{len(entry.examples)} known" if lang == "en" else f"{len(entry.examples)} 条") in out


# -- 6. the output fits the terminal, and is never pre-wrapped when piped ------------------

OOM = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n"


def _shown_columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def _code_lines(*markdown_texts: str) -> set[str]:
    """The lines inside the fences of the entry's Markdown: code keeps its lines."""
    code, inside = set(), False
    for text in markdown_texts:
        for line in text.split("\n"):
            if line.strip().startswith("```"):
                inside = not inside
            elif inside:
                code.add(line.strip())
    return code


def _too_wide(text: str, width: int, code: set[str]) -> list[str]:
    """Lines wider than width, but for code and a line that is one word (a URL, a long path)."""
    return [
        line
        for line in text.split("\n")
        if _shown_columns(line) > width and line.strip() not in code and len(line.split()) > 1
    ]


@needs_pty
@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize(
    ("args", "entry_id"),
    [
        ((str(ROOT / "samples" / "shape-matmul.txt"), "--lang", "en"), "shape-matmul"),
        (("--lang", "en", "OOM_FILE"), "cuda-oom"),
        (("--lang", "zh", "OOM_FILE"), "cuda-oom"),
        (("show", "cuda-oom", "--lang", "en"), "cuda-oom"),
        (("show", "cuda-oom", "--lang", "zh"), "cuda-oom"),
    ],
    ids=["traceback", "oom-en", "oom-zh", "show-en", "show-zh"],
)
def test_the_output_fits_the_terminal(
    args: tuple[str, ...], entry_id: str, columns: int, tmp_path: Path
) -> None:
    entry = next(e for e in ENTRIES if e.id == entry_id)
    oom = tmp_path / "oom.txt"
    oom.write_text(OOM)
    term = Terminal(*(str(oom) if a == "OOM_FILE" else a for a in args), columns=columns)
    assert term.wait() in (0, 1)
    shown = term.text
    assert entry.title.en in shown.replace("\n", " ") or "# " in shown
    code = _code_lines(entry.fix.en, entry.fix.zh, entry.cause.en, entry.cause.zh)
    assert _too_wide(shown, columns, code) == []
    piped = cli(*(str(oom) if a == "OOM_FILE" else a for a in args)).stdout
    assert _too_wide(piped, columns, code)  # the same text piped is not wrapped


@needs_pty
def test_columns_in_the_environment_wins() -> None:
    sample = str(ROOT / "samples" / "shape-matmul.txt")
    term = Terminal(sample, "--lang", "en", columns=120, env=_env(COLUMNS="50"))
    assert term.wait() == 0
    entry = next(e for e in ENTRIES if e.id == "shape-matmul")
    assert _too_wide(term.text, 50, _code_lines(entry.fix.en)) == []
    assert max(_shown_columns(line) for line in term.text.split("\n")) > 50  # the code's lines


def test_piped_output_has_each_paragraph_on_one_line() -> None:
    entry = next(e for e in ENTRIES if e.id == "cuda-oom")
    first = entry.cause.en.strip().split("\n\n")[0]
    one_line = " ".join(line.strip() for line in first.split("\n"))
    out = cli("--lang", "en", stdin=OOM).stdout
    assert f"  {one_line}" in out.split("\n")
    item = next(line for line in out.split("\n") if line.startswith("  - the batch size"))
    assert item.endswith("on the first unusually long batch;")  # a list item is one line too
    assert f"\n{one_line}\n" in cli("show", "cuda-oom", "--lang", "en").stdout
    zh = cli("--lang", "zh", stdin=OOM).stdout
    assert "还要再存两份" in zh  # no space where the YAML broke a line between Chinese characters
    assert "大约 16 字节" in zh  # and one where it broke between a number and a Chinese word
    assert "      def fits(batch_size):" in out  # code keeps its lines and indentation


# -- the wrapper itself ----------------------------------------------------------------------


def test_wrap_breaks_latin_at_spaces_and_chinese_between_characters() -> None:
    from diagnoser.speak.wrap import columns, join, wrap

    assert wrap("the quick brown fox", None) == ["the quick brown fox"]
    assert wrap("the quick brown fox", 10) == ["the quick", "brown fox"]
    assert wrap("the quick brown fox", 12, "  → ", "    ") == [
        "  → the",
        "    quick",
        "    brown",
        "    fox",
    ]
    assert wrap("see https://example.com/a/very/long/address ok", 12) == [
        "see",
        "https://example.com/a/very/long/address",
        "ok",
    ]
    assert columns("训练ab") == 6
    zh = wrap("训练时显存里要放：模型权重、梯度、优化器状态（Adam 还要再存两份）。", 12)
    assert all(columns(line) <= 12 for line in zh), zh
    assert not any(line[0] in "：、）。" for line in zh), zh  # no line starts with a closing mark
    assert not any(line[-1] in "（" for line in zh), zh  # nor ends with an opening one
    assert (
        "".join(zh).replace(" ", "")
        == "训练时显存里要放：模型权重、梯度、优化器状态（Adam还要再存两份）。"
    )
    assert join(["训练", "时"]) == "训练时"
    assert join(["当某次分配放不下时，", "PyTorch 的"]) == "当某次分配放不下时，PyTorch 的"
    assert join(["大约 16", "字节"]) == "大约 16 字节"
    assert join(["in", "float32"]) == "in float32"


def test_markdown_keeps_lists_code_and_tables() -> None:
    from diagnoser.speak.wrap import markdown

    md = (
        "A paragraph that the YAML\nbroke in two.\n\n"
        "- an item\n  that goes on\n  - a nested one\n"
        "1. a numbered\n   item\n\n"
        "```python\nx = 1   # a long comment that is never wrapped\n\n```\n"
        "| a | b |\n|---|---|\n"
    )
    assert markdown(md, None, "  ") == [
        "  A paragraph that the YAML broke in two.",
        "",
        "  - an item that goes on",
        "    - a nested one",
        "  1. a numbered item",
        "",
        "  ```python",
        "  x = 1   # a long comment that is never wrapped",
        "",
        "  ```",
        "  | a | b |",
        "  |---|---|",
    ]
    assert markdown(md, 16, "", fences=False) == [
        "A paragraph that",
        "the YAML broke",
        "in two.",
        "",
        "- an item that",
        "  goes on",
        "  - a nested one",
        "1. a numbered",
        "   item",
        "",
        "    x = 1   # a long comment that is never wrapped",  # code: no fence, never wrapped
        "",
        "| a | b |",
        "|---|---|",
    ]


_LATIN = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC0123456789_.-/`()", min_size=1, max_size=14)
_HAN_RUN = st.text(alphabet="训练时显存里要放模型权重梯度优化器状态", min_size=1, max_size=12)
_MARKS = st.sampled_from(["，", "。", "（", "）", "：", "、"])


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(
        st.one_of(_LATIN, _HAN_RUN, _MARKS, st.builds(str.__add__, _HAN_RUN, _MARKS)),
        min_size=1,
        max_size=40,
    ),
    glue=st.lists(st.sampled_from([" ", "", "  "]), min_size=40, max_size=40),
    width=st.integers(min_value=8, max_value=100),
    prefixes=st.sampled_from([("", ""), ("  ", "  "), ("  → ", "    "), ("- ", "  ")]),
)
def test_wrap_keeps_every_word_in_order_within_the_width(
    words: list[str], glue: list[str], width: int, prefixes: tuple[str, str]
) -> None:
    from diagnoser.speak.wrap import _pieces, columns, wrap

    # words side by side, or apart: Latin ones apart (glued, two Latin words would be one)
    text = words[0]
    for word, sep in zip(words[1:], glue, strict=False):
        text += " " if not sep and text[-1].isascii() and word[0].isascii() else sep
        text += word
    first, rest = prefixes
    lines = wrap(text, width, first, rest)
    assert lines[0].startswith(first) and all(line.startswith(rest) for line in lines[1:])
    bodies = [lines[0][len(first) :], *(line[len(rest) :] for line in lines[1:])]
    for line, body in zip(lines, bodies, strict=True):
        if columns(line) > width:  # only a piece that fits no line: one unbreakable word
            assert " " not in body and len(_pieces(body)) == 1, (line, width)
    assert "".join("".join(bodies).split()) == "".join(text.split())  # every character, in order
    latin = re.compile(r"[A-Za-z0-9_.\-/`()]+")
    assert latin.findall("\n".join(bodies)) == latin.findall(text)  # no Latin word cut


def test_the_text_answer_imports_no_textwrap(tmp_path: Path) -> None:
    """Piped or on a terminal, wrapping costs no import the plain diagnosis did not make."""
    for _ in range(2):  # the first run compiles the index (tests/conftest.py: no shared cache)
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "diagnoser", "--lang", "zh"],
            input=OOM + "训练时 loss 变成 nan\n",
            capture_output=True,
            text=True,
            env={**_env(), "DIAGNOSER_CACHE_DIR": str(tmp_path)},
        )
    assert proc.returncode == 0, proc.stderr
    names = [line.rsplit("|", 1)[-1] for line in proc.stderr.splitlines() if "|" in line]
    # what the interpreter's start-up imported (site, an editable install's finder) is not ours
    imported = {name.strip() for name in names[names.index(" site") + 1 :]}
    assert "diagnoser.speak.wrap" in imported
    assert not imported & {"textwrap", "argparse", "difflib", "shutil", "termios"}


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


@needs_pty
@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="finds the workers in /proc")
def test_ctrl_c_during_a_parallel_triage_exits_130_without_the_workers_tracebacks(
    tmp_path: Path,
) -> None:
    error = 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n' + OOM
    logs = []
    for rank in range(2):  # minutes of work each (every traceback is diagnosed): far more than
        log = tmp_path / f"rank{rank}.log"  # the wait below, so the workers must be stopped
        log.write_text(error * 30000)
        logs.append(str(log))
    term = Terminal("triage", "-j", "2", *logs)
    deadline = time.monotonic() + 60
    while len(_children(term.pid)) < 2:  # the two workers (and multiprocessing's tracker)
        assert time.monotonic() < deadline, term.text
        term._read(0.1)
    term.write(b"\x03")
    assert term.wait() == 130, term.text
    for noise in ("Traceback", "KeyboardInterrupt", "SpawnPoolWorker"):
        assert noise not in term.text, term.text
