"""The compiled index: built once, reused, rebuilt when kb/ changes; the text path stays light."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from diagnoser import index as index_module
from diagnoser.index import kb_dir, load_index

from .conftest import ROOT, run_reproduction


@pytest.fixture
def kb_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DIAGNOSER_CACHE_DIR", str(tmp_path / "cache"))
    kb = tmp_path / "kb"
    shutil.copytree(kb_dir(), kb)
    return kb


def test_second_load_reads_the_cache_without_compiling(
    kb_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_index(kb_copy)
    assert list((kb_copy.parent / "cache").glob("index-*.json"))

    def refuse(_: Path) -> None:
        raise AssertionError("the index was compiled again")

    monkeypatch.setattr(index_module, "compile_kb", refuse)
    assert [e.id for e in load_index(kb_copy).entries] == [e.id for e in first.entries]


def test_a_changed_kb_is_never_served_stale(kb_copy: Path) -> None:
    load_index(kb_copy)
    path = kb_copy / "shape-matmul.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace('  en: "mat1', '  en: "CHANGED mat1', 1),
        encoding="utf-8",
    )
    assert load_index(kb_copy).by_id["shape-matmul"].title["en"].startswith("CHANGED")
    (kb_copy / "shape-matmul.yaml").unlink()
    for p in kb_copy.glob("*.yaml"):  # drop references to the removed entry
        p.write_text(
            p.read_text(encoding="utf-8")
            .replace("shape-matmul, ", "")
            .replace(", shape-matmul", "")
            .replace("[shape-matmul]", "[]"),
            encoding="utf-8",
        )
    assert "shape-matmul" not in load_index(kb_copy).by_id


def test_an_unwritable_cache_still_diagnoses(
    kb_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = kb_copy.parent / "file-not-dir"
    blocker.write_text("")
    monkeypatch.setenv("DIAGNOSER_CACHE_DIR", str(blocker / "cache"))
    assert load_index(kb_copy).by_id["shape-matmul"]


def test_text_path_imports_neither_torch_nor_pydantic(tmp_path: Path) -> None:
    sample = tmp_path / "tb.txt"
    proc = run_reproduction("shape-matmul")
    sample.write_text(proc.stdout + proc.stderr)
    env_cache = {"DIAGNOSER_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}

    def importtime() -> set[str]:
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "diagnoser", "--json", str(sample)],
            capture_output=True,
            text=True,
            env=env_cache,
        )
        assert result.returncode == 0, result.stderr
        return {
            line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "|" in line
        }

    importtime()  # the first run compiles the index (and may import pydantic to do so)
    modules = importtime()
    assert "diagnoser.match" in modules  # the measurement sees our own imports
    heavy = {m for m in modules if m.split(".")[0] in {"torch", "pydantic", "yaml", "numpy"}}
    assert not heavy, sorted(heavy)
