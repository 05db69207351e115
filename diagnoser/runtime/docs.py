"""The checks' documentation, from the catalogue: the site's runtime page (its prose from
site/_templates/runtime.<lang>.md, the table of every check generated here) and, on each entry's
page, the checks that catch it. Imports nothing heavy: the site is built without torch."""

from __future__ import annotations

from pathlib import Path

from ..speak.i18n import t
from .catalog import CHECKS, checks_for


def entry_section(entry_id: str, lang: str) -> list[str]:
    """The lines an entry page adds to list the checks that catch it (none: nothing)."""
    checks = checks_for(entry_id)
    if not checks:
        return []
    out = [f"## {t('runtime_caught', lang)}", "", t("runtime_intro", lang), ""]
    out += [f"- `{c.id}` (`diagnoser.{c.tool}`): {c.title[lang]}" for c in checks]
    return [*out, ""]


def runtime_page(template: str, lang: str) -> str:
    rows = [t("runtime_columns", lang), "| --- | --- | --- | --- |"]
    for c in CHECKS:
        entry = f"[{c.entry}](entries/{c.entry}.md)" if c.entry else t("runtime_matched", lang)
        rows.append(f"| `{c.id}` | `{c.tool}` | {c.title[lang]} | {entry} |")
    return template.replace("{{checks}}", "\n".join(rows))


def write_runtime_pages(docs_dir: Path, entry_ids: set[str]) -> list[Path]:
    """Write runtime.<lang>.md from its template. A check naming an entry that does not exist is
    an error here, as a dangling see_also is."""
    missing = sorted({c.entry for c in CHECKS if c.entry} - entry_ids)
    if missing:
        raise ValueError(f"runtime checks name entries that do not exist: {', '.join(missing)}")
    written = []
    for lang in ("en", "zh"):
        template = (docs_dir / "_templates" / f"runtime.{lang}.md").read_text(encoding="utf-8")
        path = docs_dir / f"runtime.{lang}.md"
        text = runtime_page(template, lang)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
