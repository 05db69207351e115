"""Programs written as users write them, one mistake each, run with the real torch: the output
alone must be diagnosed as the entry named in each program's first line (bench/programs.py)."""

from __future__ import annotations

import importlib.util
import os

import pytest

from .conftest import ROOT

pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="runs each program in a fork")


def _programs():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("programs", ROOT / "bench" / "programs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_program_is_diagnosed_as_the_mistake_it_holds() -> None:
    rows = _programs().results()
    assert len(rows) >= 35
    wrong = [(name, want, first, out[-400:]) for name, want, first, out in rows if first != want]
    assert not wrong, wrong
