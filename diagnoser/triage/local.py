"""The local engine: every file scanned in this process, or in `jobs` worker processes."""

from __future__ import annotations

import os

from ..knowledge.index import Index, load_index
from .grouping import FileResult, Report, report, scan_file
from .inputs import display_name

TYPE_CHECKING = False
if TYPE_CHECKING:  # pathlib costs a start-up milliseconds
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

_COMPRESSED = (".gz", ".zst")


def run(
    paths: list[str],
    index: Index,
    jobs: int = 1,
    kb: Path | None = None,
    on_read: Callable[[int], None] | None = None,
) -> Report:
    """Scan `paths` (already expanded) and group what they hold. `on_read` hears of every byte
    read from the disk, for a progress bar."""
    tasks = [(path, kb) for path in paths]
    if jobs <= 1 or len(paths) <= 1:
        results = [_scan(task, index, on_read) for task in tasks]
    else:
        import multiprocessing

        with _pool(multiprocessing.get_context("spawn"), min(jobs, len(paths))) as pool:
            results = []
            for result, size in pool.imap(_scan_in_worker, tasks):
                results.append(result)
                if on_read:
                    on_read(size)
    return report(results)


def _pool(context: Any, workers: int) -> Any:
    """A pool whose workers leave Ctrl-C to this process, which stops them (`with pool`).

    Ctrl-C reaches the whole process group, and a worker that raised KeyboardInterrupt would
    print its traceback, even while it is still starting. So the workers are started while
    SIGINT is ignored: an ignored signal stays ignored across exec, and Python then installs no
    handler of its own. Meanwhile SIGINT is also blocked here, so that a Ctrl-C pressed then is
    kept pending (a blocked signal is not discarded) and raised once the handler is back. The
    resource tracker is started first: starting it unblocks SIGINT (bpo-33613)."""
    import signal

    try:
        if hasattr(signal, "pthread_sigmask"):
            from multiprocessing import resource_tracker

            resource_tracker.ensure_running()
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to set
        return context.Pool(workers, _leave_ctrl_c)
    try:
        return context.Pool(workers, _leave_ctrl_c)
    finally:
        signal.signal(signal.SIGINT, previous)
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _leave_ctrl_c() -> None:
    """In each worker (started ignoring it already): Ctrl-C is the parent's to handle."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _scan(
    task: tuple[str, Path | None], index: Index, on_read: Callable[[int], None] | None
) -> FileResult:
    path = task[0]
    compressed = path.endswith(_COMPRESSED)
    result = scan_file(path, index, None if compressed else on_read, display_name(path))
    if compressed and on_read:
        on_read(file_size(path))
    return result


def file_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


_worker_index: Index | None = None


def _scan_in_worker(task: tuple[str, Path | None]) -> tuple[FileResult, int]:
    global _worker_index
    if _worker_index is None:  # once per worker process: the index is cached on disk
        _worker_index = load_index(task[1])
    return _scan(task, _worker_index, None), file_size(task[0])
