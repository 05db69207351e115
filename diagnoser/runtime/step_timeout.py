"""watch(step_timeout=...): when no training step finishes for that long, print what every thread
of the process is doing.

A rank that stopped (a sleep, a breakpoint, an endless loop on one rank), a collective waiting for
a rank that never comes, a DataLoader worker that hangs: the run goes quiet with no error for as
long as NCCL's watchdog waits (10 minutes by default) and then names a collective at best. Here
each watched process prints, once per stall, its last finished step, the Python stack of each of
its threads and, under torch.distributed, its rank and the collective its main thread waits in.
Nothing is stopped: the run goes on if the step finishes after all.

Cheap: a daemon thread wakes a few times per timeout; a finished step (or any forward of the
model: a validation loop is progress too) only stores the time and the step.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from types import FrameType

from ..speak.i18n import default_lang
from .findings import Finding

ENV = "DIAGNOSER_STEP_TIMEOUT"  # seconds, for runs started by torchrun or a launcher script
_C10D = os.path.join("distributed", "distributed_c10d.py")
_AUTOGRAD = os.path.join("torch", "autograd")


def seconds_from(step_timeout: float | None) -> float | None:
    """The timeout asked for: the argument, else the environment variable (ignored unless it is a
    positive number: a typo there must not stop the training)."""
    if step_timeout is not None:
        if step_timeout <= 0:
            raise ValueError(f"step_timeout must be a positive number of seconds: {step_timeout}")
        return float(step_timeout)
    try:
        seconds = float(os.environ.get(ENV, ""))
    except ValueError:
        return None
    return seconds if seconds > 0 else None


class StepTimeout:
    def __init__(self, seconds: float, report: Callable[[Finding, str], None]) -> None:
        self.seconds = seconds
        self._report = report  # (finding, the stacks as text)
        self._last = time.monotonic()  # when the last step (or forward) finished
        self._step: int | None = None  # the last finished step
        self._told = -1.0  # the _last of the stall already reported
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._last = time.monotonic()
        self._stop.clear()
        thread = threading.Thread(target=self._run, name="diagnoser-step-timeout", daemon=True)
        thread.start()
        self._thread = thread

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        self._thread = None

    def progress(self, step: int | None = None) -> None:
        """A step finished (its index), or the model ran a forward."""
        self._last = time.monotonic()
        if step is not None:
            self._step = step

    def _run(self) -> None:
        poll = min(1.0, self.seconds / 4)
        while not self._stop.wait(poll):
            last = self._last
            idle = time.monotonic() - last
            if idle >= self.seconds and last != self._told:
                self._told = last
                with contextlib.suppress(Exception):  # a report never stops the training
                    self._report(*self.dump(idle))

    def dump(self, idle: float) -> tuple[Finding, str]:
        frames = sys._current_frames()
        main = threading.main_thread()
        values: dict[str, object] = {"seconds": f"{idle:.1f}", "last": _last(self._step)}
        rank = _rank()
        if rank is None:
            finding = Finding("watch.step-timeout", values)
        else:
            main_frame = frames.get(main.ident) if main.ident is not None else None
            values.update(rank=rank[0], ranks=rank[1], waiting=_waiting(main_frame))
            finding = Finding("watch.rank-timeout", values)
        return finding, _stacks(frames, default_lang())


def _last(step: int | None) -> dict[str, str]:
    if step is None:
        return {"en": "none has finished yet", "zh": "还没有一个 step 完成"}
    return {"en": f"the last one was step {step}", "zh": f"最后完成的是第 {step} 步"}


def _rank() -> tuple[int, int] | None:
    """(rank, world size) under an initialised torch.distributed with more than one rank."""
    dist = sys.modules.get("torch.distributed")
    try:
        if dist is None or not (dist.is_available() and dist.is_initialized()):
            return None
        world = int(dist.get_world_size())
        return (int(dist.get_rank()), world) if world > 1 else None
    except (RuntimeError, ValueError):
        return None


def _waiting(frame: FrameType | None) -> dict[str, str]:
    """What the main thread waits in: the torch.distributed function it called (its outermost
    frame in distributed_c10d.py), a backward (DDP all-reduces the gradients there), or neither."""
    chain = []
    while frame is not None:
        chain.append(frame)
        frame = frame.f_back
    for f in reversed(chain):  # from the outermost call in
        if f.f_code.co_filename.endswith(_C10D):
            name = f"torch.distributed.{f.f_code.co_name}"
            return {
                "en": f"its main thread waits in {name}",
                "zh": f"它的主线程在 {name} 里等待",
            }
    if any(_AUTOGRAD in f.f_code.co_filename for f in chain):
        return {
            "en": "its main thread is in a backward (DDP all-reduces the gradients there)",
            "zh": "它的主线程在 backward 里（DDP 在这里 all-reduce 梯度）",
        }
    return {
        "en": "its main thread is not in a collective: this rank may be the one that stopped",
        "zh": "它的主线程不在集合通信里：停住的可能就是这个 rank",
    }


_HEADER = {
    "en": "Thread {name}, most recent call last:\n",
    "zh": "线程 {name}，最近的调用在最后：\n",
}


def _stacks(frames: dict[int, FrameType], lang: str) -> str:
    """Each thread's Python stack, the main thread first, most recent call last (as a
    traceback); the thread that writes it is left out."""
    names = {t.ident: t.name for t in threading.enumerate()}
    main = threading.main_thread().ident
    here = threading.get_ident()
    order = sorted((ident for ident in frames if ident != here), key=lambda i: i != main)
    parts = []
    for ident in order:
        name = f"{names.get(ident, '?')} ({ident:#x})"
        header = _HEADER[lang].format(name=name)
        parts.append(header + "".join(traceback.format_stack(frames[ident])))
    return "\n".join(parts)
