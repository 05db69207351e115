"""`compile_cached(pattern, flags)`: re.compile, but a pattern compiled once is not parsed again by
the next process.

Python's re parses and compiles every pattern in pure Python, in every process: the ~120 patterns a
diagnosis uses cost ~14 ms, a third of a cold `diagnoser` run. What re's compiler makes of a pattern
is a list of opcodes, which `_sre.compile` (C) turns into a Pattern in microseconds. So those
opcodes are kept in the user's cache directory, one file per Python build (as .pyc files are),
read once at import, and written back at exit when new patterns were compiled. Each pattern's
opcodes stay marshalled bytes in that file until the pattern is used: the file holds every pattern
of the knowledge base (building the index compiles them all), a diagnosis uses a few dozen, and
unmarshalling all the opcode lists at each start cost more (~4 ms) than it saved.

re's compiler is private API. A pattern's opcodes are kept only when the Pattern they make is equal
(same pattern, flags and code) to re.compile's, checked when the pattern is first compiled; and
anything unexpected (another Python version, a damaged file) falls back to re.compile. A pattern
out of the cache is therefore the very Pattern re.compile would have returned.
"""

from __future__ import annotations

import marshal
import os
import re
import sys
import zlib

from .user_cache import cache_dir, mark_used, write_atomically

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

try:
    import _sre
    from re import _compiler, _parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10 names them differently: no cache there
    _sre = None

# Enough for every pattern of the code and the knowledge base several times over; a file that
# outgrows it (patterns of many knowledge bases) starts again with this process's patterns.
_MAX_PATTERNS = 4096
_NAME = f"regex-v2-{sys.implementation.cache_tag}-{sys.hexversion:x}-{getattr(_sre, 'MAGIC', 0)}"

# (pattern, flags) -> the arguments of _sre.compile after the pattern
_Args = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]


def _path() -> str:
    return os.path.join(cache_dir(), _NAME + ".marshal")


def _load() -> dict[tuple[str, int], bytes]:
    if _sre is None:
        return {}
    try:
        with open(_path(), "rb") as f:
            mark_used(f.fileno(), _path())
            raw = f.read()
        # its CRC-32 first: a damaged entry that _sre still accepts would match differently
        if zlib.crc32(memoryview(raw)[4:]) != int.from_bytes(raw[:4], "little"):
            return {}
        data = marshal.loads(memoryview(raw)[4:])
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return data if isinstance(data, dict) else {}


_known = _load()  # (pattern, flags) -> its _Args, marshalled
_new: dict[tuple[str, int], bytes] = {}
_made: dict[tuple[str, int], re.Pattern[str]] = {}  # this process's, by (pattern, flags)


def compile_cached(pattern: str, flags: int = 0) -> re.Pattern[str]:
    key = (pattern, int(flags))
    made = _made.get(key)
    if made is None:
        made = _made[key] = _compile(key)
    return made


def _compile(key: tuple[str, int]) -> re.Pattern[str]:
    kept = _known.get(key)
    if kept is not None:
        try:
            return _sre.compile(key[0], *marshal.loads(kept))  # type: ignore[no-any-return]
        except Exception:  # damaged or foreign opcodes: _sre validates them and refuses
            del _known[key]
    compiled = re.compile(*key)
    if _sre is not None and len(_new) < _MAX_PATTERNS:
        _keep(key, compiled)
    return compiled


def _keep(key: tuple[str, int], compiled: re.Pattern[str]) -> None:
    try:
        args = _opcodes(*key)
        if _sre.compile(key[0], *args) != compiled:
            return
    except Exception:  # re's private compiler changed shape: this pattern is simply not cached
        return
    if not _new:
        import atexit

        atexit.register(_save)
    _new[key] = marshal.dumps(args)


def _opcodes(pattern: str, flags: int) -> _Args:
    """What re._compiler.compile passes to _sre.compile, as it computes it."""
    parsed: Any = _parser.parse(pattern, flags)
    # plain ints: re's opcodes are an int subclass with a name, which marshal cannot write
    code = [int(op) for op in _compiler._code(parsed, flags)]
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    return (
        flags | parsed.state.flags,
        code,
        parsed.state.groups - 1,
        groupindex,
        tuple(indexgroup),
    )


def _save() -> None:
    kept = {**_known, **_new} if len(_known) + len(_new) <= _MAX_PATTERNS else dict(_new)
    import contextlib

    with contextlib.suppress(OSError, ValueError):  # unwritable: the next start compiles again
        raw = marshal.dumps(kept)
        write_atomically(_path(), zlib.crc32(raw).to_bytes(4, "little") + raw)
