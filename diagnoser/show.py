"""`diagnoser show ID`: one entry in full, as Markdown a terminal reads well."""

from __future__ import annotations

from .groups import GROUPS
from .i18n import colon, parens, t
from .index import Entry


def show(entry: Entry, lang: str) -> str:
    out = [
        f"# {entry.title[lang]}",
        "",
        f"id: {entry.id} · {GROUPS[entry.group][lang]} · {entry.kind}",
        "",
    ]
    if entry.signatures:
        out += [f"## {t('what', lang)}", ""]
        out += [f"    {ex}".replace("\n", "\n    ") for ex in entry.examples]
        out.append("")
    out += [f"## {t('why', lang)}", "", entry.cause[lang].strip(), ""]
    out += [f"## {t('fix', lang)}", "", entry.fix[lang].strip(), ""]
    needs = ", ".join(entry.reproduction["needs"])
    out += [
        f"## {t('reproduce', lang)}",
        "",
        f"    diagnoser repro {entry.id}   {parens(t('needs', lang) + colon(lang) + needs, lang)}",
        "",
    ]
    if entry.see_also:
        out += [f"## {t('related', lang)}", "", *(f"- {ref}" for ref in entry.see_also), ""]
    return "\n".join(out)
