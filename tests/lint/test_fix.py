"""`diagnoser lint --fix` / `--diff`: each mechanical rewrite compiles and the rule that asked for
it no longer fires there; nothing else changes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from diagnoser.lint import RULES, lint_source
from diagnoser.lint.fix import FIXABLE, fix_source
from tests.conftest import ROOT

FIXTURES = Path(__file__).parent / "fixtures"
PRELUDE = (
    "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
    "from torch.utils.data import DataLoader\nfrom torchvision import transforms\n"
)


def _compiles(source: str) -> bool:
    try:
        compile(source, "<fixed>", "exec", dont_inherit=True)
    except SyntaxError:
        return False
    return True


@pytest.mark.parametrize("code", sorted(FIXABLE))
def test_documented_example_is_fixed(code: str) -> None:
    rule = RULES[code]
    bad = PRELUDE + rule.bad + "\n"
    fixed, n = fix_source(bad, [rule])
    assert n >= 1 and _compiles(fixed), fixed
    assert not lint_source(fixed, "fixed.py", [rule]), fixed


@pytest.mark.parametrize("code", sorted(FIXABLE))
def test_fixture_is_fixed(code: str) -> None:
    rule = RULES[code]
    source = (FIXTURES / f"{code}.py").read_text(encoding="utf-8")
    before = lint_source(source, "x.py", [rule])
    fixed, n = fix_source(source, [rule])
    assert n >= 1 and _compiles(fixed)
    after = lint_source(fixed, "x.py", [rule])
    assert len(after) < len(before), [f.message for f in after]
    # what the other rules say is unchanged but for the fixed lines' own rule
    others = [r for r in RULES.values() if r.code != code and r.code not in FIXABLE]
    assert {(f.line, f.code) for f in lint_source(fixed, "x.py", others)} == {
        (f.line, f.code) for f in lint_source(source, "x.py", others)
    } or code == "TD035"  # the unfixed file did not parse: no other rule ran on it


def test_unsafe_strings_are_left_alone() -> None:
    rule = RULES["TD034"]
    source = 'import torch\nd = torch.load("C:\\models\\new\\\\best.pt")\n'  # has a real "\\\\"
    fixed, n = fix_source(source, [rule])
    assert n == 0 and fixed == source


def test_amp_without_torch_import_is_left_alone() -> None:
    source = "from torch.cuda import amp\nscaler = amp.GradScaler()\n"
    fixed, n = fix_source(source, [RULES["TD053"]])
    assert n == 0 and fixed == source


def test_cli_diff_changes_nothing_and_fix_rewrites(tmp_path: Path) -> None:
    target = tmp_path / "train.py"
    original = (
        'import torch\nscaler = torch.cuda.amp.GradScaler()\nf = open("C:\\Users\\me\\a.csv")\n'
    )
    target.write_text(original, encoding="utf-8")
    run = [sys.executable, "-m", "diagnoser", "lint"]
    diff = subprocess.run([*run, "--diff", str(target)], capture_output=True, text=True, cwd=ROOT)
    assert diff.returncode == 1 and '+scaler = torch.amp.GradScaler("cuda")' in diff.stdout
    assert target.read_text(encoding="utf-8") == original
    fixed = subprocess.run([*run, "--fix", str(target)], capture_output=True, text=True, cwd=ROOT)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    text = target.read_text(encoding="utf-8")
    assert 'torch.amp.GradScaler("cuda")' in text and 'open(r"C:\\Users\\me\\a.csv")' in text


def test_autocast_positional_arguments_become_keywords() -> None:
    # dino: torch.cuda.amp.autocast(fp16_scaler is not None); the new autocast's second
    # positional parameter is dtype, not enabled
    source = "import torch\nwith torch.cuda.amp.autocast(scaler is not None):\n    pass\n"
    fixed, n = fix_source(source, [RULES["TD053"]])
    assert n == 1
    assert 'torch.amp.autocast("cuda", enabled=scaler is not None)' in fixed, fixed
