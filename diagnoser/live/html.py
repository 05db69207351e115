"""The diagnosis as HTML for a notebook: title, what happened with the user's tensors, the cause
and the fix folded away, a link to the entry's page. Self-contained (inline styles): notebooks,
Colab and VS Code render it without any front-end extension."""

from __future__ import annotations

import re
from html import escape

from ..speak.explain import explanation
from ..speak.i18n import t
from ..speak.render import DOCS_URL, facts_lines, facts_of, notes, page_url, said_and_notes
from ..text.facts import Context
from ..text.match import Diagnosis

_FENCE = re.compile(r"^```[\w+-]*\s*$")
_INLINE_CODE = re.compile(r"`([^`]+)`")


def _inline(text: str) -> str:
    return _INLINE_CODE.sub(r"<code>\1</code>", escape(text))


def markdown_html(md: str) -> str:
    """The KB's Markdown subset: paragraphs, `- ` lists, fenced code, inline code."""
    out: list[str] = []
    code: list[str] | None = None
    para: list[str] = []

    def flush() -> None:
        if not para:
            return
        if all(line.lstrip().startswith(("- ", "* ")) or line.startswith("  ") for line in para):
            items: list[str] = []
            for line in para:
                if line.lstrip().startswith(("- ", "* ")):
                    items.append(line.lstrip()[2:])
                elif items:
                    items[-1] += " " + line.strip()
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
        else:
            out.append("<p>" + _inline(" ".join(line.strip() for line in para)) + "</p>")
        para.clear()

    for line in md.strip().split("\n"):
        if _FENCE.match(line.strip()):
            if code is None:
                flush()
                code = []
            else:
                out.append("<pre><code>" + escape("\n".join(code)) + "</code></pre>")
                code = None
        elif code is not None:
            code.append(line)
        elif not line.strip():
            flush()
        else:
            para.append(line)
    flush()
    if code is not None:
        out.append("<pre><code>" + escape("\n".join(code)) + "</code></pre>")
    return "\n".join(out)


def to_html(
    diagnosis: Diagnosis, lang: str, context: Context | None = None, docs_url: str = DOCS_URL
) -> str:
    best = diagnosis.best
    if best is None:
        return ""
    entry = best.entry
    parts = [
        '<div class="torch-diagnoser" style="border-left:4px solid #d9534f;padding:0.4em 1em;'
        'margin:0.5em 0">',
        f"<p><strong>{escape(best.title[lang])}</strong> "
        f'<span style="opacity:0.6">[{escape(entry.id)}, {best.score}]</span></p>',
        f"<p><strong>{escape(t('what', lang))}</strong></p>",
    ]
    if best.error:
        parts.append(f"<pre>{escape(best.error.text.split(chr(10), 1)[0])}</pre>")
    said = said_and_notes(explanation(best, lang), notes(diagnosis, best, lang, context))
    parts += [f"<p>→ {_inline(s)}</p>" for s in said]
    facts = facts_of(diagnosis, best, context)
    if facts:
        parts.append(f"<p><strong>{escape(t('tensors', lang))}</strong></p>")
        parts.append(
            "<ul>"
            + "".join(f"<li><code>{escape(x)}</code></li>" for x in facts_lines(facts))
            + "</ul>"
        )
    for key, md in (("why", best.cause[lang]), ("fix", best.fix[lang])):
        parts.append(
            f"<details><summary><strong>{escape(t(key, lang))}</strong></summary>"
            f"{markdown_html(md)}</details>"
        )
    url = page_url(entry.id, lang, docs_url)
    link = f'<a href="{escape(url)}" target="_blank">{escape(url)}</a>'
    parts.append(f"<p>{escape(t('more', lang))}: {link}</p>")
    parts.append("</div>")
    return "\n".join(parts)
