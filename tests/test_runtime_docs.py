"""The checklist and the watch finding shown in the README and on the runtime page are the real
output of samples/runtime_example.py, in both languages; the site lists every check and each
entry's page names the checks that catch it."""

from __future__ import annotations

import runpy
import sys
from contextlib import redirect_stdout
from io import StringIO

import pytest

from diagnoser.guide.sitegen import entry_page
from diagnoser.knowledge.schema import load_kb
from diagnoser.runtime.catalog import CHECKS, checks_for
from diagnoser.runtime.docs import runtime_page

from .conftest import ROOT

pytest.importorskip("torch")


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    out = {}
    for lang in ("en", "zh"):
        argv = sys.argv
        sys.argv = ["runtime_example.py", lang]
        try:
            buffer = StringIO()
            with redirect_stdout(buffer):
                runpy.run_path(str(ROOT / "samples" / "runtime_example.py"), run_name="__main__")
        finally:
            sys.argv = argv
        out[lang] = buffer.getvalue()
    return out


@pytest.mark.parametrize(
    ("doc", "langs"),
    [
        ("README.md", ("en", "zh")),
        ("site/_templates/runtime.en.md", ("en",)),
        ("site/_templates/runtime.zh.md", ("zh",)),
    ],
)
def test_docs_show_the_real_output(
    outputs: dict[str, str], doc: str, langs: tuple[str, ...]
) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    for lang in langs:
        # the findings and the checklist; the measured numbers below them vary with torch
        lines = [line for line in outputs[lang].splitlines() if line.strip()]
        lines = [line for line in lines if not line.startswith("  ") or line[2] in "✓!✗i"]
        assert any(line.lstrip().startswith("✗ watch.nonfinite") for line in lines)
        assert sum(line.startswith("  ✓ ") for line in lines) > 10
        missing = [line for line in lines if line not in text]
        assert not missing, f"{doc} is out of date ({lang}); run samples/runtime_example.py"


def test_runtime_page_lists_every_check_with_its_entry() -> None:
    for lang in ("en", "zh"):
        template = (ROOT / "site" / "_templates" / f"runtime.{lang}.md").read_text("utf-8")
        page = runtime_page(template, lang)
        assert "{{checks}}" not in page
        for check in CHECKS:
            row = next(line for line in page.splitlines() if line.startswith(f"| `{check.id}` "))
            assert check.title[lang] in row
            if check.entry:
                assert f"(entries/{check.entry}.md)" in row


def test_entry_pages_name_the_checks_that_catch_them() -> None:
    entries = {e.id: e for e in load_kb(ROOT / "kb")}
    page = entry_page(entries["target-out-of-bounds"], entries, ROOT / "reproductions", "en")
    assert "## Caught at run time" in page
    assert "`data.target-range` (`diagnoser.preflight`)" in page
    zh = entry_page(entries["gpu-memory-leak"], entries, ROOT / "reproductions", "zh")
    assert "## 运行时检查" in zh and "`watch.memory-growth` (`diagnoser.watch`)" in zh
    assert not checks_for("windows-path-escape")
    plain = entry_page(entries["windows-path-escape"], entries, ROOT / "reproductions", "en")
    assert "Caught at run time" not in plain
