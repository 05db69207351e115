"""torch-diagnoser: explains PyTorch errors and training symptoms from the text users paste."""

from __future__ import annotations

__version__ = "0.1.0"
