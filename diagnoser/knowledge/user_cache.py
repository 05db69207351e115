"""The user's cache directory, where what the diagnoser compiles once is kept for the next start:
the knowledge base's index (index.py) and compiled regular expressions (regex_cache.py)."""

from __future__ import annotations

import os


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
