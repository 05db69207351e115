"""Write the bilingual site's pages from kb/: one page per entry and language, the index of all
families by section, the home page and the CLI reference. mkdocs runs it from hooks/kb_pages.py
before every build, so `mkdocs serve` never shows a stale page.

Each entry page has the same sections in both languages: what you see / why it happens / how to
fix it (broken vs fixed tabs) / reproduce it / related entries.
"""

from __future__ import annotations

import re
from pathlib import Path

from .cli import COMMANDS, build_command_parser, build_parser
from .groups import GROUPS
from .i18n import t
from .index import kb_dir
from .lint.docs import entry_section as rule_links
from .lint.docs import write_rule_pages
from .schema import Entry, load_kb

_CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
# A line break inside a Chinese paragraph would show as a space between two characters.
_CJK_BREAK = re.compile(f"(?<=[{_CJK}])\\n[ \\t]*(?=[{_CJK}])")


def _w(key: str, lang: str) -> str:
    return t(f"site_{key}", lang)


def _prose(md: str, lang: str) -> str:
    if lang != "zh":
        return md.strip()
    parts = re.split(r"(```.*?```)", md.strip(), flags=re.S)
    return "".join(p if p.startswith("```") else _CJK_BREAK.sub("", p) for p in parts)


def _first_line(example: str) -> str:
    return example.strip().split("\n", 1)[0]


def _fence(text: str, lang: str = "text", indent: str = "") -> str:
    body = "\n".join(indent + line for line in text.rstrip().split("\n"))
    return f"{indent}```{lang}\n{body}\n{indent}```"


def entry_page(entry: Entry, titles: dict[str, Entry], scripts: Path, lang: str) -> str:
    out = [f"# {entry.title.en if lang == 'en' else entry.title.zh}", ""]
    out.append(f"`{entry.id}` · {GROUPS[entry.group][lang]}")
    out += ["", f"## {_w('what', lang)}", ""]
    if entry.kind == "error":
        out += [_fence("\n\n".join(ex.strip() for ex in entry.examples)), ""]
        versions = _versions(entry)
        if versions:
            out += [f"| {_w('wording', lang)} | {_w('versions', lang)} |", "| --- | --- |"]
            for wording, torch in versions:
                shown = wording.replace("|", "\\|").replace("`", "'")
                out.append(f"| `{shown}` | {torch} |")
            out.append("")
    if entry.symptoms:
        out += [f"**{_w('phrases', lang)}**", ""]
        phrases = entry.symptoms.phrases.en + entry.symptoms.phrases.zh
        out += [f"- {p}" for p in phrases] + [""]
        if entry.symptoms.evidence:
            out += [f"**{_w('log', lang)}**", ""]
            for text in entry.symptoms.evidence:
                shown = re.sub(r"\{(\w+)\}", r"‹\1›", text.en if lang == "en" else text.zh)
                out += [f"> {shown}", ""]
    out += [
        f"## {_w('why', lang)}",
        "",
        _prose(entry.cause.en if lang == "en" else entry.cause.zh, lang),
        "",
    ]
    script = (scripts / f"{entry.id}.py").read_text(encoding="utf-8")
    fix = _prose(entry.fix.en if lang == "en" else entry.fix.zh, lang)
    out += [f"## {_w('fix', lang)}", ""]
    out += [f'=== "{_w("fixed", lang)}"', "", _indent(fix), ""]
    out += [f'=== "{_w("broken", lang)}"', "", _fence(script, "python", "    "), ""]
    out += [f"## {_w('reproduce', lang)}", "", _w("run", lang), ""]
    out += [
        _fence(
            f"diagnoser repro {entry.id}\ndiagnoser repro {entry.id} --fixed\n"
            f"# {'or' if lang == 'en' else '或者'}\npython reproductions/{entry.id}.py\n"
            f"python reproductions/{entry.id}.py --fixed",
            "sh",
        ),
        "",
    ]
    needs = [n for n in entry.reproduction.needs if n != "cpu"]
    if needs:
        out += [f"{_w('needs', lang)}: {', '.join(needs)}", ""]
    out += rule_links(entry.id, lang)
    if entry.see_also:
        out += [f"## {_w('related', lang)}", ""]
        for ref in entry.see_also:
            other = titles[ref]
            out.append(f"- [{other.title.en if lang == 'en' else other.title.zh}]({ref}.md)")
        out.append("")
    return "\n".join(out)


def _versions(entry: Entry) -> list[tuple[str, str]]:
    """Each wording whose torch versions are known, shown by the first example it matches."""
    rows = []
    for sig in entry.signatures:
        if not sig.torch:
            continue
        regex = re.compile(sig.pattern, re.IGNORECASE)
        example = next((ex for ex in entry.examples if regex.search(ex)), None)
        if example is not None:
            line = _first_line(example)
            rows.append((line if len(line) <= 100 else line[:97] + "...", sig.torch))
    return rows


def _indent(md: str) -> str:
    return "\n".join(("    " + line) if line.strip() else "" for line in md.split("\n"))


def index_page(entries: list[Entry], lang: str) -> str:
    out = [f"# {_w('all', lang)}", ""]
    for group, names in GROUPS.items():
        members = [e for e in entries if e.group == group]
        if not members:
            continue
        out += [f"## {names[lang]}", ""]
        for e in members:
            title = e.title.en if lang == "en" else e.title.zh
            first = (
                _first_line(e.examples[0])
                if e.examples
                else (e.symptoms.phrases.en[0] if lang == "en" else e.symptoms.phrases.zh[0])
                if e.symptoms
                else ""
            )
            out.append(f"- [{title}]({e.id}.md)  \n  `{first.replace('`', chr(39))}`")
        out.append("")
    return "\n".join(out)


def cli_page(lang: str) -> str:
    out = [f"# {_w('cli', lang)}", "", _w("cli_intro", lang), "", "## diagnoser", ""]
    out += [_fence(build_parser().format_help()), ""]
    for command in COMMANDS:
        out += [
            f"## diagnoser {command}",
            "",
            _fence(build_command_parser(command).format_help()),
            "",
        ]
    return "\n".join(out)


def home_page(entries: list[Entry], template: str, lang: str) -> str:
    lines = []
    for group, names in GROUPS.items():
        members = [e for e in entries if e.group == group][:4]
        if members:
            links = ", ".join(
                f"[{e.title.en if lang == 'en' else e.title.zh}](entries/{e.id}.md)"
                for e in members
            )
            lines.append(f"- **{names[lang]}**: {links}")
    return template.replace("{{top_errors}}", "\n".join(lines)).replace(
        "{{count}}", str(len(entries))
    )


def _write(path: Path, text: str) -> None:
    """Only when the text changed: mkdocs serve rebuilds on every write."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def write_pages(docs_dir: Path, kb: Path | None = None) -> list[Path]:
    kb = kb or kb_dir()
    scripts = kb.parent / "reproductions"  # beside kb/, in the repository and in the wheel
    entries = load_kb(kb)
    titles = {e.id: e for e in entries}
    pages_dir = docs_dir / "entries"
    written = []
    for lang in ("en", "zh"):
        for entry in entries:
            path = pages_dir / f"{entry.id}.{lang}.md"
            _write(path, entry_page(entry, titles, scripts, lang))
            written.append(path)
        _write(pages_dir / f"index.{lang}.md", index_page(entries, lang))
        template = (docs_dir / "_templates" / f"home.{lang}.md").read_text(encoding="utf-8")
        _write(docs_dir / f"index.{lang}.md", home_page(entries, template, lang))
        _write(docs_dir / f"cli.{lang}.md", cli_page(lang))
        written += [
            pages_dir / f"index.{lang}.md",
            docs_dir / f"index.{lang}.md",
            docs_dir / f"cli.{lang}.md",
        ]
    for stale in pages_dir.glob("*.md"):  # an entry whose YAML is gone
        if stale not in written:
            stale.unlink()
    written += write_rule_pages(
        docs_dir, {e.id: {"en": e.title.en, "zh": e.title.zh} for e in entries}
    )
    return written
