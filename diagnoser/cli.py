"""The `diagnoser` command: diagnose a traceback or log, or browse and run the knowledge base."""

from __future__ import annotations

import os
import re
import sys

from . import __version__
from .knowledge.groups import GROUPS
from .knowledge.index import Index, load_index
from .speak.i18n import LANGS, answer_lang, default_lang, pad, t

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any, BinaryIO, NoReturn, TextIO

EXIT_MATCH, EXIT_NO_MATCH, EXIT_USAGE, EXIT_BAD_KB = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as a shell reports a command it interrupted
COMMANDS = ("list", "show", "repro", "run", "lint", "env", "triage")
FORMATS = ("text", "json", "markdown", "prompt")
# The end of a huge log is kept whole (the error that stopped the run is printed last); of the
# rest, only the parts that hold an error.
MAX_INPUT = 4 * 1024 * 1024

EPILOG = """\
commands:
  diagnoser [FILE]            diagnose a traceback or log (stdin when FILE is absent or -;
                              on a terminal, paste it and press Ctrl-D)
  diagnoser "loss is nan"     diagnose a sentence: words that name no file (a path that
                              exists is read; one word shaped like a path must exist)
  diagnoser run SCRIPT [ARGS] run a Python script in this process; if it fails, explain the
                              error with its live tensors (also: import diagnoser.auto)
  diagnoser env               the environment (python, torch, CUDA, GPU, driver) and its checks
  diagnoser list              every entry: id, group, title
  diagnoser show ID           one entry in full
  diagnoser repro ID [--fixed] run the entry's reproduction (needs torch)
  diagnoser lint [PATH ...]   static checks of training code (`diagnoser lint --help`)
  diagnoser triage PATH...    group the errors of many logs and ranks; the first failure first

exit codes:
  0    an entry explains the input (or the command succeeded)
  1    no entry applies
  2    bad usage (an unknown command or option: the nearest one is suggested; several
       files or a folder: `diagnoser triage` reads those), or the input cannot be read
  3    the knowledge base is invalid (the message names the file and field)
  130  interrupted (Ctrl-C)
  repro and run exit with the script's own code; 77 means the reproduction needs what this
  machine lacks (a GPU, torchvision, numpy)

The language comes from --lang, else it is Chinese when LC_ALL / LC_MESSAGES / LANG say zh*
or the input itself is written in Chinese (a few Chinese characters outside paths and frame
lines: echo "训练时 loss 变成 nan" | diagnoser), else English.
Colour is used only on a terminal, and never when NO_COLOR is set. On a terminal the text is
wrapped to its width (COLUMNS, else the terminal's size); piped, each paragraph is one line.
"""


def _formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's own formatter asks shutil for the terminal's width on every add_argument, and
    importing shutil (zlib, bz2, lzma) costs each start-up milliseconds; os answers the same."""
    import argparse

    try:
        width = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        try:
            width = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):  # no stdout, or not a terminal
            width = 80
    return argparse.RawDescriptionHelpFormatter(prog, width=width - 2)


def _parser(**kwargs: Any) -> argparse.ArgumentParser:
    """An ArgumentParser whose usage errors suggest the nearest option or choice, as git's and
    Ruff's do: `diagnoser --jsno` ends with "did you mean '--json'?"."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            near = _nearest_option(self, message)
            super().error(f"{message}; did you mean '{near}'?" if near else message)

    return Parser(**kwargs)


def _nearest_option(parser: argparse.ArgumentParser, message: str) -> str | None:
    """The option (or the option's value) an "unrecognized arguments" or "invalid choice" error
    was probably meant to be, if one is close enough."""
    import difflib

    if message.startswith("unrecognized arguments: "):
        known = [o for action in parser._actions for o in action.option_strings]
        for word in message.removeprefix("unrecognized arguments: ").split():
            if word.startswith("-"):
                near = difflib.get_close_matches(word.split("=", 1)[0], known, n=1, cutoff=0.6)
                if near:
                    return near[0]
        return None
    found = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
    if found:
        choices = [c.strip().strip("'\"") for c in found.group(2).split(",")]
        near = difflib.get_close_matches(found.group(1), choices, n=1, cutoff=0.6)
        return near[0] if near else None
    return None


def _common(
    parser: argparse.ArgumentParser, lang: str = "language of the answer (default: from the locale)"
) -> None:
    import argparse

    parser.add_argument("--lang", choices=LANGS, help=lang)
    parser.add_argument("--kb", help=argparse.SUPPRESS)  # another kb/ directory (tests)


def build_parser() -> argparse.ArgumentParser:
    parser = _parser(
        prog="diagnoser",
        description="Explain a PyTorch error or training symptom from a traceback or a log.",
        epilog=EPILOG,
        formatter_class=_formatter,
    )
    parser.add_argument(
        "file",
        nargs="*",
        default=["-"],
        help='traceback or log to read (default: stdin), or a sentence: diagnoser "loss is nan"',
    )
    fmt = parser.add_mutually_exclusive_group()
    fmt.add_argument(
        "--json", dest="format", action="store_const", const="json", help="JSON for tools"
    )
    fmt.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="prompt: a request for help to paste into a chat or an issue",
    )
    parser.add_argument("--no-color", action="store_true", help="never colour the output")
    parser.add_argument(
        "--docs-url",
        default=os.environ.get("DIAGNOSER_DOCS_URL"),
        help="base address of the guide the text output links to (env: DIAGNOSER_DOCS_URL)",
    )
    parser.add_argument("--version", action="version", version=f"diagnoser {__version__}")
    _common(parser, "language of the answer (default: Chinese if the locale or the input is)")
    return parser


def build_command_parser(command: str) -> argparse.ArgumentParser:
    import argparse

    parser = _parser(prog=f"diagnoser {command}", formatter_class=_formatter)
    _common(parser)
    if command == "list":
        parser.add_argument("--group", choices=list(GROUPS), help="only this group")
    elif command == "show":
        parser.add_argument("id")
    elif command == "repro":
        parser.add_argument("id")
        parser.add_argument("--fixed", action="store_true", help="run the fixed code instead")
    elif command == "run":
        parser.add_argument(
            "--pdb",
            action="store_true",
            help="after a crash is explained, open the debugger (pdb) where it was raised",
        )
        parser.add_argument("script")
        parser.add_argument("args", nargs=argparse.REMAINDER)
        fmt = parser.add_mutually_exclusive_group()
        fmt.add_argument(
            "--json", dest="format", action="store_const", const="json", default="text"
        )
        fmt.add_argument("--format", choices=FORMATS, default="text")
    elif command == "lint":
        from .lint.cli import add_arguments

        add_arguments(parser)
    elif command == "env":
        parser.add_argument("--json", action="store_true", help="JSON for tools")
    elif command == "triage":
        from .triage.command import add_arguments as add_triage_arguments

        add_triage_arguments(parser)
    return parser


def read_input(stream: BinaryIO) -> bytes:
    """Read a stream of any size in bounded memory: its last MAX_INPUT bytes, and before them the
    earlier errors triage's streaming reader finds in the rest. A UTF-16/32 log is read as text
    first: its earlier errors are found too, not only those in its last bytes."""
    from .triage.inputs import utf8
    from .triage.segment import read_log

    return read_log(utf8(stream), MAX_INPUT)


def read_terminal(stdin: TextIO) -> bytes:
    """What is pasted or typed on a terminal, up to one Ctrl-D.

    A terminal reports Ctrl-D as a read that returns at once: empty on a line of its own, the
    line's text so far after some text. A file object's read goes on reading until a read comes
    back empty, so it needs two Ctrl-D after a last line without a newline, and more than one
    read (read_input's blocks) asks for one Ctrl-D each. The terminal is read here line by line
    instead: an empty read, or a line that does not end with a newline (in canonical mode only
    Ctrl-D ends one so), ends the input."""
    import io

    try:
        import termios
    except ImportError:  # Windows: its console ends a read at Ctrl-Z, Enter
        return read_input(stdin.buffer)
    fd = stdin.fileno()
    try:
        canonical = bool(termios.tcgetattr(fd)[3] & termios.ICANON)
    except termios.error:
        canonical = False
    lines = []
    while chunk := os.read(fd, 65536):
        lines.append(chunk)
        if canonical and not chunk.endswith(b"\n"):
            break
    return read_input(io.BytesIO(b"".join(lines)))


def _use_colour(no_color: bool) -> bool:
    return not no_color and "NO_COLOR" not in os.environ and sys.stdout.isatty()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] == "lint":  # reads code, not the knowledge base
            from .lint.cli import run

            return run(build_command_parser("lint").parse_args(argv[1:]))
        if argv and argv[0] == "triage":  # its own engines load the knowledge base
            from .triage.command import run as triage

            return triage(build_command_parser("triage").parse_args(argv[1:]))
        if argv and argv[0] in COMMANDS:
            return _command(argv[0], build_command_parser(argv[0]).parse_args(argv[1:]))
        meant = mistyped_command(argv)
        if meant:
            print(
                f"diagnoser: unknown command {argv[0]!r}; did you mean {meant!r}?", file=sys.stderr
            )
            return EXIT_USAGE
        return _diagnose(_plain_arguments(argv) or build_parser().parse_args(argv))
    except BrokenPipeError:  # `diagnoser ... | head`
        sys.stderr.close()
        return EXIT_MATCH
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the shell's own code for it
        if sys.stderr.isatty():
            print(file=sys.stderr)  # the prompt after the echoed ^C starts on a line of its own
        return EXIT_INTERRUPTED


def mistyped_command(argv: list[str]) -> str | None:
    """The command that argv's first word misspells, or None when the words are to be read.

    The rule: the first word is one edit from a command's name (a letter added, dropped or
    changed, or two neighbours swapped: `shwo`, `lsit`, `rn`, `tirage`), it names no file, and
    it stands alone or the word after it looks like what a command takes rather than like the
    next word of a sentence: an option (`--group`), an id or a path (it holds one of `-/\\._:` or
    a digit: `cuda-oom`, `train.py`, `logs/`) or an existing file. So `diagnoser shwo cuda-oom`
    is a mistake, and `diagnoser runs out of memory`, `diagnoser lost the gradients` and
    `diagnoser "run out of memory"` (one argument with spaces is never a command) are sentences.
    An exact command name is always the command. Cheap: no import, no file looked at unless the
    first word is a near miss."""
    if not argv:
        return None
    word = argv[0]
    if not (2 <= len(word) <= 8 and word.isascii() and word.isalpha() and word.islower()):
        return None
    near = next((c for c in COMMANDS if _one_edit(word, c)), None)
    if near is None or os.path.exists(word):
        return None
    if len(argv) > 1:
        after = argv[1]
        if not (
            after.startswith("-")
            or any(c in after for c in "-/\\._:")
            or any(c.isdigit() for c in after)
            or os.path.exists(after)
        ):
            return None  # a sentence: `runs out of memory`
    return near


def _one_edit(a: str, b: str) -> bool:
    """a and b differ by one letter added, dropped or changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _plain_arguments(argv: list[str]) -> argparse.Namespace | None:
    """The arguments of a plain diagnosis, read without argparse, or None for argparse to read.

    Importing argparse and building its parser cost ~3.5 ms, a tenth of a cold diagnosis: argparse
    asks gettext for every message it might print, and gettext searches the disk each time. Only
    what `diagnoser [FILE...] [--json] [--no-color] [--lang en|zh]` can say is read here; anything
    else (--help, --format=x, abbreviations, mistakes) goes to argparse. tests/test_cli.py checks
    that both read every argument list this accepts the same way."""
    from types import SimpleNamespace

    files: list[str] = []
    fmt, no_color, lang = None, False, None
    files_ended = False  # argparse takes the FILE words as one run: a second run is an error
    words = iter(argv)
    for word in words:
        if word == "-" or not word.startswith("-"):
            if files_ended:
                return None
            files.append(word)
            continue
        files_ended = bool(files)
        if word == "--json":
            fmt = "json"
        elif word == "--no-color":
            no_color = True
        elif word == "--lang" and (value := next(words, None)) in LANGS:
            lang = value
        else:
            return None
    # the attributes of argparse's Namespace for the same words, and their defaults
    return SimpleNamespace(  # type: ignore[return-value]
        file=files or ["-"],
        format=fmt,
        no_color=no_color,
        docs_url=os.environ.get("DIAGNOSER_DOCS_URL"),
        lang=lang,
        kb=None,
    )


def _index(args: argparse.Namespace) -> Index | int:
    try:
        return load_index(args.kb)
    except Exception as e:  # schema.KBError; imported lazily, so matched by name
        if type(e).__name__ != "KBError":
            raise
        print(f"diagnoser: invalid knowledge base: {e}", file=sys.stderr)
        return EXIT_BAD_KB


def _diagnose(args: argparse.Namespace) -> int:
    from .text.cleanup import decode

    lang = args.lang or default_lang()
    what, name = _what_to_read(args.file)
    try:
        if what == "usage":
            print(f"diagnoser: {name}", file=sys.stderr)
            return EXIT_USAGE
        if what == "stdin":
            if sys.stdin.isatty():  # nothing piped: say how to paste, or it looks hung
                print(t("paste_hint", lang), file=sys.stderr)
                data = read_terminal(sys.stdin)
            else:
                data = read_input(sys.stdin.buffer)
        elif what == "text":
            data = name.encode()
        else:
            with open(name, "rb") as f:
                data = read_input(f)
    except OSError as e:
        print(f"diagnoser: cannot read {name}: {e.strerror or e}", file=sys.stderr)
        return EXIT_USAGE
    index = _index(args)
    if isinstance(index, int):
        return index
    text = decode(data)
    lang = args.lang or answer_lang(text)  # the hint spoke the locale's; the answer, the input's
    return _report(text, index, args.format, lang, args.no_color, args.docs_url)


def _what_to_read(words: list[str]) -> tuple[str, str]:
    """What the FILE words name: ("stdin", "-"), ("file", path), ("text", sentence), or
    ("usage", what is wrong). Whether a path exists decides first, then the words' shape.

    - `-`, or nothing: stdin.
    - the words, joined by spaces, name an existing file: that file (`diagnoser my log.txt`);
      a folder is triage's work, and so are several existing files.
    - one word shaped like a path (no space; it starts like one, ends in an extension such as
      `.log`, or holds a / or \\ and no Chinese): a file, reported as unreadable when it is
      missing (`train.log`, `logs/out`, `日志/train.log`);
    - any other single word is a sentence: one with a space or Chinese (`"loss is nan"`,
      `"训练时 loss 变成 nan/inf"`, `"weights never change after optimizer.step"`), or a
      bare word (`OOM`, `CUBLAS_STATUS_EXECUTION_FAILED`);
    - several words (`diagnoser loss is nan`): a sentence, unless each of them is a path and
      one exists: then they are logs for triage."""
    name = " ".join(words)
    if words == ["-"]:
        return "stdin", name
    if os.path.isdir(name):
        from .runtime.export import CSV_NAME  # imports nothing heavy

        exported = os.path.join(name, CSV_NAME)
        if os.path.isfile(exported):  # a run watch(export=...) wrote: read as its training log
            return "file", exported
        return "usage", f"{name} is a directory; to diagnose every log in it: {_triage([name])}"
    if os.path.exists(name):
        return "file", name
    if len(words) == 1:
        return ("file" if _path_shaped(name) else "text"), name
    if any(os.path.exists(w) for w in words) and all(
        os.path.exists(w) or _path_shaped(w) for w in words
    ):
        many = f"{len(words)} paths given, and diagnoser reads one log"
        return "usage", f"{many}; to diagnose them together: {_triage(words)}"
    return "text", name


def _path_shaped(word: str) -> bool:
    """A path rather than a word: no space, and it starts as paths do (/, ./, ~/, C:\\), ends in
    a file extension (.log, .txt, .out), or holds a / or \\ among Latin letters."""
    if re.search(r"\s", word):
        return False
    if re.match(r"(?:\.{0,2}[/\\]|~[/\\]|[A-Za-z]:[/\\])", word) or re.search(
        r"\.[A-Za-z][A-Za-z0-9]{0,3}$", word
    ):
        return True
    return bool(re.search(r"[/\\]", word)) and not re.search(r"[\u3000-\u9fff\uff00-\uffef]", word)


def _triage(paths: list[str]) -> str:
    import shlex

    return shlex.join(["diagnoser", "triage", *paths])


def _report(
    text: str,
    index: Index,
    fmt: str,
    lang: str,
    no_color: bool = False,
    docs_url: str | None = None,
) -> int:
    from .speak import render
    from .text.match import diagnose

    diagnosis = diagnose(text, index)
    if fmt == "json":
        out = render.to_json(diagnosis, lang) + "\n"
    elif fmt in ("markdown", "prompt"):
        from .live.report import text_context
        from .speak.prompt import to_prompt

        context = text_context(diagnosis, lang)
        if fmt == "markdown":
            out = render.to_markdown(diagnosis, lang, context)
        else:
            out = to_prompt(diagnosis, lang, context)
    else:
        from .speak.wrap import terminal_width

        out = render.to_text(
            diagnosis,
            lang,
            colour=_use_colour(no_color),
            docs_url=docs_url or render.DOCS_URL,
            width=terminal_width(sys.stdout),
        )
    sys.stdout.write(out)
    sys.stdout.flush()
    return EXIT_MATCH if diagnosis.matches else EXIT_NO_MATCH


def _command(command: str, args: argparse.Namespace) -> int:
    if command == "run":  # the script's own errors come first; the index is loaded on failure
        from .live.run import run

        return run(args.script, args.args, lang=args.lang, fmt=args.format, debug=args.pdb)
    if command == "env":
        from .live.env import command as env_command

        return env_command(args.lang or default_lang(), as_json=args.json)
    index = _index(args)
    if isinstance(index, int):
        return index
    lang = args.lang or default_lang()
    if command == "list":
        for group in GROUPS:
            if args.group and group != args.group:
                continue
            for e in (e for e in index.entries if e.group == group):
                # English shows the id --group takes; Chinese, the section's Chinese name.
                label = group if lang == "en" else GROUPS[group][lang]
                print(f"{e.id:32} {pad(label, 24)} {e.title[lang]}")
        return EXIT_MATCH
    entry = index.by_id.get(args.id)
    if entry is None:
        import difflib

        near = difflib.get_close_matches(args.id, index.by_id, n=3, cutoff=0.6)
        hint = f"did you mean {' or '.join(near)}? " if near else ""
        print(
            f"diagnoser {command}: no entry {args.id!r}; {hint}`diagnoser list` shows them all",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if command == "show":
        from .speak.render import DOCS_URL
        from .speak.show import show
        from .speak.wrap import terminal_width

        docs_url = os.environ.get("DIAGNOSER_DOCS_URL") or DOCS_URL
        sys.stdout.write(show(entry, lang, docs_url, width=terminal_width(sys.stdout)))
        return EXIT_MATCH
    from . import repro

    return repro.run(entry, fixed=args.fixed, lang=lang)
