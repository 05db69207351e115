"""The rule catalogue: a page per rule in both languages, each with how often the rule fired on
real repositories as bench/lint_fired.py measured it (diagnoser/lint/fired.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diagnoser.knowledge.index import kb_dir
from diagnoser.knowledge.schema import load_kb
from diagnoser.lint import docs
from diagnoser.lint.docs import FIRED, load_fired, write_rule_pages
from diagnoser.lint.rule import RULES


def _titles() -> dict[str, dict[str, str]]:
    return {e.id: {"en": e.title.en, "zh": e.title.zh} for e in load_kb(kb_dir())}


def test_the_measured_counts_cover_every_rule_and_add_up() -> None:
    fired = load_fired()
    assert set(fired["fired"]) == set(RULES)
    assert fired["lines"] == sum(r["lines"] for r in fired["repositories"])
    assert all(r["files"] > 0 and r["lines"] > 0 for r in fired["repositories"])


def test_each_rule_has_a_page_in_both_languages_with_its_count(tmp_path: Path) -> None:
    write_rule_pages(tmp_path, _titles())
    fired = load_fired()
    for code, rule in RULES.items():
        en = (tmp_path / "rules" / f"{code}.en.md").read_text(encoding="utf-8")
        zh = (tmp_path / "rules" / f"{code}.zh.md").read_text(encoding="utf-8")
        count = fired["fired"][code]
        assert f"## On real code\n\nFired {count} times on " in en
        assert f"## 在真实代码上\n\n在 {len(fired['repositories'])} 个知名仓库" in zh
        assert f"触发了 {count} 次" in zh
        for page, lang in ((en, "en"), (zh, "zh")):
            assert rule.why[lang] in page and rule.fix[lang] in page
            assert rule.bad in page and rule.good in page
            assert f"../entries/{rule.entry}.md" in page
    for lang in ("en", "zh"):
        index = (tmp_path / "rules" / f"index.{lang}.md").read_text(encoding="utf-8")
        for code in RULES:
            assert f"| [{code}]({code}.md) |" in index


def test_the_pages_follow_the_measurement(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a count is read from the data file, never typed into a page: change the data, the page follows
    data = json.loads(FIRED.read_text(encoding="utf-8"))
    code = sorted(RULES)[0]
    data["fired"][code] = 12345
    alt = tmp_path / "fired.json"
    alt.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(docs, "FIRED", alt)
    write_rule_pages(tmp_path, _titles())
    assert "Fired 12345 times" in (tmp_path / "rules" / f"{code}.en.md").read_text(encoding="utf-8")
