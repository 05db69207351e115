"""`import diagnoser.auto`: explain every uncaught exception of this process after its traceback.
(DIAGNOSER_DISABLE=1 turns it off.) Costs no torch import."""

from __future__ import annotations

from .live.hook import install

install()
