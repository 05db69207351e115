"""Precision on correct code: the official PyTorch examples (../shared/corpora/pytorch-examples),
written by PyTorch's maintainers. At most one finding per 2,000 lines, and each one listed here
with the reason it is right."""

from __future__ import annotations

from pathlib import Path

import pytest

from diagnoser.lint import RULES, lint_paths
from tests.conftest import ROOT


def _corpus() -> Path | None:
    """shared/ sits beside the clone in CI and above the worktree locally: look upward."""
    for folder in [ROOT, *ROOT.parents]:
        candidate = folder / "shared" / "corpora" / "pytorch-examples"
        if candidate.is_dir():
            return candidate
    return None


CORPUS = _corpus()

# (path, line, code): every finding on the examples, each a real bug.
EXPECTED = {
    # The script iterates a DataLoader with num_workers=int(opt.workers) (default 2) at module
    # level, with no `if __name__ == "__main__":` guard: under spawn (Windows, macOS) every worker
    # re-imports main.py and starts the training again.
    ("dcgan/main.py", 223, "TD020"),
    # Ten iterations of backward() + optimizer.step() and no zero_grad() anywhere: each step uses
    # the sum of all the gradients so far (the demos only check that the sharded step runs).
    ("distributed/tensor_parallelism/fsdp_tp_example.py", 172, "TD010"),
    ("distributed/tensor_parallelism/sequence_parallel_example.py", 107, "TD010"),
    ("distributed/tensor_parallelism/tensor_parallel_example.py", 121, "TD010"),
}


@pytest.mark.skipif(CORPUS is None, reason="the pytorch-examples corpus (shared/corpora) is absent")
def test_findings_on_the_official_examples() -> None:
    assert CORPUS is not None
    findings = lint_paths([CORPUS], list(RULES.values()))
    found = {(Path(f.path).relative_to(CORPUS).as_posix(), f.line, f.code) for f in findings}
    assert found == EXPECTED
    lines = sum(
        len(p.read_text(encoding="utf-8", errors="replace").splitlines())
        for p in CORPUS.rglob("*.py")
    )
    assert len(findings) <= lines / 2000
