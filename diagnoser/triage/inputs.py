"""What `diagnoser triage` reads: files, folders (recursively) and globs, plain or compressed.

Every input is opened as a binary stream and read in blocks, never whole: `.gz` through the
standard library, `.zst` through zstandard (the `triage` extra), anything else as it is.
"""

from __future__ import annotations

import os

from ..speak.optional import MissingOptional, requires

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs a start-up milliseconds
    from types import ModuleType
    from typing import Any, BinaryIO

_GLOB_CHARS = frozenset("*?[")


class InputError(Exception):
    """An input that names nothing or cannot be opened; the message says which and why."""


def expand(paths: list[str], problems: list[str] | None = None) -> list[str]:
    """Every file the arguments name, each once (a symbolic link and its target are one file),
    sorted within each argument. A folder stands for every file under it; a glob for what it
    matches (`**` crosses folders). Links to folders are not followed: a link loop would read
    the same files again and again. A folder that cannot be read is added to `problems`."""
    found: list[str] = []
    for arg in paths:
        if _GLOB_CHARS & set(arg):
            matched = sorted(p for p in _glob(arg, problems) if os.path.isfile(p))
            if not matched:
                raise InputError(f"{arg}: no file matches")
            found += matched
        elif os.path.isdir(arg):
            found += sorted(_walk(arg, problems))
        elif os.path.isfile(arg):
            found.append(arg)
        else:
            raise InputError(f"{arg}: no such file or folder")
    unique: dict[str, str] = {}
    for path in found:
        unique.setdefault(os.path.realpath(path), path)
    return list(unique.values())


def _walk(folder: str, problems: list[str] | None) -> list[str]:
    def unreadable(e: OSError) -> None:
        if problems is not None:
            problems.append(f"{e.filename}: folder not read: {e.strerror or e}")

    return [
        os.path.join(root, name)
        for root, dirs, names in os.walk(folder, onerror=unreadable)
        for name in names
        if not name.startswith(".")
    ]


def _glob(pattern: str, problems: list[str] | None) -> list[str]:
    """glob.glob, but `**` walks folders without following links to folders (glob's own `**`
    follows them, into any loop)."""
    import glob  # as gzip below: imported by the inputs that need it

    if "**" not in pattern:
        return glob.glob(pattern)
    import fnmatch

    head = pattern.split("**", 1)[0]
    root = os.path.dirname(head) if _GLOB_CHARS & set(head) or not head.endswith(os.sep) else head
    root = root or os.curdir
    # a wildcard before the `**`: the folders it matches, each walked
    wild = _GLOB_CHARS & set(root)
    roots = [r for r in glob.glob(root) if os.path.isdir(r)] if wild else [root]
    # `a/**/b` also matches `a/b`, as glob's `**` matches no folder too
    patterns = {pattern, pattern.replace("**" + os.sep, "")}
    # os.walk(".") names files "./x": compare them as the pattern spells them
    bare = os.curdir + os.sep
    keep = pattern.startswith(bare)
    return [
        path
        for r in roots
        for path in _walk(r, problems)
        if any(fnmatch.fnmatchcase(path if keep else path.removeprefix(bare), p) for p in patterns)
    ]


def open_binary(path: str) -> BinaryIO:
    """The file's bytes, decompressed when its name says so, as UTF-8."""
    try:
        return utf8(decompressed(open(path, "rb"), path))  # the caller closes it
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}") from None


def utf8(raw: BinaryIO) -> BinaryIO:
    """The stream as UTF-8: a UTF-16 or UTF-32 log (a BOM, or the NUL bytes of PowerShell's `>`)
    is decoded as it is read; anything else is left as it is. Nothing is read before the first
    read: a damaged file fails there, where its reader reports it."""
    return _Utf8(raw)  # type: ignore[return-value]


def _wide_encoding(head: bytes) -> str | None:
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "utf-32"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    sample = head[: len(head) // 2 * 2]
    if len(sample) >= 8 and sample[1::2].count(0) > 0.4 * len(sample) // 2:
        return "utf-16-le"
    if len(sample) >= 8 and sample[0::2].count(0) > 0.4 * len(sample) // 2:
        return "utf-16-be"
    return None


class _Utf8:
    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._head: bytes | None = None  # None until the first read has sniffed the encoding
        self._decoder: Any = None

    def read(self, n: int = -1) -> bytes:
        if self._head is None:
            self._head = self._raw.read(max(n, 4096) if n >= 0 else -1)
            encoding = _wide_encoding(self._head)
            if encoding is not None:
                import codecs

                self._decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        if self._head:
            block, self._head = self._head, b""
        else:
            block = self._raw.read(n)
        if self._decoder is None:
            return block
        return self._decoder.decode(block, final=not block).encode("utf-8")  # type: ignore[no-any-return]

    def close(self) -> None:
        self._raw.close()

    def __enter__(self) -> _Utf8:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def decompressed(raw: BinaryIO, name: str) -> BinaryIO:
    """A binary stream read through the decompressor its name (.gz, .zst) calls for."""
    if name.endswith(".gz"):
        import gzip

        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    if name.endswith(".zst"):
        try:
            zstandard = _zstandard()
        except MissingOptional as e:
            raw.close()
            raise InputError(f"{name}: {e}") from None
        return _Zstd(raw, zstandard)  # type: ignore[return-value]
    return raw


class _Zstd:
    """A .zst file's bytes, read through one decompressor per frame. zstandard's stream reader
    takes a file cut in the middle of a frame for a complete one (the rest silently missing) and
    raises its own error on damaged data: here both are an OSError that says so."""

    def __init__(self, raw: BinaryIO, zstandard: ModuleType) -> None:
        self._raw, self._zstd = raw, zstandard
        self._dobj = zstandard.ZstdDecompressor().decompressobj()
        self._pending = b""
        self._fed = False  # an empty file is no cut-off frame

    def read(self, n: int = -1) -> bytes:
        while not self._pending:
            chunk = self._raw.read(1 << 20)
            if not chunk:
                if self._fed and not self._dobj.eof:
                    raise OSError("the .zst file ends in the middle of a frame (cut off?)")
                return b""
            self._fed = True
            try:
                self._pending = self._feed(chunk)
            except self._zstd.ZstdError as e:
                raise OSError(f"damaged .zst data: {e}") from None
        size = len(self._pending) if n < 0 else n
        out, self._pending = self._pending[:size], self._pending[size:]
        return out

    def _feed(self, chunk: bytes) -> bytes:
        out = b""
        while chunk:
            out += self._dobj.decompress(chunk)
            chunk = self._dobj.unused_data if self._dobj.eof else b""
            if self._dobj.eof and chunk:  # another frame follows
                self._dobj = self._zstd.ZstdDecompressor().decompressobj()
        return out

    def close(self) -> None:
        self._raw.close()

    def __enter__(self) -> _Zstd:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _zstandard() -> ModuleType:
    with requires("zstandard", extra="triage", feature="reading .zst"):
        import zstandard
    return zstandard


def check_decompressors(paths: list[str]) -> None:
    """Raise MissingOptional when a file needs a decompressor that is not installed: the command
    says so once, before reading anything, rather than once per file."""
    if any(p.endswith(".zst") for p in paths):
        _zstandard()


def display_name(path: str) -> str:
    """The path as the user would recognise it: relative to the working folder when inside it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel
