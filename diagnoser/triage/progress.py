"""A progress bar on stderr, for a terminal only, and only once a run has taken a second."""

from __future__ import annotations

import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs a start-up milliseconds
    from typing import TextIO

_DELAY = 1.0
_EVERY = 0.1


class Progress:
    def __init__(self, total: int, stream: TextIO = sys.stderr) -> None:
        self.total, self.done, self.stream = max(total, 1), 0, stream
        self.start = self.last = time.monotonic()
        self.shown = False

    def __call__(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.start < _DELAY or now - self.last < _EVERY:
            return
        self.last, self.shown = now, True
        share = min(self.done / self.total, 1.0)
        bar = "#" * int(share * 30)
        rate = self.done / (now - self.start) / 2**20
        self.stream.write(f"\rtriage [{bar:<30}] {share:4.0%}  {rate:.0f} MB/s ")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()


def progress_for(total: int, stream: TextIO = sys.stderr) -> Progress | None:
    return Progress(total, stream) if stream.isatty() else None
