"""The guide: generated from kb/, built by `mkdocs build --strict`, each entry in both languages."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from diagnoser.index import kb_dir
from diagnoser.render import DOCS_URL
from diagnoser.sitegen import write_pages

from .conftest import ENTRIES, ROOT


def build(out: Path, kb: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if kb is not None:
        env["DIAGNOSER_KB"] = str(kb)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = build(out)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "WARNING" not in result.stderr
    return out


def test_every_entry_has_an_english_and_a_chinese_page(built_site: Path) -> None:
    for entry in ENTRIES:
        en = (built_site / "entries" / entry.id / "index.html").read_text(encoding="utf-8")
        zh = (built_site / "zh" / "entries" / entry.id / "index.html").read_text(encoding="utf-8")
        assert "Why it happens" in en and "为什么会这样" in zh


def test_index_and_cli_reference(built_site: Path) -> None:
    index = (built_site / "entries" / "index.html").read_text(encoding="utf-8")
    for entry in ENTRIES:
        assert f'href="../entries/{entry.id}/"' in index or f'href="{entry.id}/"' in index
    cli = (built_site / "cli" / "index.html").read_text(encoding="utf-8")
    assert "exit codes:" in cli and "diagnoser repro" in cli


def test_the_diagnoser_links_to_the_published_site() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    site_url = next(
        line.split(":", 1)[1].strip()
        for line in config.splitlines()
        if line.startswith("site_url:")
    )
    assert site_url == DOCS_URL


def _kb_copy(tmp_path: Path) -> Path:
    shutil.copytree(kb_dir(), tmp_path / "kb")
    shutil.copytree(kb_dir().parent / "reproductions", tmp_path / "reproductions")
    return tmp_path / "kb"


def test_a_dangling_see_also_fails_the_build(tmp_path: Path) -> None:
    kb = _kb_copy(tmp_path)
    path = kb / "shape-matmul.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["see_also"] = ["no-such-entry"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    result = build(tmp_path / "out", kb)
    assert result.returncode != 0
    assert "see_also[0]: no entry with id 'no-such-entry'" in result.stdout + result.stderr


def test_a_new_yaml_file_adds_its_pages_and_a_removed_one_takes_them(tmp_path: Path) -> None:
    kb = _kb_copy(tmp_path)
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "site" / "_templates", docs / "_templates")
    data = yaml.safe_load((kb / "shape-matmul.yaml").read_text(encoding="utf-8"))
    data["id"] = "shape-matmul-twin"
    data["reproduction"]["script"] = "reproductions/shape-matmul-twin.py"
    (kb / "shape-matmul-twin.yaml").write_text(
        yaml.safe_dump(data, allow_unicode=True), encoding="utf-8"
    )
    shutil.copy(
        kb.parent / "reproductions" / "shape-matmul.py",
        kb.parent / "reproductions" / "shape-matmul-twin.py",
    )
    write_pages(docs, kb)
    assert (docs / "entries" / "shape-matmul-twin.en.md").exists()
    assert (docs / "entries" / "shape-matmul-twin.zh.md").exists()
    (kb / "shape-matmul-twin.yaml").unlink()
    write_pages(docs, kb)
    assert not (docs / "entries" / "shape-matmul-twin.en.md").exists()


def test_chinese_paragraphs_have_no_spaces_from_line_breaks(tmp_path: Path) -> None:
    """A line break between two Chinese characters in the YAML would render as a space."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "site" / "_templates", docs / "_templates")
    write_pages(docs)
    cjk = re.compile(r"[\u4e00-\u9fff，。、：；]")
    checked = 0
    for entry in ENTRIES:
        page = (docs / "entries" / f"{entry.id}.zh.md").read_text(encoding="utf-8")
        lines = entry.cause.zh.splitlines()
        for a, b in itertools.pairwise(lines):
            if a and b.strip() and cjk.match(a[-1]) and cjk.match(b.strip()[0]):
                assert a.strip() + b.strip() in page, (entry.id, a, b)
                checked += 1
    assert checked > 10
