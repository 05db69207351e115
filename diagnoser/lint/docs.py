"""The rules' documentation, from the rules themselves: `diagnoser lint --explain CODE` and the
site's rule pages (one per rule and language, an index, a link from the entry each prevents)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..speak.i18n import colon, t
from .rule import RULES, Rule


def _w(key: str, lang: str) -> str:
    return t(f"lint_{key}", lang)


def explain(rule: Rule, lang: str, kb: Path | None = None) -> str:
    from ..knowledge.index import load_index

    entry = load_index(kb).by_id.get(rule.entry)
    title = entry.title[lang] if entry else ""
    indent = "\n".join
    out = [
        f"{rule.code} {rule.name}",
        "",
        _w("why", lang),
        _block(rule.why[lang], lang),
        "",
        _w("bad", lang),
        indent("    " + line for line in rule.bad.split("\n")),
        "",
        _w("good", lang),
        indent("    " + line for line in rule.good.split("\n")),
        "",
        _w("fix", lang),
        _block(rule.fix[lang], lang),
        "",
        f"{_w('entry', lang)}{colon(lang)}{rule.entry}" + (f"  {title}" if title else ""),
        f"  diagnoser show {rule.entry}",
        "",
    ]
    return "\n".join(out)


def _block(text: str, lang: str) -> str:
    import textwrap

    # textwrap counts characters; a Chinese character takes two columns
    width = 56 if lang == "zh" else 96
    return textwrap.fill(text, width, initial_indent="  ", subsequent_indent="  ")


# How often each rule fired on real repositories: measured, never typed (bench/lint_fired.py)
FIRED = Path(__file__).with_name("fired.json")


def load_fired() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIRED.read_text(encoding="utf-8"))
    return data


def _measured(fired: dict[str, Any], lang: str) -> dict[str, str]:
    repos = fired["repositories"]
    return {
        "repos": str(len(repos)),
        "lines": f"{fired['lines']:,}",
        "names": (", " if lang == "en" else "、").join(r["name"] for r in repos),
    }


def fired_line(rule: Rule, fired: dict[str, Any], lang: str) -> str:
    count = fired["fired"].get(rule.code, 0)
    return t("lint_fired_on", lang).format(count=count, **_measured(fired, lang))


def rule_page(rule: Rule, entry_title: str, lang: str, fired: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"# {rule.code} {rule.name}",
            "",
            f"`{rule.code}` · [{entry_title}](../entries/{rule.entry}.md)",
            "",
            f"## {_w('why', lang)}",
            "",
            rule.why[lang],
            "",
            f"## {_w('bad', lang)}",
            "",
            f"```python\n{rule.bad}\n```",
            "",
            f"## {_w('good', lang)}",
            "",
            f"```python\n{rule.good}\n```",
            "",
            f"## {_w('fix', lang)}",
            "",
            rule.fix[lang],
            "",
            f"## {_w('entry', lang)}",
            "",
            f"[{entry_title}](../entries/{rule.entry}.md) (`diagnoser show {rule.entry}`)",
            "",
            f"## {_w('fired', lang)}",
            "",
            fired_line(rule, fired, lang),
            "",
        ]
    )


def index_page(titles: dict[str, str], lang: str, fired: dict[str, Any]) -> str:
    out = [f"# {_w('rules', lang)}", "", _w("intro", lang), ""]
    out += [
        "| code | rule | entry | fired |" if lang == "en" else "| 代码 | 规则 | 条目 | 触发次数 |",
        "| --- | --- | --- | --- |",
    ]
    counts = fired["fired"]
    for r in sorted(RULES.values(), key=lambda r: r.code):
        out.append(
            f"| [{r.code}]({r.code}.md) | {r.name} | [{titles.get(r.entry, r.entry)}]"
            f"(../entries/{r.entry}.md) | {counts.get(r.code, 0)} |"
        )
    out += ["", t("lint_fired_index", lang).format(**_measured(fired, lang))]
    return "\n".join(out) + "\n"


def entry_section(entry_id: str, lang: str) -> list[str]:
    """The lines an entry page adds to list the rules that prevent it (none: nothing)."""
    rules = sorted((r for r in RULES.values() if r.entry == entry_id), key=lambda r: r.code)
    if not rules:
        return []
    out = [f"## {_w('caught', lang)}", "", _w("lint_it", lang), ""]
    out += [f"- [`{r.code}` {r.name}](../rules/{r.code}.md)" for r in rules]
    return [*out, ""]


def write_rule_pages(docs_dir: Path, titles: dict[str, dict[str, str]]) -> list[Path]:
    """Write rules/<CODE>.<lang>.md and rules/index.<lang>.md; remove pages of rules gone.
    `titles` maps an entry id to its title in each language; a rule naming an entry that does not
    exist is an error here, as a dangling see_also is."""
    missing = sorted({r.entry for r in RULES.values()} - set(titles))
    if missing:
        raise ValueError(f"lint rules name entries that do not exist: {', '.join(missing)}")
    folder = docs_dir / "rules"
    folder.mkdir(parents=True, exist_ok=True)
    fired = load_fired()
    written = []
    for lang in ("en", "zh"):
        by_lang = {k: v[lang] for k, v in titles.items()}
        for rule in RULES.values():
            written.append(
                _write(
                    folder / f"{rule.code}.{lang}.md",
                    rule_page(rule, by_lang[rule.entry], lang, fired),
                )
            )
        written.append(_write(folder / f"index.{lang}.md", index_page(by_lang, lang, fired)))
    for stale in folder.glob("*.md"):
        if stale not in written:
            stale.unlink()
    return written


def _write(path: Path, text: str) -> Path:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path
