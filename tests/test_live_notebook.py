"""`%load_ext diagnoser` in a real Jupyter kernel (nbclient + ipykernel) and in terminal IPython."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("torch")

FAILING_CELL = (
    "import torch\nfrom torch import nn\n"
    "fc = nn.Linear(128, 10)\nx = torch.randn(32, 64)\nlogits = fc(x)"
)


def test_a_notebook_shows_the_diagnosis_under_the_traceback(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    # an earlier cell's result stays in the namespace as `_` and `_2`: not the failing cell's
    cells = ["%load_ext diagnoser", "import torch\ntorch.zeros(7, 7)", FAILING_CELL, "%diagnose zh"]
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    client = nbclient.NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute(env={**os.environ, "LANG": "C.UTF-8"})
    failed = nb.cells[2].outputs
    assert [o.output_type for o in failed] == ["error", "display_data"]  # traceback, then us
    assert failed[0].ename == "RuntimeError"
    assert failed[0].evalue == "mat1 and mat2 shapes cannot be multiplied (32x64 and 128x10)"
    html = failed[1].data["text/html"]
    assert "[shape-matmul, 100]" in html  # the title line
    assert "<code>x</code> has shape (32, 64): 64 features (last dimension), but " in html
    assert "<code>fc</code> = Linear(in=128, out=10) expects 128." in html
    assert "<code>x  tensor&lt;(32, 64), float32, cpu&gt;</code>" in html
    assert "(7, 7)" not in html
    assert "<details><summary><strong>Why it happens</strong></summary>" in html
    assert "<details><summary><strong>How to fix it</strong></summary>" in html
    assert 'href="https://torch-diagnoser.github.io/torch-diagnoser/entries/shape-matmul/"' in html
    assert "[shape-matmul, 100]" in failed[1].data["text/plain"]
    again = nb.cells[3].outputs
    assert [o.output_type for o in again] == ["display_data"]
    assert "<strong>发生了什么</strong>" in again[0].data["text/html"]


def test_terminal_ipython_prints_plain_text() -> None:
    ipython = Path(sys.executable).parent / "ipython"
    code = "%load_ext diagnoser\n" + FAILING_CELL
    result = subprocess.run(
        [str(ipython), "--no-banner", "--colors=nocolor", "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LANG": "C.UTF-8", "NO_COLOR": "1"},
    )
    out = result.stdout
    error_at = out.index(
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (32x64 and 128x10)"
    )
    assert out.index("[shape-matmul, 100]") > error_at
    assert "<div" not in out
