"""The guide: generated from kb/, built by `mkdocs build --strict`, each entry in both languages."""

from __future__ import annotations

import importlib.util
import itertools
import json
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from diagnoser.cli import COMMANDS, build_command_parser, build_parser
from diagnoser.guide.sitegen import REPO_URL, entry_page, write_pages
from diagnoser.knowledge.groups import GROUPS
from diagnoser.knowledge.index import kb_dir, reproductions_dir
from diagnoser.knowledge.schema import KBError, load_kb
from diagnoser.speak.cli_zh import untranslated
from diagnoser.speak.render import DOCS_URL

from .conftest import ENTRIES, ROOT, build


def test_the_build_is_quiet_unless_something_is_wrong(
    site_build: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    """`make site` prints a few lines of progress: no warning, no list of the pages that are
    reached otherwise than through the navigation, no chatter from the Chinese segmenter."""
    out, result = site_build
    log = result.stdout + result.stderr
    assert "not included in the" not in log and "not in nav" not in log, log[-3000:]
    assert not [line for line in log.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert "prefix dict" not in log
    assert all(line.startswith("INFO") for line in log.splitlines()), log[-3000:]
    # the rule pages are left out of the navigation on purpose: the rules' index links each one
    index = (out / "rules" / "index.html").read_text(encoding="utf-8")
    for page in sorted((out / "rules").glob("TD*/index.html")):
        assert f'href="{page.parent.name}/"' in index, page.parent.name


class _ConfigLoader(yaml.SafeLoader):
    """mkdocs.yml as data: its !!python tags (slugify functions) read as None."""


_ConfigLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda *_: None)


def test_serve_rebuilds_when_the_knowledge_base_changes() -> None:
    """`mkdocs serve` watches docs_dir only, unless told: the entry pages come from kb/*.yaml
    and embed reproductions/<id>.py."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_ConfigLoader)
    watched = {Path(p).as_posix().rstrip("/") for p in config.get("watch", [])}
    assert {"kb", "reproductions"} <= watched
    assert all((ROOT / p).is_dir() for p in watched)


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


def _config_value(key: str) -> str:
    """A top-level value of mkdocs.yml (its slugify tags need PyYAML's unsafe loader)."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    return next(
        line.split(":", 1)[1].strip() for line in config.splitlines() if line.startswith(f"{key}:")
    )


def test_the_diagnoser_links_to_the_published_site() -> None:
    assert _config_value("site_url") == DOCS_URL


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
    del data["rank"]  # ranks are unique
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
                # joined with nothing between; a space after full-width punctuation within
                # either line goes too (join_chinese_lines)
                joined = (a.strip()[-10:] + b.strip()[:10]).replace(" ", "")
                assert re.search(" ?".join(map(re.escape, joined)), page), (entry.id, a, b)
                checked += 1
    assert checked > 10


def test_the_site_links_to_its_repository() -> None:
    assert _config_value("repo_url") == REPO_URL


def test_every_entry_is_in_the_navigation_under_its_group(built_site: Path) -> None:
    """Every group is in the sidebar of the home page; an entry's page opens its group there
    (navigation.prune: the other groups' entries are not in the page), listing the whole group."""
    for lang, prefix in (("en", built_site), ("zh", built_site / "zh")):
        home = (prefix / "index.html").read_text(encoding="utf-8")
        for group, names in GROUPS.items():
            if any(e.group == group for e in ENTRIES):
                assert names[lang] in home, (lang, group)
        for entry in ENTRIES:
            html = (prefix / "entries" / entry.id / "index.html").read_text(encoding="utf-8")
            links = re.findall(r'<a href="([^"]+)" class="md-nav__link', html)
            assert GROUPS[entry.group][lang] in html, (lang, entry.id)
            for other in ENTRIES:
                if other.group == entry.group and other is not entry:
                    assert f"../{other.id}/" in links, (lang, entry.id, other.id)


def test_entry_pages_open_with_at_a_glance_and_fold_the_other_wordings(built_site: Path) -> None:
    entry = next(e for e in ENTRIES if e.id == "cuda-oom")
    for page, lang, glance, what in (
        (built_site / "entries" / "cuda-oom" / "index.html", "en", "at-a-glance", "what-you-see"),
        (built_site / "zh" / "entries" / "cuda-oom" / "index.html", "zh", "速览", "你会看到什么"),
    ):
        html = page.read_text(encoding="utf-8")
        glance_at = html.index(f'<h2 id="{glance}"')
        cause_at = html.index(getattr(entry.glance.cause, lang).replace("'", "&#39;")[:20])
        assert glance_at < cause_at < html.index(f'<h2 id="{what}"')
        # 30 wordings: one shown, the others inside a <details> that starts closed
        details = html.split("<details", 1)[1].split("</details>", 1)[0]
        assert "open" not in details.split(">", 1)[0]
        assert details.count("CUDA out of memory") >= 10


def test_a_symptom_page_shows_its_own_language_and_no_unfilled_template(built_site: Path) -> None:
    entry = next(e for e in ENTRIES if e.id == "nan-loss")
    assert entry.symptoms is not None
    en = (built_site / "entries" / "nan-loss" / "index.html").read_text(encoding="utf-8")
    zh = (built_site / "zh" / "entries" / "nan-loss" / "index.html").read_text(encoding="utf-8")
    assert entry.phrases.en[0] in en and entry.phrases.zh[0] not in en
    assert entry.phrases.zh[0] in zh and entry.phrases.en[0] not in zh
    for html in (en, zh):
        assert "‹" not in html and not re.search(r"\{[a-z_]+\}", html.split("<article", 1)[1])


def test_quick_reference_tables(built_site: Path) -> None:
    """The home page leads with the most frequent errors; the quick reference has every entry."""
    ranked = sorted((e for e in ENTRIES if e.rank), key=lambda e: e.rank or 0)
    for lang, home, index in (
        ("en", built_site / "index.html", built_site / "entries" / "index.html"),
        ("zh", built_site / "zh" / "index.html", built_site / "zh" / "entries" / "index.html"),
    ):
        table = (home).read_text(encoding="utf-8").split("<table", 1)[1].split("</table>", 1)[0]
        rows = re.findall(r'href="entries/([a-z0-9-]+)/"', table)
        assert rows[:5] == [
            "shape-matmul",
            "cuda-oom",
            "nan-loss",
            "device-mismatch",
            "dtype-mismatch",
        ], (lang, rows[:5])
        assert rows == [e.id for e in ranked]
        assert getattr(ranked[0].glance.fix, lang).split(",")[0][:15] in table
        quick = index.read_text(encoding="utf-8")
        for entry in ENTRIES:
            assert f'href="{entry.id}/"' in quick, (lang, entry.id)


def test_each_language_searches_its_own_index(built_site: Path) -> None:
    en = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    zh = json.loads((built_site / "zh" / "search" / "search_index.json").read_text("utf-8"))
    assert en["docs"] and zh["docs"]
    assert not any(d["location"].startswith("zh/") for d in en["docs"])
    # the heading is the message (English in both languages), the line under it the cause
    cuda_oom = [d for d in zh["docs"] if d["location"] == "entries/cuda-oom/"]
    assert cuda_oom and "显存" in cuda_oom[0]["text"]
    assert not any("显存" in d["title"] + d["text"] for d in en["docs"])
    page = (built_site / "zh" / "entries" / "cuda-oom" / "index.html").read_text("utf-8")
    config = json.loads(page.split('id="__config" type="application/json">', 1)[1].split("<", 1)[0])
    assert config["base"] == "../../../zh/"  # where Material loads that index from


def test_every_link_between_the_languages_is_relative(built_site: Path) -> None:
    for html_file in built_site.rglob("*.html"):
        html = html_file.read_text(encoding="utf-8")
        hrefs = re.findall(r'<a href="([^"]*)" hreflang=', html)
        if html_file.name == "404.html":  # served at any address: absolute, to the homes
            assert hrefs == ["/torch-diagnoser/", "/torch-diagnoser/zh/"], hrefs
            continue
        for href in hrefs:
            assert not href.startswith(("/", "http")), (html_file, href)
        assert '<link rel="alternate"' not in html  # Material would fetch <href>/sitemap.xml


def test_glance_lines_are_one_line_and_ranks_unique(tmp_path: Path) -> None:
    kb = _kb_copy(tmp_path)
    path = kb / "shape-matmul.yaml"
    good = path.read_text(encoding="utf-8")
    data = yaml.safe_load(good)
    data["glance"]["fix"]["zh"] = "第一行\n第二行"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(KBError, match=r"shape-matmul.yaml: glance.fix.zh"):
        load_kb(kb)
    data = yaml.safe_load(good)
    data["rank"] = 2  # cuda-oom's
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(KBError, match=r"shape-matmul.yaml: rank: 2 is already cuda-oom.yaml's"):
        load_kb(kb)


def test_every_example_shows_its_message_not_the_frame_around_it() -> None:
    """The line the site shows for an example (at a glance, the other wordings): the message, not
    the traceback's first line, a frame or a row of "=" (a kernel assertion's message does start
    with the path of its .cu file). torchrun-child-failed
    showed "Traceback (most recent call last):" once a signature of its type alone ("^") was
    added; its message is the exception's class with the line after it."""
    from diagnoser.guide.sitegen import message_line
    from diagnoser.knowledge.index import load_index

    shown = {}
    for entry in load_index().entries:
        for i, example in enumerate(entry.examples):
            shown[f"{entry.id}[{i}]"] = message_line(entry, example)
    framing = {k: v for k, v in shown.items() if v.startswith(("Traceback (", "=", "File "))}
    assert framing == {}
    assert shown["torchrun-child-failed[0]"].endswith("ChildFailedError: train.py FAILED")


def test_the_publishing_workflow_builds_what_make_site_builds() -> None:
    """The CLI prints addresses on the published site: the workflow must publish this build."""
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text("utf-8"))
    steps = workflow["jobs"]["build"]["steps"]
    runs = [s.get("run", "") for s in steps]
    assert any('pip install ".[docs]"' in r for r in runs)
    assert "mkdocs build --strict" in runs
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages"))
    assert upload["with"]["path"] == _config_value("site_dir")


def test_the_chinese_cli_page_is_in_chinese(built_site: Path) -> None:
    parsers = [build_parser(), *(build_command_parser(c) for c in COMMANDS)]
    assert (
        untranslated(parsers) == []
    )  # add the new command or argument to diagnoser/speak/cli_zh.py
    zh = (built_site / "zh" / "cli" / "index.html").read_text(encoding="utf-8")
    assert "show this help message" not in zh and "显示帮助并退出" in zh
    for command in COMMANDS:
        assert f"diagnoser {command}" in zh


def test_a_chinese_entry_page_labels_with_a_full_width_colon() -> None:
    entry = next(e for e in ENTRIES if "cuda" in e.reproduction.needs)
    titles = {e.id: e for e in ENTRIES}
    needs = ", ".join(n for n in entry.reproduction.needs if n != "cpu")
    assert f"需要：{needs}" in entry_page(entry, titles, reproductions_dir(), "zh")
    assert f"Needs: {needs}" in entry_page(entry, titles, reproductions_dir(), "en")


def test_the_paste_box_is_on_the_homes_and_the_diagnose_pages(built_site: Path) -> None:
    """Both languages: the box, in the page's language, the word that nothing leaves the browser,
    the script beside it, and the Diagnose page in the navigation; the engine in engine/."""
    pages = {
        "en": [built_site / "index.html", built_site / "diagnose" / "index.html"],
        "zh": [built_site / "zh" / "index.html", built_site / "zh" / "diagnose" / "index.html"],
    }
    private = {"en": "nothing you paste leaves this page", "zh": "粘贴的内容不会离开这个页面"}
    for lang, paths in pages.items():
        for path in paths:
            html = path.read_text(encoding="utf-8")
            assert f'class="td-paste" data-lang="{lang}"' in html, path
            assert private[lang] in html, path
            root = re.search(r'class="td-paste" data-lang="\w+" data-root="([^"]*)"', html)
            assert root is not None
            assert (path.parent / root.group(1) / "javascripts" / "paste.js").resolve().is_file()
            assert (path.parent / root.group(1) / "engine" / "manifest.json").resolve().is_file()
        home = paths[0].read_text(encoding="utf-8")
        title = "Diagnose" if lang == "en" else "在线诊断"
        nav = re.search(
            r'href="diagnose/" class="md-nav__link">\s*<span[^>]*>\s*([^<]*?)\s*<', home
        )
        assert nav is not None and nav.group(1) == title


def _hooks() -> Any:
    """hooks/kb_pages.py, as mkdocs loads it (a file, not a package)."""
    spec = importlib.util.spec_from_file_location("kb_pages", ROOT / "hooks" / "kb_pages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _zh_page(tmp_path: Path, source: str) -> tuple[Any, Any]:
    (tmp_path / "entries").mkdir()
    (tmp_path / "entries" / "x.zh.md").write_text(source, encoding="utf-8")
    page = SimpleNamespace(file=SimpleNamespace(src_uri="entries/x.zh.md"))
    return page, {"docs_dir": str(tmp_path)}


def test_a_chinese_page_with_a_space_after_full_width_punctuation_fails_the_build(
    tmp_path: Path,
) -> None:
    from mkdocs.exceptions import PluginError

    hooks = _hooks()
    page, config = _zh_page(tmp_path, "# 标题\n\n第一行\n\n**学习率。** 最常见的原因\n")
    html = "<h1>标题</h1>\n<p>第一行</p>\n<p><strong>学习率。</strong> 最常见的原因</p>"
    with pytest.raises(PluginError, match=r"entries/x\.zh\.md:5: .*学习率。"):
        hooks.on_page_content(html, page, config, None)
    # the same text as join_chinese_lines leaves it, a message in code, an English page: quiet
    fine = "<p><strong>学习率。</strong>最常见的原因</p><p><code>文件太小。 (os error)</code></p>"
    assert hooks.on_page_content(fine, page, config, None) == fine
    page.file.src_uri = "entries/x.en.md"
    assert hooks.on_page_content(html, page, config, None) == html


def test_join_chinese_lines_removes_the_spaces_the_kb_writes() -> None:
    from diagnoser.guide.sitegen import join_chinese_lines

    md = (
        "- **学习率。** 最常见的原因：Adam\n"
        "[loss 不下降（模型学不动）](../x.md) (`diagnoser show x`)\n"
        "（torch 2.13.0） · 图中断\n"
        "`OSError: 页面文件太小。 (os error 1455)` 原样保留。\n"
        "| 原因： | x |\n"
    )
    assert join_chinese_lines(md) == (
        "- **学习率。**最常见的原因：Adam\n"
        "[loss 不下降（模型学不动）](../x.md)(`diagnoser show x`)\n"
        "（torch 2.13.0）· 图中断\n"
        "`OSError: 页面文件太小。 (os error 1455)` 原样保留。\n"
        "| 原因： | x |\n"
    )
