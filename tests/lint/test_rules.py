"""The lint rules, generated from their fixtures: tests/lint/fixtures/<CODE>.py marks each line
that must fire with `# expect`; every other line must stay silent. No new test code per rule."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from diagnoser.lint import RULES, lint_file, lint_paths, lint_source
from diagnoser.lint.rule import Rule
from tests.conftest import ENTRIES, ROOT

FIXTURES = Path(__file__).parent / "fixtures"
EXPECT = re.compile(r"#.*\bexpect\b")
CJK = re.compile("[\u4e00-\u9fff]")
PRELUDE = (
    "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
    "from torch.utils.data import DataLoader\nfrom torchvision import transforms\n"
)


def rule_params() -> list[pytest.param]:  # type: ignore[type-arg]
    return [pytest.param(r, id=r.code) for r in sorted(RULES.values(), key=lambda r: r.code)]


def test_enough_rules_with_stable_codes() -> None:
    assert len(RULES) >= 25
    assert all(re.fullmatch(r"TD\d{3}", code) for code in RULES)
    names = [r.name for r in RULES.values()]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("rule", rule_params())
def test_fixture(rule: Rule) -> None:
    path = FIXTURES / f"{rule.code}.py"
    lines = path.read_text(encoding="utf-8").splitlines()
    expected = {i for i, line in enumerate(lines, 1) if EXPECT.search(line)}
    found = lint_file(path, [rule])
    assert expected, f"{path.name} has no line that must fire"
    assert len(expected) < len(lines) // 2 or "must not fire" in "\n".join(lines)
    assert {f.line for f in found} == expected, [f"{f.line}: {f.message}" for f in found]
    assert all(f.code == rule.code and f.entry == rule.entry for f in found)


@pytest.mark.parametrize("rule", rule_params())
def test_documented_examples(rule: Rule) -> None:
    """The docs' broken example fires, the fixed one does not, in both languages."""
    for lang in ("en", "zh"):
        bad = lint_source(PRELUDE + rule.bad + "\n", "bad.py", [rule], lang)
        assert bad, f"{rule.code}: its example does not fire"
        assert not lint_source(PRELUDE + rule.good + "\n", "good.py", [rule], lang)
        message = bad[0].message
        assert "`" in message  # quotes the user's code
        if lang == "zh":
            assert CJK.search(message) and CJK.search(rule.why["zh"]) and CJK.search(rule.fix["zh"])
        else:
            assert not CJK.search(message + rule.why["en"] + rule.fix["en"])


def test_every_entry_exists() -> None:
    ids = {e.id for e in ENTRIES}
    assert {r.entry for r in RULES.values()} <= ids


def test_rules_never_import_torch() -> None:
    code = (
        "import sys; from pathlib import Path; from diagnoser.lint import RULES, lint_file\n"
        f"for p in Path({str(FIXTURES)!r}).glob('*.py'): lint_file(p, list(RULES.values()))\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
        "assert 'yaml' not in sys.modules and 'pydantic' not in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


def test_fixtures_are_all_rules() -> None:
    assert {p.stem for p in FIXTURES.glob("TD*.py")} == set(RULES)


def test_rules_catch_the_reproductions_bugs() -> None:
    """reproductions/<id>.py is real failing code (tests/test_reproductions.py runs it): what
    lint reports there must be the very entry the script reproduces."""
    from diagnoser.knowledge.index import reproductions_dir

    found = lint_paths([reproductions_dir()], list(RULES.values()))
    by_file = {Path(f.path).stem: f.entry for f in found}
    assert all(stem == entry for stem, entry in by_file.items()), by_file
    # the families whose reproduction these rules read statically
    assert set(by_file) >= {
        "amp-deprecated-api",
        "leaf-inplace",
        "model-is-state-dict",
        "numpy-requires-grad",
        "spawn-main-guard",
        "torch-private-api-removed",
        "view-non-contiguous",
    }
