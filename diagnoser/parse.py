"""Find the errors in pasted text: a plain data model, no knowledge of PyTorch.

`parse(text) -> Trace` returns every error it finds (Python tracebacks, chained ones, the
"Original Traceback" a DataLoader worker re-raises, bare `SomeError: message` lines) with their
frames. Matching and rendering live elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Messages longer than this are cut: every signature we know fits in far less, and a bound keeps
# regex matching linear on megabyte-long lines.
MAX_MESSAGE = 8000
MAX_MESSAGE_LINES = 60

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_TRACEBACK = re.compile(r"Traceback \(most recent call last\):")
# A header glued to what came before it; "Original Traceback" (a worker re-raise) stays put.
_GLUED_TRACEBACK = re.compile(r"(?<!Original )Traceback \(most recent call last\):")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<name>.+))?\s*$')
_EXC = re.compile(
    r"^\s*(?P<type>(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Warning|Interrupt|Exit|Failure))"
    r"(?::\s?(?P<msg>.*))?$"
)
# Inside a traceback the exception line may carry any class name (`Unsupported: ...`).
_EXC_IN_TRACEBACK = re.compile(r"^(?P<type>[A-Za-z_][\w.]*)(?::\s?(?P<msg>.*))?$")
_CHAIN = re.compile(
    r"^\s*(The above exception was the direct cause of the following exception:"
    r"|During handling of the above exception, another exception occurred:)"
)
_WORKER = re.compile(r"Caught \w+ in DataLoader worker process \d+\.?\s*\n\s*Original Traceback")
_LIBRARY_PATH = re.compile(
    r"(site-packages|dist-packages|[/\\]lib[/\\]python\d|<frozen |[/\\]torch[/\\])"
)


@dataclass(frozen=True)
class Frame:
    filename: str
    lineno: int
    name: str
    line: str | None = None

    @property
    def is_user_code(self) -> bool:
        return not _LIBRARY_PATH.search(self.filename.replace("\\\\", "\\"))


@dataclass(frozen=True)
class Error:
    """One exception (or bare error line): its type if printed, message, frames outermost first."""

    exc_type: str | None
    message: str
    frames: tuple[Frame, ...] = ()
    # How it relates to the error printed after it: "cause"/"context" in a chained traceback,
    # "worker" for the original error inside a DataLoader worker re-raise.
    relation: str | None = None

    @property
    def text(self) -> str:
        return f"{self.exc_type}: {self.message}" if self.exc_type else self.message

    @property
    def where(self) -> Frame | None:
        """The deepest frame in the user's own code."""
        for frame in reversed(self.frames):
            if frame.is_user_code:
                return frame
        return None


@dataclass(frozen=True)
class Trace:
    errors: tuple[Error, ...]
    text: str = field(repr=False)

    @property
    def root(self) -> Error | None:
        """The error to explain first: a DataLoader worker's original error; else the first error
        of the last chain, since "The above exception was the direct cause of..." and "During
        handling of the above exception..." both print the original problem first."""
        for err in self.errors:
            if err.relation == "worker":
                return err
        if not self.errors:
            return None
        i = len(self.errors) - 1
        while i > 0 and self.errors[i - 1].relation in ("cause", "context"):
            i -= 1
        return self.errors[i]


def decode(data: bytes) -> str:
    """Bytes to text whatever the encoding: UTF-8/UTF-16 by BOM, GBK for Chinese Windows logs."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("gb18030")
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace")


def clean(text: str) -> str:
    text = _ANSI.sub("", text).replace("\x00", "")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # A progress bar glued to the header: put the header on a line of its own.
    return _GLUED_TRACEBACK.sub(
        lambda m: m.group(0) if _at_line_start(text, m.start()) else "\n" + m.group(0), text
    )


def _at_line_start(text: str, pos: int) -> bool:
    return pos == 0 or text[pos - 1] == "\n" or not text[text.rfind("\n", 0, pos) + 1 : pos].strip()


def parse(text: str) -> Trace:
    text = clean(text)
    lines = text.split("\n")
    errors: list[Error] = []
    i = 0
    relation: str | None = None
    while i < len(lines):
        line = lines[i]
        if _TRACEBACK.search(line):
            err, i = _read_traceback(lines, i + 1)
            if err is not None:
                errors.extend(_with_worker_error(err))
            continue
        chain = _CHAIN.match(line)
        if chain:
            relation = "cause" if "direct cause" in chain.group(1) else "context"
            if errors:
                errors[-1] = _relate(errors[-1], relation)
            i += 1
            continue
        exc = _EXC.match(line)
        if exc and exc.group("msg") is not None:
            message, i = _read_message(lines, i + 1, exc.group("msg"), bare=True)
            errors.extend(_with_worker_error(Error(exc.group("type"), message)))
            continue
        i += 1
    if not errors and text.strip():
        errors.append(Error(None, text.strip()[:MAX_MESSAGE]))
    return Trace(tuple(errors), text)


def _relate(err: Error, relation: str) -> Error:
    return Error(err.exc_type, err.message, err.frames, relation)


def _read_traceback(lines: list[str], i: int) -> tuple[Error | None, int]:
    frames: list[Frame] = []
    while i < len(lines):
        m = _FRAME.match(lines[i])
        if m:
            source = None
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if nxt.startswith(" ") and nxt.strip() and not _FRAME.match(nxt):
                source = nxt.strip()
                i += 1
            frames.append(
                Frame(
                    m.group("file"), int(m.group("line")), (m.group("name") or "").strip(), source
                )
            )
            i += 1
            continue
        stripped = lines[i].strip()
        # Caret lines (^^^^), "[Previous line repeated N more times]" and blanks belong to frames.
        if not stripped or set(stripped) <= set("^~ ") or stripped.startswith("[Previous line"):
            i += 1
            continue
        exc = _EXC.match(lines[i]) or _EXC_IN_TRACEBACK.match(lines[i])
        if exc:
            message, i = _read_message(lines, i + 1, exc.group("msg") or "")
            return Error(exc.group("type"), message, tuple(frames)), i
        if lines[i].startswith(" "):  # a source line we could not pair with a frame
            i += 1
            continue
        # Something that is no exception line ends the traceback (e.g. a cut-off log).
        return (Error(None, stripped, tuple(frames)) if frames else None), i + 1
    return None, i


def _read_message(lines: list[str], i: int, first: str, *, bare: bool = False) -> tuple[str, int]:
    """A message runs on until a blank line, a new traceback or a chaining sentence. A bare error
    line in a log (no traceback above it) takes only indented continuation lines: the next
    unindented line is the log going on."""
    parts = [first]
    while i < len(lines) and len(parts) < MAX_MESSAGE_LINES:
        line = lines[i]
        if not line.strip() and not _continues(lines, i + 1):
            break
        if bare and not line[:1].isspace() and not line.lstrip().startswith("Original Traceback"):
            break
        if _TRACEBACK.search(line) and not line.lstrip().startswith("Original Traceback"):
            break
        if _CHAIN.match(line):
            break
        parts.append(line)
        i += 1
    return "\n".join(parts).strip()[:MAX_MESSAGE], i


def _continues(lines: list[str], i: int) -> bool:
    """After a blank line, an indented or tab-led line still belongs to the message."""
    return i < len(lines) and lines[i][:1] in ("\t", " ") and not _FRAME.match(lines[i])


def _with_worker_error(err: Error) -> list[Error]:
    """A DataLoader re-raise carries the worker's original traceback inside its message."""
    if not _WORKER.search(err.message):
        return [err]
    inner = parse_inner(err.message[err.message.find("Original Traceback") :])
    return [*(_relate(e, "worker") for e in inner), err]


def parse_inner(text: str) -> tuple[Error, ...]:
    lines = text.split("\n")
    found, _ = _read_traceback(lines, 1)
    return (found,) if found and found.exc_type else ()
