"""`diagnoser show ID`: one entry in full, as Markdown a terminal reads well.

The explanation comes first (at a glance, why, how to fix, how to see it happen, PyTorch's own
docs, related entries); the messages the entry is known by come last, a few of them, with how many
there are and where the guide lists them all. Paragraphs are one line each, or wrapped to `width`
(a terminal's) with hanging indents; code blocks keep their lines."""

from __future__ import annotations

from ..knowledge.groups import GROUPS
from ..knowledge.index import Entry
from .i18n import colon, parens, t
from .render import DOCS_URL, check_steps, page_url
from .safe import code_span
from .wrap import markdown, wrap

MESSAGES_SHOWN = 3


def show(entry: Entry, lang: str, docs_url: str = DOCS_URL, width: int | None = None) -> str:
    c = colon(lang)
    glance = entry.glance
    out = [
        *wrap(f"# {entry.title[lang]}", width, "", "  "),
        "",
        f"id: {entry.id} · {GROUPS[entry.group][lang]} · {entry.kind}",
        "",
        f"## {t('site_glance', lang)}",
        "",
        *wrap(f"{t('site_cause', lang)}{c}{glance['cause'][lang]}", width, "- "),
        *wrap(f"{t('site_quick_fix', lang)}{c}{glance['fix'][lang]}", width, "- "),
        "",
    ]
    out += [f"## {t('why', lang)}", "", *markdown(entry.cause[lang], width), ""]
    out += [f"## {t('fix', lang)}", "", *markdown(entry.fix[lang], width), ""]
    steps = check_steps(entry, lang)
    if steps:  # the runtime tools that check it on the user's own model and data
        out += [f"## {t('check', lang)}", ""]
        for call, said in steps:
            out += wrap(f"{code_span(call)}{c}{said}", width, "- ", "  ")
        out.append("")
    needs = ", ".join(entry.reproduction["needs"])
    out += [
        f"## {t('reproduce', lang)}",
        "",
        f"    diagnoser repro {entry.id}   {parens(t('needs', lang) + colon(lang) + needs, lang)}",
        "",
    ]
    if entry.docs:
        out += [f"## {t('site_docs', lang)}", ""]
        out += [
            line
            for doc in entry.docs
            for line in wrap(f"{doc['title']}{c}{doc['url']}", width, "- ")
        ]
        out.append("")
    if entry.see_also:
        out += [f"## {t('related', lang)}", "", *(f"- {ref}" for ref in entry.see_also), ""]
    if entry.signatures:
        examples = entry.examples
        out += [f"## {t('messages', lang)}", ""]
        if len(examples) > MESSAGES_SHOWN:
            count = t("messages_count", lang).format(count=len(examples), shown=MESSAGES_SHOWN)
            out += [*wrap(count, width), ""]
        for example in examples[:MESSAGES_SHOWN]:  # quoted as an indented block; long lines fold
            out += [w for line in example.split("\n") for w in wrap(line, width, "    ", "      ")]
        out.append("")
        if len(examples) > MESSAGES_SHOWN:
            url = page_url(entry.id, lang, docs_url)
            out += [*wrap(t("messages_all", lang).format(url=url), width), ""]
    return "\n".join(out)
