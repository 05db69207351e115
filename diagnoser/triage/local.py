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
        return report([_scan(task, index, on_read) for task in tasks])
    return report(_in_workers(tasks, index, min(jobs, len(paths)), on_read))


def _in_workers(
    tasks: list[tuple[str, Path | None]],
    index: Index,
    workers: int,
    on_read: Callable[[int], None] | None,
) -> list[FileResult]:
    """Each file read in a worker process. A worker that dies (the OOM killer, a signal) is
    noticed, not waited for forever: the files it left unread are read here, in this process,
    and the report says so."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("spawn")
    results: list[FileResult | None] = [None] * len(tasks)
    died = False
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_leave_ctrl_c)
    try:
        futures = _without_ctrl_c(lambda: [pool.submit(_scan_in_worker, t) for t in tasks])
        for i, future in enumerate(futures):
            try:
                result, size = future.result()
            except BrokenProcessPool:
                died = True
                continue
            results[i] = result
            if on_read:
                on_read(size)
    except BaseException:  # Ctrl-C: stop the workers, do not wait for the files they are on
        _stop(pool)
        raise
    pool.shutdown()
    lost = [i for i, r in enumerate(results) if r is None]
    for i in lost:  # its worker died: read it here
        results[i] = _scan(tasks[i], index, on_read)
    found = [r for r in results if r is not None]
    if died:
        note = f"a worker process died while reading; {len(lost)} file(s) read again here"
        found[0].problem = "\n".join(filter(None, [found[0].problem, note]))
    return found


def _stop(pool: Any) -> None:
    """End the pool now. `shutdown` alone waits for the files the workers are reading, which
    can take minutes for a big log; the workers ignore SIGINT, so they are terminated. The
    executor has no public call for it before Python 3.14 (`terminate_workers`)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # shutdown forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def _without_ctrl_c(start: Callable[[], Any]) -> Any:
    """Run `start` (which starts the worker processes) while Ctrl-C is the parent's alone.

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
        return start()
    try:
        return start()
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
