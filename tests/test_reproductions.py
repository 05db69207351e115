"""Close the loop: each reproduction fails with torch's own error, and that real output, piped
through the diagnoser, comes back as its own entry first; `--fixed` exits 0."""

from __future__ import annotations

import json

import pytest

from diagnoser.knowledge.schema import Entry

from .conftest import cli, entry_params, run_reproduction, skip_if_needs


@pytest.mark.parametrize("entry", entry_params())
def test_reproduction_output_is_diagnosed_as_its_entry(entry: Entry) -> None:
    proc = run_reproduction(entry.id)
    skip_if_needs(proc)
    if entry.kind == "error":
        assert proc.returncode != 0, f"{entry.id} reproduction did not fail:\n{proc.stdout}"
        assert "Traceback (most recent call last)" in proc.stderr, proc.stderr[-2000:]
    else:
        assert proc.returncode == 0, proc.stderr[-2000:]
    result = cli("--json", stdin=proc.stdout + proc.stderr)
    matches = json.loads(result.stdout)["matches"]
    assert matches, f"nothing matched the output of {entry.id}:\n{proc.stderr[-2000:]}"
    assert matches[0]["id"] == entry.id, [(m["id"], m["score"]) for m in matches]


@pytest.mark.parametrize("entry", entry_params())
def test_fixed_reproduction_exits_0(entry: Entry) -> None:
    proc = run_reproduction(entry.id, fixed=True)
    skip_if_needs(proc)
    assert proc.returncode == 0, proc.stderr[-3000:]
