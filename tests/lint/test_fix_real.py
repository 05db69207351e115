"""`diagnoser lint --fix` on copies of real repositories' code: the packages the test set-up
installs (torch's own distributed tests, Lightning, accelerate) and the official PyTorch
examples. What --fix rewrites must compile and no longer be flagged by the rule that asked for
it; what the other rules say must not change; code that only falls back to an old API on an
old torch must be left byte for byte as it was."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from diagnoser.lint import RULES, lint_paths
from diagnoser.lint.fix import FIXABLE
from tests.conftest import ROOT
from tests.lint.test_corpus import CORPUS


def _package(name: str, *sub: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)), *sub)


def _copy(source: Path, tmp_path: Path) -> tuple[Path, dict[Path, bytes]]:
    target = tmp_path / source.name
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    return target, {p: p.read_bytes() for p in target.rglob("*.py")}


def _fix(folder: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "diagnoser", "lint", "--fix", str(folder)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    # 0: nothing left to report; 1: findings of the rules --fix does not rewrite remain
    assert run.returncode in (0, 1), run.stdout[-2000:] + run.stderr[-2000:]


def _findings(folder: Path, codes: set[str]) -> set[tuple[str, str]]:
    """(file, code) of what the rules say; lines move when a fix adds text, files do not."""
    rules = [RULES[c] for c in sorted(codes)]
    return {(str(Path(f.path).relative_to(folder)), f.code) for f in lint_paths([folder], rules)}


def test_fix_on_torch_distributed_tests(tmp_path: Path) -> None:
    """torch/testing/_internal/distributed uses `from torch.cuda.amp import GradScaler,
    autocast`: the deprecated API, used for real (no fallback)."""
    source = _package("torch", "testing", "_internal", "distributed")
    assert source is not None and source.is_dir()
    folder, before = _copy(source, tmp_path)
    fixable = _findings(folder, set(FIXABLE))
    assert ("distributed_test.py", "TD053") in fixable  # there is something real to fix
    others = set(RULES) - set(FIXABLE)
    said_before = _findings(folder, others)

    _fix(folder)

    changed = [p for p, text in before.items() if p.read_bytes() != text]
    assert [p.name for p in changed] == ["distributed_test.py"]
    for path in changed:
        compile(path.read_text(encoding="utf-8"), str(path), "exec", dont_inherit=True)
    assert _findings(folder, set(FIXABLE)) == set()
    assert _findings(folder, others) == said_before


@pytest.mark.parametrize(
    ("package", "sub"),
    [
        # `torch.amp.GradScaler(device=device) if _TORCH_GREATER_EQUAL_2_4 else
        # torch.cuda.amp.GradScaler()`: the old name runs only where the new one is missing
        ("lightning", ("fabric", "plugins", "precision")),
        ("lightning", ("pytorch", "plugins", "precision")),
        # `if is_torch_version(">=", "2.3"): return torch.amp.GradScaler("cuda", **kwargs)
        # else: return torch.cuda.amp.GradScaler(**kwargs)`
        ("accelerate", ("utils",)),
    ],
)
def test_fix_leaves_version_fallbacks_alone(
    package: str, sub: tuple[str, ...], tmp_path: Path
) -> None:
    source = _package(package, *sub)
    if source is None:
        pytest.skip(f"{package} is not installed (the test set-up installs it)")
    folder, before = _copy(source, tmp_path)
    assert any(b"torch.cuda.amp.GradScaler" in text for text in before.values())
    _fix(folder)
    assert [p.name for p, text in before.items() if p.read_bytes() != text] == []


@pytest.mark.skipif(CORPUS is None, reason="the pytorch-examples corpus (shared/corpora) is absent")
def test_fix_on_the_pytorch_examples_changes_only_what_it_reports(tmp_path: Path) -> None:
    assert CORPUS is not None
    folder, before = _copy(CORPUS, tmp_path)
    fixable = _findings(folder, set(FIXABLE))
    _fix(folder)
    changed = {str(p.relative_to(folder)) for p, text in before.items() if p.read_bytes() != text}
    assert changed == {file for file, _code in fixable}
    for rel in changed:
        compile((folder / rel).read_text(encoding="utf-8"), rel, "exec", dont_inherit=True)
