"""From one file's bytes to groups of errors, and from many files' groups to one report.

Each segment (segment.py) is split by the rank that printed its lines, then read by the same
parse() and match() as a paste. An error is grouped the way Sentry groups issues: its KB family,
the user's frame (file and function) and its masked message; an error no entry explains groups by
its masked message alone. Groups from different files (or Spark tasks) merge with `Group.absorb`,
which is associative, so the local and the Spark engine share this one implementation.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from functools import lru_cache

from ..knowledge.index import Index
from ..knowledge.records import dataclass, field, replace  # not `dataclasses`: ~6 ms of every start
from ..knowledge.regex_cache import compile_cached
from ..text.cleanup import decode
from ..text.mask import mask
from ..text.match import Match, match
from ..text.parse import Error, Trace, parse
from ..text.symptoms import detect
from ..text.training_log import read as read_training_log
from .inputs import InputError, open_binary
from .origin import Rank, by_rank, rank_from_path, root_cause, timestamp
from .segment import BLOCK, segments

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing and datetime cost a start-up milliseconds
    from datetime import datetime
    from typing import BinaryIO

# What a rank prints when another one failed first: the peer went away, a collective timed out
# waiting for it, or the launcher killed the survivors. Also parse.py's wrappers (a launcher's
# "child failed", "Connection closed by peer").
_FOLLOWER = compile_cached(
    r"SignalException|got signal:? ?\d+|\bSIG(?:TERM|KILL|INT|HUP)\b"
    r"|Connection (?:closed|reset) by peer|Broken pipe|remote process exited"
    r"|(?:gloo|nccl|c10d|ProcessGroup|collective|[Ww]atchdog|store|barrier|rendezvous)"
    r"[^\n]{0,200}?(?:[Tt]imed? ?out|[Tt]imeout|abort)"
    r"|(?:[Tt]imed? ?out|[Tt]imeout)[^\n]{0,200}?(?:gloo|nccl|c10d|collective|store|rendezvous)"
    r"|NCCL communicator was aborted|DistNetworkError",
)
# The end of each file, where a training log's symptoms show: a few thousand lines of history.
# Reading numbers line by line is slow; more would cost more than scanning the file for errors.
_SYMPTOM_TAIL = 256 << 10


@dataclass(frozen=True)
class Seen:
    """Where and when an error was printed."""

    file: str
    line: int | None
    rank: Rank | None
    time: datetime | None

    def order(self, by_time: bool = True) -> tuple[datetime, str, int]:
        """Earlier first: by time where printed (and by_time), else by file name and line."""
        from datetime import datetime  # a time is read: the module is loaded already

        at = self.time if by_time and self.time else datetime.min
        return (at, self.file, self.line or 0)

    def before(self, other: Seen) -> bool:
        by_time = bool(self.time and other.time)
        return self.order(by_time) < other.order(by_time)


@dataclass
class Group:
    key: tuple[str | None, str, str]  # (family id, user's frame, masked message)
    id: str | None
    kind: str  # "error", "warning", "ignored" (at exit) or "symptom"
    follower: bool
    message: str  # the first occurrence's first line
    first: Seen
    error: Error | None  # the first occurrence, diagnosed in full for the first failure; None
    # for a symptom
    count: int = 1
    by_rank: dict[Rank, Seen] = field(default_factory=dict)  # each rank's first occurrence
    files: dict[str, None] = field(default_factory=dict)  # ordered set

    @property
    def ranks(self) -> list[Rank]:
        return sorted(self.by_rank, key=lambda r: (isinstance(r, str), str(r).zfill(12)))

    def absorb(self, other: Group) -> None:
        self.count += other.count
        for rank, seen in other.by_rank.items():
            held = self.by_rank.get(rank)
            if held is None or seen.before(held):
                self.by_rank[rank] = seen
        self.files.update(other.files)
        if other.first.before(self.first):
            self.first, self.error = other.first, other.error
            self.message = other.message


@dataclass
class FileResult:
    """What one file holds: its groups, torchrun's root-cause report if it printed one."""

    file: str
    groups: dict[tuple[str | None, str, str], Group] = field(default_factory=dict)
    root_rank: Rank | None = None
    root_time: datetime | None = None
    bytes: int = 0
    problem: str | None = None  # why the file could not be read to its end

    def add(self, group: Group) -> None:
        held = self.groups.get(group.key)
        if held is None:
            self.groups[group.key] = group
        else:
            held.absorb(group)


OnRead = Callable[[int], None]


class _Counted:
    """A stream that counts what was read (for the progress bar) and keeps its last blocks (where
    a training log's symptoms show)."""

    def __init__(self, raw: BinaryIO, on_read: OnRead | None) -> None:
        self.raw, self.on_read, self.bytes = raw, on_read, 0
        self.tail: list[bytes] = []

    def read(self, n: int) -> bytes:
        block = self.raw.read(n)
        self.bytes += len(block)
        if block:
            self.tail.append(block)
            del self.tail[: -(_SYMPTOM_TAIL // BLOCK + 2)]  # the last block may be short
        if self.on_read:
            self.on_read(len(block))
        return block


def scan_file(
    path: str, index: Index, on_read: OnRead | None = None, name: str | None = None
) -> FileResult:
    """Every error and symptom in one file, grouped. `name` is how reports show the file."""
    try:
        raw = open_binary(path)
    except InputError as e:
        return FileResult(name or path, problem=str(e))
    return scan_binary(raw, name or path, rank_from_path(path), index, on_read)


def scan_binary(
    raw: BinaryIO,
    name: str,
    path_rank: Rank | None,
    index: Index,
    on_read: OnRead | None = None,
) -> FileResult:
    """Every error and symptom in one (decompressed) stream, grouped; the stream is closed."""
    result = FileResult(name)
    with raw:
        counted = _Counted(raw, on_read)
        try:
            scan_stream(counted, result, path_rank, index)  # type: ignore[arg-type]
        except (
            OSError,
            EOFError,
            ValueError,
            zlib.error,
        ) as e:  # a damaged .gz/.zst: keep the rest
            result.problem = f"{name}: {e}"
        _symptoms(b"".join(counted.tail)[-_SYMPTOM_TAIL:], result, path_rank, index)
        result.bytes = counted.bytes
    return result


def scan_stream(stream: BinaryIO, result: FileResult, path_rank: Rank | None, index: Index) -> None:
    latest: datetime | None = None
    for seg in segments(stream):
        lines = decode(b"\n".join(seg.lines)).split("\n")
        rank, at = root_cause(lines)
        if rank is not None and result.root_rank is None:
            result.root_rank, result.root_time = rank, at
        found = _segment_groups(seg.first_line, lines, result.file, path_rank, index)
        for group in sorted(found, key=lambda g: g.first.line or 0):
            # An error's time is the last one printed before it, perhaps by another rank; a log
            # never goes back in time, so an error printed later is at least as late.
            if latest and (group.first.time is None or group.first.time < latest):
                group.first = replace(group.first, time=latest)
                group.by_rank = {r: group.first for r in group.by_rank}
            latest = group.first.time or latest
            result.add(group)


def _segment_groups(
    first_line: int,
    lines: list[str],
    file: str,
    path_rank: Rank | None,
    index: Index,
) -> Iterator[Group]:
    """The segment's lines split by the rank that printed them; each rank's part parsed alone."""
    lines = list(lines)
    parts = {
        rank: [(first_line + i, lines[i]) for i in indices]
        for rank, indices in by_rank(lines, path_rank).items()
    }
    for rank, numbered in parts.items():
        text = "\n".join(line for _, line in numbered)
        cursor = 0
        for err in parse(text).errors:
            if not _is_error(err):
                continue
            cursor = _locate(err, numbered, cursor)
            lineno = numbered[cursor][0]
            # the last time printed before the error: by its own rank, else by any
            before = lines[: lineno - first_line + 1]
            at = _time_before(numbered[: cursor + 1]) or _time_before(
                list(zip(range(first_line, lineno + 1), before, strict=True))
            )
            seen = Seen(file, lineno, rank, at)
            cursor += 1
            yield _group(err, index, seen)


# An exception class as Python prints it (`RuntimeError`, `torch.OutOfMemoryError`), or C++'s
# (`c10::Error`, `std::bad_alloc`).
_CLASS = compile_cached(r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*$|(?:\w+::)+\w+$")


def _is_error(err: Error) -> bool:
    """Not parse()'s "the whole text" when it found no error, nor a log's own metric printed
    like one (`val_error: 0.12`): a bare line counts only when it names an exception class."""
    if err.exc_type is None:
        return bool(err.frames) or err.kind != "exception"
    return bool(err.frames) or bool(_CLASS.match(err.exc_type))


def _locate(err: Error, numbered: list[tuple[int, str]], cursor: int) -> int:
    """The line that prints the error's message (or type), at or after the cursor."""
    first = err.message.split("\n", 1)[0].strip()[:80] or (err.exc_type or "")
    if first:
        for i in range(cursor, len(numbered)):
            if first in numbered[i][1]:
                return i
    return min(cursor, len(numbered) - 1)


def _time_before(numbered: list[tuple[int, str]]) -> datetime | None:
    for _, line in reversed(numbered):
        found = timestamp(line)
        if found:
            return found
    return None


def _group(err: Error, index: Index, seen: Seen) -> Group:
    family, key, follower = _identify(err, index)
    kind = {"exception": "error", "assert": "error"}.get(err.kind, err.kind)
    return Group(
        key=key,
        id=family,
        kind=kind,
        follower=follower,
        message=err.text.split("\n", 1)[0][:300],
        first=seen,
        error=err,
        by_rank={} if seen.rank is None else {seen.rank: seen},
        files={seen.file: None},
    )


@lru_cache(maxsize=4096)  # a log repeats its warnings and its ranks' errors many times
def _identify(err: Error, index: Index) -> tuple[str | None, tuple[str | None, str, str], bool]:
    """The error's family, its grouping key, and whether it only follows another failure."""
    best = best_match(err, index)
    family = best.entry.id if best else None
    masked = mask(err.text.split("\n", 1)[0])[:300]
    where = err.where
    frame = f"{where.filename}:{where.name}" if where and family else ""
    follower = err.is_wrapper or bool(_FOLLOWER.search(err.text))
    return family, (family, frame, masked), follower


def best_match(err: Error, index: Index) -> Match | None:
    """The entry that explains this one error, as `diagnoser` would rank it alone."""
    return match(Trace((err,), ""), index).best


def _symptoms(tail: bytes, result: FileResult, path_rank: Rank | None, index: Index) -> None:
    """The training behaviour a log shows at its end (nan loss, a plateau...), one group each."""
    if not tail:
        return
    text = decode(tail[tail.find(b"\n") + 1 :] if len(tail) >= _SYMPTOM_TAIL else tail)
    findings = detect(read_training_log(text))
    for entry in index.entries:
        signal = (entry.symptoms or {}).get("log_signal")
        if signal and signal in findings:
            seen = Seen(result.file, None, path_rank, None)
            result.add(
                Group(
                    key=(entry.id, "", ""),
                    id=entry.id,
                    kind="symptom",
                    follower=False,
                    message=entry.title["en"],
                    first=seen,
                    error=None,
                    by_rank={} if path_rank is None else {path_rank: seen},
                    files={result.file: None},
                )
            )


# -- many files → one report -------------------------------------------------------------------


@dataclass
class Report:
    groups: list[Group]  # in order of first occurrence
    first_failure: Group | None
    files: list[str]
    bytes: int
    problems: list[str]

    def role(self, g: Group) -> str | None:
        """ "first_failure", "follower" (an error that follows from it), or None."""
        if g is self.first_failure:
            return "first_failure"
        if g.follower and g.kind == "error" and self.first_failure is not None:
            return "follower"
        return None


def combine(a: FileResult, b: FileResult) -> FileResult:
    """Two results as one; associative, so Spark may reduce with it in any grouping."""
    out = FileResult(a.file or b.file, bytes=a.bytes + b.bytes)
    for r in (a, b):
        for group in r.groups.values():
            out.add(_copy(group))
    roots = [r for r in (a, b) if r.root_rank is not None]
    if roots:
        from datetime import datetime

        first = min(roots, key=lambda r: (r.root_time is None, r.root_time or datetime.min))
        out.root_rank, out.root_time = first.root_rank, first.root_time
    out.problem = "\n".join(p for p in (a.problem, b.problem) if p) or None
    return out


def _copy(g: Group) -> Group:
    return Group(**{**g.__dict__, "by_rank": dict(g.by_rank), "files": dict(g.files)})


def report(results: list[FileResult]) -> Report:
    total = FileResult("")
    for r in results:
        total = combine(total, r)
    # Times order events across files; where some lack one, files and lines order them all.
    by_time = all(g.first.time for g in total.groups.values())
    groups = sorted(total.groups.values(), key=lambda g: g.first.order(by_time))
    return Report(
        groups=groups,
        first_failure=first_failure(groups, total.root_rank),
        files=[r.file for r in results],
        bytes=total.bytes,
        problems=[p for r in results if r.problem for p in r.problem.split("\n")],
    )


def first_failure(groups: list[Group], root_rank: Rank | None) -> Group | None:
    """The failure that came first and caused the rest: the earliest error that is not only a
    consequence of another one, by time where every candidate has one; else torchrun's "Root
    Cause" rank decides, then the order of files and lines."""
    errors = [g for g in groups if g.kind == "error"]
    causes = [g for g in errors if not g.follower] or errors
    if not causes:
        return None
    by_time = all(g.first.time for g in causes)
    if root_rank is not None and not by_time:
        named = [g for g in causes if root_rank in g.by_rank]
        causes = named or causes
    return min(causes, key=lambda g: g.first.order(by_time))
