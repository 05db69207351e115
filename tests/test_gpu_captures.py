"""What `make gpu-check` captured on a real GPU (tests/data/gpu/, see tools/gpu_check.py): each
broken CUDA reproduction's output is diagnosed as its own entry, and each fixed one exits 0."""

from __future__ import annotations

import subprocess
import sys

import pytest

from diagnoser.knowledge.index import Index
from diagnoser.knowledge.schema import Entry
from diagnoser.text.match import diagnose

from .conftest import ROOT, entry_params
from .test_real import _read

CAPTURES = ROOT / "tests" / "data" / "gpu"
CUDA_ENTRIES = [p for p in entry_params("error") if "cuda" in p.values[0].reproduction.needs]


def _capture(name: str) -> tuple[dict[str, list[str]], str]:
    path = CAPTURES / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"no capture {path.name} yet: run `make gpu-check` on a CUDA machine")
    return _read(path)


@pytest.mark.parametrize("entry", CUDA_ENTRIES)
def test_a_cuda_reproductions_real_output_is_diagnosed_as_its_entry(
    entry: Entry, index: Index
) -> None:
    header, text = _capture(entry.id)
    assert header["returncode"] != ["0"], "the broken reproduction ran without failing"
    best = diagnose(text, index).best
    assert best is not None and best.entry.id == entry.id, text[-2000:]


@pytest.mark.parametrize("entry", CUDA_ENTRIES)
def test_a_cuda_reproductions_fix_works_on_a_gpu(entry: Entry) -> None:
    header, text = _capture(f"{entry.id}.fixed")
    assert header["returncode"] == ["0"], text[-2000:]


def test_watch_on_a_gpu_finds_the_nan() -> None:
    header, text = _capture("watch")
    assert header["returncode"] == ["0"], text[-2000:]
    assert "watch.nonfinite" in text and "[nan-loss]" in text


def test_preflight_measures_gpu_memory() -> None:
    header, text = _capture("preflight-memory")
    assert header["returncode"] == ["0"], text[-2000:]
    peak = float(text.rsplit("peak_memory_mb", 1)[1].split()[0])
    assert peak > 0


def test_the_gpu_check_says_so_without_cuda() -> None:
    """Here (no GPU in CI), the check exits 77 with one line that says why."""
    probe = "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)"
    if subprocess.run([sys.executable, "-c", probe], check=False).returncode == 0:
        pytest.skip("this machine has CUDA")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gpu_check.py")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 77 and "no CUDA" in proc.stderr
