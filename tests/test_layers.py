"""The package's layers, read from its imports: nothing imports upward, and the engine runs on the
standard library and rapidfuzz alone (pydantic and PyYAML only to rebuild the index).

    knowledge/  the compiled knowledge base: schema, index, caches, the symptom-signal vocabulary
    text/       reading text: cleanup, parse, training logs, symptoms, sentences, match
    speak/      speaking to the user: render, explain, prompt, i18n, show
    the faces   cli, api, repro, guide/, live/, lint/, runtime/, triage/ (and __init__)
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT

PACKAGE = ROOT / "diagnoser"
LAYERS = {"knowledge": 0, "text": 1, "speak": 2}  # everything else is a face: 3
ENGINE = tuple(LAYERS)


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS.get(parts[1], 3) if len(parts) > 1 else 3


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import of the package in `path`, lazy ones inside functions too;
    `from . import x` counts as an import of the module x when x is one."""
    module = _module(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("diagnoser")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], node.module or ""])
            elif (node.module or "").startswith("diagnoser"):
                base = node.module or ""
            else:
                continue
            base = base.rstrip(".")
            for alias in node.names:
                sub = PACKAGE.parent / Path(*f"{base}.{alias.name}".split("."))
                is_module = sub.with_suffix(".py").exists() or (sub / "__init__.py").exists()
                found.append((node.lineno, f"{base}.{alias.name}" if is_module else base))
    return found


def _upward() -> list[str]:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        me = _module(path)
        for line, target in _imports(path):
            if _layer(target) > _layer(me):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    return wrong


def test_nothing_imports_upward() -> None:
    assert _upward() == []


def test_the_check_sees_an_upward_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A knowledge module that imported the renderer, even lazily, would be reported."""
    copy = tmp_path / "diagnoser"
    for layer in ENGINE:
        (copy / layer).mkdir(parents=True)
        (copy / layer / "__init__.py").write_text("")
    (copy / "__init__.py").write_text("")
    (copy / "speak" / "render.py").write_text("X = 1\n")
    (copy / "knowledge" / "index.py").write_text("def f():\n    from ..speak import render\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", copy)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert _upward() == ["diagnoser/knowledge/index.py:2 imports diagnoser.speak.render"]


def test_every_module_is_in_a_layer_folder_or_a_face() -> None:
    """The flat core is gone: the package's top level holds only entry points."""
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "api.py", "auto.py", "cli.py", "repro.py"]


_ENGINE_ONLY = """
import importlib.abc, importlib.metadata, json, os, sys
before = set(sys.modules)
BLOCKED = {"pydantic", "yaml", "torch", "numpy", "ahocorasick", *os.environ["BLOCK"].split()}

class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ImportError(f"{name} is blocked: the engine must not need it")
        return None

sys.meta_path.insert(0, Blocked())
from diagnoser.knowledge.index import load_index
from diagnoser.text.match import diagnose
from diagnoser.speak import render

index = load_index()
text = sys.stdin.read()
diagnosis = diagnose(text, index)
out = [render.to_json(diagnosis, "en"), render.to_text(diagnosis, "zh"),
       render.to_markdown(diagnosis, "en")]
sentence = diagnose("loss is nan after a few steps", index)
# the fuzzy stage (a reworded message), a typo corrected in a sentence, the word checks
others = [render.to_json(diagnose(t, index), "en") for t in (
    "RuntimeError: mat1 and mat2 shapes canot be multiplied (4x3 and 5x6)",
    "RuntimeError: Expected all tensor to be on the same devise, but found two devices",
    "ValueError: Expected input batch_size (4) to match target batch_size (5) in the loss",
    "my loss is nann after a few epoches", "the validaton loss goes up, train loss decresing",
    "KeyError: 'indlces'", "something unrelated entirely")]
for _ in range(10):  # past the texts the anchor table serves before an automaton is built
    again = diagnose(text, index)
homes = importlib.metadata.packages_distributions()
outside = sorted({d for m in set(sys.modules) - before for d in homes.get(m.partition(".")[0], [])})
print(json.dumps({"best": diagnosis.best.entry.id, "sentence": sentence.best.entry.id,
                  "again": again.best.entry.id, "outside": outside, "others": others}))
"""


def _engine_only(tmp_path: Path, block: str) -> dict[str, Any]:
    env = {"DIAGNOSER_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "BLOCK": block}
    sample = (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8")
    # the index is compiled once with pydantic and PyYAML, as an installation's first run does
    subprocess.run(
        [sys.executable, "-m", "diagnoser", "list"],
        env=env,
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    proc = subprocess.run(
        [sys.executable, "-c", _ENGINE_ONLY],
        input=sample,
        text=True,
        capture_output=True,
        env=env,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_the_engine_needs_only_the_standard_library_and_rapidfuzz(tmp_path: Path) -> None:
    """pydantic, PyYAML, pyahocorasick (and torch) blocked: the index compiled by a normal run
    is read, a traceback and a sentence are diagnosed and rendered."""
    result = _engine_only(tmp_path, "")
    assert result["best"] == result["again"] == "shape-matmul"
    assert result["sentence"] == "nan-loss"
    # the distributions the engine's modules came from (diagnoser's own is only in the dev venv)
    assert {d.lower() for d in result["outside"]} <= {"torch-diagnoser", "rapidfuzz"}, result


def test_the_engine_runs_without_rapidfuzz_and_answers_the_same(tmp_path: Path) -> None:
    """The browser's case: rapidfuzz blocked too, its pure-Python stand-in (knowledge/fuzzy.py)
    gives every answer, fuzzy ones and corrected typos included, exactly as rapidfuzz does."""
    with_it = _engine_only(tmp_path, "")
    without = _engine_only(tmp_path, "rapidfuzz")
    assert {d.lower() for d in without["outside"]} <= {"torch-diagnoser"}, without
    assert without == {**with_it, "outside": without["outside"]}
    assert any('"fuzzy"' in out or "fuzzy" in out for out in with_it["others"]), with_it["others"]
