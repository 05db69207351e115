"""`diagnoser show ID`: one entry in full, as Markdown a terminal reads well.

The explanation comes first (at a glance, why, how to fix, how to see it happen, PyTorch's own
docs, related entries); the messages the entry is known by come last, a few of them, with how many
there are and where the guide lists them all."""

from __future__ import annotations

from .groups import GROUPS
from .i18n import colon, parens, t
from .index import Entry
from .render import DOCS_URL, page_url

MESSAGES_SHOWN = 3


def show(entry: Entry, lang: str, docs_url: str = DOCS_URL) -> str:
    c = colon(lang)
    glance = entry.glance
    out = [
        f"# {entry.title[lang]}",
        "",
        f"id: {entry.id} · {GROUPS[entry.group][lang]} · {entry.kind}",
        "",
        f"## {t('site_glance', lang)}",
        "",
        f"- {t('site_cause', lang)}{c}{glance['cause'][lang]}",
        f"- {t('site_quick_fix', lang)}{c}{glance['fix'][lang]}",
        "",
    ]
    out += [f"## {t('why', lang)}", "", entry.cause[lang].strip(), ""]
    out += [f"## {t('fix', lang)}", "", entry.fix[lang].strip(), ""]
    needs = ", ".join(entry.reproduction["needs"])
    out += [
        f"## {t('reproduce', lang)}",
        "",
        f"    diagnoser repro {entry.id}   {parens(t('needs', lang) + colon(lang) + needs, lang)}",
        "",
    ]
    if entry.docs:
        out += [f"## {t('site_docs', lang)}", ""]
        out += [f"- {doc['title']}{c}{doc['url']}" for doc in entry.docs] + [""]
    if entry.see_also:
        out += [f"## {t('related', lang)}", "", *(f"- {ref}" for ref in entry.see_also), ""]
    if entry.signatures:
        examples = entry.examples
        out += [f"## {t('messages', lang)}", ""]
        if len(examples) > MESSAGES_SHOWN:
            count = t("messages_count", lang).format(count=len(examples), shown=MESSAGES_SHOWN)
            out += [count, ""]
        out += [f"    {ex}".replace("\n", "\n    ") for ex in examples[:MESSAGES_SHOWN]]
        out.append("")
        if len(examples) > MESSAGES_SHOWN:
            url = page_url(entry.id, lang, docs_url)
            out += [t("messages_all", lang).format(url=url), ""]
    return "\n".join(out)
