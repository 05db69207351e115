"""The user's cache directory, where what the diagnoser compiles once is kept for the next start:
the knowledge base's index (index.py) and compiled regular expressions (regex_cache.py).

Files are kept in groups named by what precedes the first dot (an index's .marshal, .records and
derived files). A group nobody has read for _UNUSED_DAYS is removed the next time something is
written here: the index of a deleted virtual environment, or the regex cache of a Python that was
upgraded away, would otherwise stay forever."""

from __future__ import annotations

import os

_DAY_S = 86400.0
_UNUSED_DAYS = 30
_pruned = False  # at most one scan of the folder per process


def cache_dir() -> str:
    explicit = os.environ.get("DIAGNOSER_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "torch-diagnoser")


def write_atomically(path: str, content: bytes) -> None:
    """Write a whole file or none of it: a reader in another process never sees half a file.
    Raises OSError; callers treat an unwritable cache as a slower start, never a failure."""
    import tempfile  # only when something is written, never on a warm start

    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)  # private: what the user diagnosed
    if not _pruned and os.path.abspath(folder) == os.path.abspath(cache_dir()):
        _prune(folder)
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(content)
        os.replace(tmp, path)
    except BaseException:
        import contextlib

        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def mark_used(fd: int, path: str) -> None:
    """Note that the cache file `path`, open as `fd`, was read: its modification time is moved on
    at most once a day, so that a start costs one fstat and the file's group is kept."""
    import time

    try:
        if time.time() - os.fstat(fd).st_mtime > _DAY_S:
            os.utime(path)
    except OSError:
        pass  # read-only cache: it is only pruned by whoever can write it


def _prune(folder: str) -> None:
    """Remove the groups of files in `folder` whose newest file is older than _UNUSED_DAYS."""
    import contextlib
    import time

    global _pruned
    _pruned = True
    newest: dict[str, float] = {}
    paths: dict[str, list[str]] = {}
    with contextlib.suppress(OSError), os.scandir(folder) as found:
        for e in found:
            with contextlib.suppress(OSError):
                group = e.name.split(".", 1)[0]
                newest[group] = max(newest.get(group, 0.0), e.stat().st_mtime)
                paths.setdefault(group, []).append(e.path)
    oldest_kept = time.time() - _UNUSED_DAYS * _DAY_S
    for group, mtime in newest.items():
        if mtime < oldest_kept:
            for path in paths[group]:
                with contextlib.suppress(OSError):  # in use (Windows) or already gone
                    os.unlink(path)
