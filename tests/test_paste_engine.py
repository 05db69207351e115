"""The paste box's engine as the site ships it (diagnoser/guide/engine.py), without a browser:
what goes into engine/, and engine.zip's paste.py run by CPython with only the standard library
(rapidfuzz, pydantic, PyYAML blocked) answers as `diagnoser --json` does."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from diagnoser.cli import main as cli
from diagnoser.guide.engine import PYODIDE_FILES, bundle

from .conftest import ROOT

TEXTS = [
    (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8"),
    "RuntimeError: mat1 and mat2 shapes canot be multiplied (4x3 and 5x6)",
    "my loss is nann after 3 epoches",
    "训练 loss 一直不下降",
    "RuntimeError: selected index k out of range",
    "hello world",
]


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """engine/ as bundle() writes it, with stand-ins for Pyodide's files."""
    fake = tmp_path_factory.mktemp("pyodide")
    for name in PYODIDE_FILES[:-1]:
        (fake / name).write_bytes(b"stand-in")
    site = tmp_path_factory.mktemp("site")
    manifest = bundle(site, pyodide=fake)
    assert manifest["bundled"] is True
    return site / "engine"


def test_the_site_ships_the_engine_layers_and_a_prebuilt_index_only(bundled: Path) -> None:
    names = zipfile.ZipFile(bundled / "engine.zip").namelist()
    packages = {n.split("/")[1] for n in names if n.startswith("diagnoser/") and n.count("/") > 1}
    assert packages == {"knowledge", "text", "speak"}
    assert "diagnoser/knowledge/schema.py" not in names  # pydantic: only to compile kb/
    assert (
        "diagnoser/knowledge/fuzzy.py" in names and "diagnoser/knowledge/source_index.bin" in names
    )
    assert {"index.marshal", "index.records", "index.fuzzy-examples", "paste.py"} <= set(names)
    shipped = sorted(p.name for p in (bundled / "pyodide").iterdir())
    assert shipped == sorted(PYODIDE_FILES[:-1])  # no console, no source maps, no typings
    manifest = json.loads((bundled / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["files"]["engine.zip"] == (bundled / "engine.zip").stat().st_size


def test_without_pyodide_the_site_says_the_engine_is_not_bundled(tmp_path: Path) -> None:
    manifest = bundle(tmp_path, pyodide=tmp_path / "nowhere")
    assert manifest == {"bundled": False, "pyodide": None, "files": {}}
    assert sorted(p.name for p in (tmp_path / "engine").iterdir()) == ["manifest.json"]


_RUN = """
import importlib.abc, json, sys
class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {"rapidfuzz", "pydantic", "yaml", "torch", "numpy",
                                      "ahocorasick"}:
            raise ImportError(name + " is blocked: the browser has none")
sys.meta_path.insert(0, Blocked())
sys.path.insert(0, sys.argv[1])
import paste
texts, lang = json.loads(sys.stdin.read())
print(json.dumps([json.loads(paste.answer(t, lang)) for t in texts]))
"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_paste_py_answers_as_the_cli_does(bundled: Path, tmp_path: Path, lang: str) -> None:
    folder = tmp_path / "engine"
    zipfile.ZipFile(bundled / "engine.zip").extractall(folder)
    proc = subprocess.run(
        [sys.executable, "-I", "-c", _RUN, str(folder)],
        input=json.dumps([TEXTS, lang]),
        capture_output=True,
        text=True,
        env={"DIAGNOSER_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    answers = json.loads(proc.stdout)
    for text, answer in zip(TEXTS, answers, strict=True):
        path = tmp_path / "paste.txt"
        path.write_text(text, encoding="utf-8")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            cli(["--json", "--lang", lang, str(path)])
        assert json.loads(answer["report"]) == json.loads(out.getvalue()), text[:80]
        report = json.loads(answer["report"])
        assert set(answer["entries"]) == {m["id"] for m in report["matches"]}


def test_the_engine_is_made_again_only_when_what_it_is_made_from_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """engine.zip is cached between builds (a tenth of a build): the cache answers while its
    inputs are unchanged, and a changed KB makes a new one."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fake = tmp_path / "pyodide"
    fake.mkdir()
    for name in PYODIDE_FILES[:-1]:
        (fake / name).write_bytes(b"stand-in")
    kb = tmp_path / "kb"
    shutil.copytree(ROOT / "kb", kb)

    def build() -> tuple[bytes, list[Path]]:
        site = Path(tempfile.mkdtemp(dir=tmp_path))
        bundle(site, kb, pyodide=fake)
        return (site / "engine" / "engine.zip").read_bytes(), sorted(
            (tmp_path / "cache" / "torch-diagnoser-build").glob("engine-*.zip")
        )

    first, cached = build()
    assert len(cached) == 1 and cached[0].read_bytes() == first
    cached[0].write_bytes(first + b"marked")  # the next build must copy the cached file
    assert build() == (first + b"marked", cached)
    entry = kb / "shape-matmul.yaml"
    entry.write_text(entry.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    again, now = build()
    assert now != cached and len(now) == 1 and again == now[0].read_bytes()
