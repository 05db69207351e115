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
    from typing import BinaryIO

_GLOB_CHARS = frozenset("*?[")


class InputError(Exception):
    """An input that names nothing or cannot be opened; the message says which and why."""


def expand(paths: list[str]) -> list[str]:
    """Every file the arguments name, each once, sorted within each argument. A folder stands for
    every file under it; a glob for what it matches (`**` crosses folders)."""
    found: list[str] = []
    for arg in paths:
        if _GLOB_CHARS & set(arg):
            import glob  # as gzip below: imported by the inputs that need it

            matched = sorted(p for p in glob.glob(arg, recursive=True) if os.path.isfile(p))
            if not matched:
                raise InputError(f"{arg}: no file matches")
            found += matched
        elif os.path.isdir(arg):
            found += sorted(
                os.path.join(root, name)
                for root, dirs, names in os.walk(arg)
                for name in names
                if not name.startswith(".")
            )
        elif os.path.isfile(arg):
            found.append(arg)
        else:
            raise InputError(f"{arg}: no such file or folder")
    return list(dict.fromkeys(found))


def open_binary(path: str) -> BinaryIO:
    """The file's bytes, decompressed when its name says so."""
    try:
        return decompressed(open(path, "rb"), path)  # the caller closes it
    except OSError as e:
        raise InputError(f"{path}: {e.strerror or e}") from None


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
        reader: BinaryIO = zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)
        return reader
    return raw


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
