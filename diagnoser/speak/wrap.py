"""Prose that fits the terminal: the knowledge base's paragraphs reflowed, then wrapped to a width.

The KB's `cause` and `fix` are Markdown hard-wrapped at ~100 columns in the YAML; printed as they
are, an 80-column terminal folds each of those lines again and the text staircases. So each
paragraph (or list item) is first joined into one line (`blocks`), keeping blank lines, list
markers, tables, headings and code blocks as they are; then, only when the output is a terminal,
wrapped to its width with the right hanging indent (`wrap`). Piped, a paragraph stays one line:
the reader (a pager, an editor, a chat) wraps it to its own width.

Widths are the columns a terminal shows: an East Asian wide character takes two. A line breaks at
spaces, never inside a Latin word, and between two Chinese characters (not before a closing mark
such as "，" or after an opening one such as "（"). A word wider than the line (a URL, a long path)
gets a line of its own and is not cut. textwrap is not used: its import compiles regexes that
would cost every start-up, and it counts characters rather than columns.
"""

from __future__ import annotations

import os
import sys
import unicodedata

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO

# No line starts with these (closing marks) or ends with those (opening marks).
_CLOSING = set("，。、；：？！）」』】》〉〕〗｝］”’…‥%,.;:!?)]}")
_OPENING = set("（「『【《〈〔〖｛［“‘([{")
MIN_WIDTH = 20  # narrower than this, wrapping does more harm than good


def _wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in "WF"


def columns(text: str) -> int:
    """The columns text takes on a terminal: two for an East Asian wide character."""
    if text.isascii():
        return len(text)
    return sum(2 if _wide(c) else 1 for c in text)


def terminal_width(stream: TextIO | None = None) -> int | None:
    """The width to wrap to when the stream is a terminal (COLUMNS wins, as in shutil), else
    None: piped output is never wrapped."""
    stream = stream or sys.stdout
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):  # closed or replaced
        return None
    try:
        width = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        try:
            width = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, ValueError, OSError):
            return None
    return max(width - 1, MIN_WIDTH) if width > 0 else None  # the last column: some terminals
    # wrap as soon as it is written, and leave an empty line behind


def _pieces(word: str) -> list[str]:
    """A word without spaces, cut where a line may break inside it: beside a wide character,
    except before a closing mark or after an opening one. A Latin word stays whole."""
    if word.isascii():
        return [word]
    out, start = [], 0
    for i in range(1, len(word)):
        a, b = word[i - 1], word[i]
        if (_wide(a) or _wide(b)) and b not in _CLOSING and a not in _OPENING:
            out.append(word[start:i])
            start = i
    out.append(word[start:])
    return out


def _split(text: str) -> list[tuple[str, str]]:
    """(separator before, piece) for each piece of text: the run of spaces before it, or ""
    where the break falls inside a word."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(text)
    while i < n:
        j = i
        while j < n and text[j] == " ":
            j += 1
        space = text[i:j]
        k = j
        while k < n and text[k] != " ":
            k += 1
        if k > j:
            for p, piece in enumerate(_pieces(text[j:k])):
                out.append((space if p == 0 else "", piece))
        i = k
    return out


def wrap(text: str, width: int | None, first: str = "", rest: str | None = None) -> list[str]:
    """One paragraph (no line breaks) as lines of at most `width` columns, the first after
    `first`, the others after `rest` (a hanging indent; `first`'s width in spaces by default).
    A piece wider than a line gets a line of its own. width None: one line, as it is."""
    if rest is None:
        rest = " " * columns(first)
    if width is None or columns(first) + columns(text) <= width:
        return [first + text]
    lines: list[str] = []
    line, used, empty = first, columns(first), True
    for space, piece in _split(text.replace("\t", " ")):
        size = columns(piece)
        if empty:
            line, used, empty = line + piece, used + size, False
        elif used + len(space) + size <= width:
            line, used = line + space + piece, used + len(space) + size
        else:
            lines.append(line)
            line, used = rest + piece, columns(rest) + size
    lines.append(line)
    return lines


def join(lines: list[str]) -> str:
    """Hard-wrapped lines as one: a space where the line broke between words, none between two
    Chinese characters or beside a full-width mark (the YAML's line break was no space there)."""
    out = ""
    for line in lines:
        if out and line and not _glued(out[-1], line[0]):
            out += " "
        out += line
    return out


def _glued(a: str, b: str) -> bool:
    return (_wide(a) and _wide(b)) or _full_width_mark(a) or _full_width_mark(b)


def _full_width_mark(c: str) -> bool:
    return "\u3000" <= c <= "\u303f" or "\uff00" <= c <= "\uffef"


class Block:
    """A paragraph or list item: its lines joined (`text`) after its indent (`lead`) and list
    marker; or lines kept as they are (`kept`): a code block with its fences (`code`), a table
    row, a heading, a blank line."""

    __slots__ = ("closed", "code", "kept", "lead", "marker", "parts")

    def __init__(self, lead: str = "", marker: str = "", kept: list[str] | None = None) -> None:
        self.lead, self.marker, self.kept = lead, marker, kept
        self.parts: list[str] = []
        self.code = self.closed = False

    @property
    def text(self) -> str:
        return join(self.parts)


def _marker(line: str) -> str:
    """The list marker a line starts with ("- ", "* ", "12. ", "3) "), or ""."""
    if line[:2] in ("- ", "* ", "+ "):
        return line[:2]
    digits = len(line) - len(line.lstrip("0123456789"))
    if 0 < digits < 4 and line[digits : digits + 2] in (". ", ") "):
        return line[: digits + 2]
    return ""


def _heading(line: str) -> bool:
    hashes = len(line) - len(line.lstrip("#"))
    return 0 < hashes <= 6 and line[hashes : hashes + 1] in ("", " ")


def blocks(md: str) -> list[Block]:
    """Markdown as blocks: each paragraph and list item with its lines joined."""
    out: list[Block] = []
    current: Block | None = None  # the paragraph or item that a next line continues
    code: Block | None = None  # the open code block
    fence = ""
    for line in md.strip("\n").split("\n"):
        stripped = line.lstrip(" ")
        if code is not None:
            code.kept.append(line)  # type: ignore[union-attr]
            if stripped.startswith(fence) and not stripped.rstrip().strip(fence[0]):
                code.closed, code = True, None
            continue
        lead = line[: len(line) - len(stripped)]
        if stripped.startswith(("```", "~~~")):
            fence = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
            current, code = None, Block(kept=[line])
            code.code = True
            out.append(code)
        elif (
            not stripped
            or stripped.startswith("|")
            or _heading(stripped)
            or (current is None and len(lead) >= 4)  # an indented code block
        ):
            current = None
            out.append(Block(kept=[line.rstrip()]))
        elif marker := _marker(stripped):
            current = Block(lead, marker)
            current.parts.append(stripped[len(marker) :].strip())
            out.append(current)
        elif current is not None:
            current.parts.append(stripped.strip())
        else:
            current = Block(lead)
            current.parts.append(stripped.strip())
            out.append(current)
    return out


def markdown(
    md: str,
    width: int | None,
    indent: str = "",
    *,
    fences: bool = True,
    code: Callable[[str], str] | None = None,
) -> list[str]:
    """Markdown prose reflowed (and wrapped to width) under indent. With fences=False, a code
    block loses its fences and is indented four more columns, each line passed through code()
    (a colour); code is never wrapped."""
    out: list[str] = []
    for block in blocks(md):
        if block.kept is None:
            first = indent + block.lead + block.marker
            out += wrap(block.text, width, first, indent + block.lead + " " * len(block.marker))
        elif block.code and not fences:
            inside = block.kept[1:-1] if block.closed else block.kept[1:]
            style = code or (lambda s: s)
            out += [indent + "    " + style(line) if line.strip() else "" for line in inside]
        else:
            out += [indent + line if line.strip() else "" for line in block.kept]
    return out
