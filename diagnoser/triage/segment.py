"""Cut a stream of any size into the few chunks of it that hold an error.

The stream is read in blocks. Trigger words (every error layout that parse.py reads prints one of
them) are looked for with C-level searches over the whole block, never line by line: first by
their capital letter (`memchr`, far faster than a substring search), falling back to a substring
search per word in a block where that letter is common. With one newline count per block, that
keeps triage within a small multiple of a bare loop over the file's lines.

Around a trigger a segment opens, takes a few lines of context before it, and runs on while
triggers, indented lines (frames, source, a message's continuation) or a few quiet lines follow;
parse.py then reads each segment as it reads a paste. Memory stays bounded: one block, one
segment of at most MAX_SEGMENT_LINES lines.
"""

from __future__ import annotations

import re
from collections import deque

from ..knowledge.records import (
    dataclass,  # the plain diagnoser reads logs here: no `dataclasses` cost
)
from ..text.cleanup import decode
from .origin import by_rank

TYPE_CHECKING = False  # nor `typing`'s
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

BLOCK = 1 << 20
# Each error layout parse.py knows prints one of these: a traceback's header, its exception line
# (`...Error`, `...Exception`, `...Warning`), a C++ `what():` after "c10::Error", "Exception
# ignored in:", "Exception has occurred:". Each costs one pass of `bytes.find` per block.
TRIGGERS = (b"Traceback", b"Error", b"Exception", b"Warning")
BEFORE = 3  # lines of context kept in front of a trigger (a timestamp, "Exception ignored in:")
AFTER = 12  # quiet lines after which a segment closes
MAX_SEGMENT_LINES = 4000
MAX_LINE = 16_384  # a longer line is cut: no error line is that long, and memory stays bounded
# A line that belongs to the error above it: indented (frames, source, carets, a message's
# continuation), also behind a per-process prefix such as `[rank1]:` or `[1,0]<stderr>:`.
_CONTINUES = re.compile(rb"^(?:\S{1,40}?[\]>]:)?[ \t]")


@dataclass(frozen=True)
class Segment:
    first_line: int  # the 1-based line number of lines[0] in its stream
    lines: tuple[bytes, ...]


def _is_trigger(line: bytes) -> bool:
    return any(t in line for t in TRIGGERS)


class _Open:
    """The segment being collected."""

    def __init__(self, first_line: int, context: list[bytes]) -> None:
        self.first_line = first_line
        self.lines = context
        self.quiet = 0

    def take(self, line: bytes) -> bool:
        """Add a line; False when the segment ended before it (the line is not taken)."""
        if _is_trigger(line) or _CONTINUES.match(line):
            self.quiet = 0
        else:
            self.quiet += 1
            if self.quiet > AFTER:
                return False
        self.lines.append(line[:MAX_LINE])
        return True

    @property
    def full(self) -> bool:
        return len(self.lines) >= MAX_SEGMENT_LINES

    def close(self) -> Segment:
        lines = self.lines
        while lines and not lines[-1].strip():
            lines.pop()
        return Segment(self.first_line, tuple(lines))


def segments(stream: BinaryIO) -> Iterator[Segment]:
    """Every error-bearing segment of the stream, in order."""
    carry = b""
    lineno = 1  # the number of the line that starts at buf[0]
    recent: deque[bytes] = deque(maxlen=BEFORE)  # the last lines of the previous block
    current: _Open | None = None
    while True:
        block = stream.read(BLOCK)
        buf = carry + block if carry else block
        if block:
            cut = buf.rfind(b"\n") + 1
            if cut == 0 and len(buf) < 4 * BLOCK:
                carry = buf  # a line longer than a block: wait for its end
                continue
            cut = cut or len(buf)
            carry = buf[cut:]
            buf = buf[:cut]
        elif not buf:
            break
        else:
            carry = b""
        pos = 0
        finders = [_Finder(buf, letter, words) for letter, words in _BY_LETTER.items()]
        while pos < len(buf):
            if current is not None:
                pos, lineno, done = _extend(current, buf, pos, lineno)
                if done:
                    yield current.close()
                    current = None
                continue
            hits = [at for at in (f.next(pos) for f in finders) if at >= 0]
            if not hits:
                lineno += buf.count(b"\n", pos)
                break
            start = buf.rfind(b"\n", pos, min(hits)) + 1
            start = max(start, pos)
            lineno += buf.count(b"\n", pos, start)
            context = _before(buf, start, recent)
            current = _Open(lineno - len(context), context)
            pos = start
        recent.extend(buf[max(0, len(buf) - 4 * MAX_LINE) :].split(b"\n")[-BEFORE - 1 : -1])
        if not block:
            break
    if current is not None:
        yield current.close()


_BY_LETTER: dict[bytes, tuple[bytes, ...]] = {}
for _word in TRIGGERS:
    _BY_LETTER.setdefault(_word[:1], ())
    _BY_LETTER[_word[:1]] += (_word,)
# Occurrences of a letter that start no trigger, after which a block is searched word by word.
_FALSE_STARTS = 64


class _Finder:
    """The next trigger that starts with one capital letter, in one block."""

    def __init__(self, buf: bytes, letter: bytes, words: tuple[bytes, ...]) -> None:
        self.buf, self.letter, self.words = buf, letter, words
        self.at = -2  # the next hit found so far; -2: not searched yet, -1: none left
        self.misses = 0
        self.word_at = dict.fromkeys(words, -2)  # the same, per word, once searched by word

    def next(self, pos: int) -> int:
        if self.at == -1 or self.at >= pos:
            return self.at
        buf = self.buf
        while self.misses < _FALSE_STARTS:
            at = buf.find(self.letter, pos)
            if at < 0 or any(buf.startswith(w, at) for w in self.words):
                self.at = at
                return at
            self.misses += 1
            pos = at + 1
        for w, at in self.word_at.items():
            if -1 < at < pos or at == -2:
                self.word_at[w] = buf.find(w, pos)
        hits = [at for at in self.word_at.values() if at >= 0]
        self.at = min(hits) if hits else -1
        return self.at


def _extend(current: _Open, buf: bytes, pos: int, lineno: int) -> tuple[int, int, bool]:
    """Feed the open segment line by line from pos; returns where it stopped, and whether the
    segment is finished."""
    while pos < len(buf):
        end = buf.find(b"\n", pos)
        end = len(buf) if end < 0 else end
        line = buf[pos:end].rstrip(b"\r")
        if not current.take(line):
            return pos, lineno, True
        pos = end + 1
        lineno += 1
        if current.full:
            return pos, lineno, True
    return pos, lineno, False


def _before(buf: bytes, start: int, recent: deque[bytes]) -> list[bytes]:
    """Up to BEFORE lines in front of buf[start], reaching back into the previous block."""
    lines: list[bytes] = []
    end = start - 1  # the newline that ends the line before, or -1 at the block's start
    while len(lines) < BEFORE and end >= 0:
        begin = buf.rfind(b"\n", 0, end) + 1
        lines.insert(0, buf[begin:end].rstrip(b"\r")[:MAX_LINE])
        end = begin - 1
    if len(lines) < BEFORE and end < 0 and recent:
        lines = list(recent)[len(lines) - BEFORE :] + lines
    return lines


# What `diagnoser FILE` keeps of the errors before a log's last MAX_INPUT bytes.
MAX_EARLIER = 1 << 20


class _Tail:
    """A stream that keeps its last `keep` bytes: one buffer, trimmed in place."""

    def __init__(self, raw: BinaryIO, keep: int) -> None:
        self.raw, self.keep, self.buf = raw, keep, bytearray()
        self.total = 0  # bytes read so far

    def read(self, n: int) -> bytes:
        block = self.raw.read(n)
        self.total += len(block)
        self.buf += block
        if len(self.buf) > 2 * self.keep:
            del self.buf[: len(self.buf) - self.keep]
        return block


def read_log(stream: BinaryIO, keep: int) -> bytes:
    """A log of any size in bounded memory, for `diagnoser FILE`: its last `keep` bytes, where the
    error that stopped the run is printed, and in front of them the segments that held earlier
    errors (each distinct one once, MAX_EARLIER bytes at most), so that an error in the middle
    of gigabytes is seen too. The last error stays last: it is still the one explained first."""
    tail = _Tail(stream, keep)
    earlier: list[bytes] = []
    seen: set[bytes] = set()
    size = 0
    for seg in segments(tail):  # type: ignore[arg-type]
        text = _one_block_per_rank(seg.lines)
        shape = _DIGITS.sub(b"0", text)  # the same error again, with other numbers
        if shape not in seen and size + len(text) <= MAX_EARLIER:
            seen.add(shape)
            earlier.append(text)
            size += len(text)
    end = bytes(tail.buf[-keep:])
    if tail.total <= keep:  # nothing was cut off: its segments are all in the text already
        return end
    earlier = [text for text in earlier if text not in end]
    return b"\n\n".join([*earlier, end]) if earlier else end


_DIGITS = re.compile(rb"\d+")


def _one_block_per_rank(raw: tuple[bytes, ...]) -> bytes:
    """The segment with its ranks' interleaved lines regrouped and their prefixes cut off: as
    plain text it stays where it is in the log, in front of the end (cleanup.py moves lines that
    still carry a rank prefix behind the unprefixed ones)."""
    lines = decode(b"\n".join(raw)).split("\n")
    blocks = ["\n".join(lines[i] for i in indices) for indices in by_rank(lines).values()]
    return "\n\n".join(blocks).encode("utf-8")
