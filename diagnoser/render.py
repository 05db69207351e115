"""Turn a Diagnosis into what a person or a tool reads: text, JSON or Markdown."""

from __future__ import annotations

import json
import textwrap
from typing import Any

from .explain import explanation
from .i18n import colon, parens, t
from .match import Diagnosis, Match
from .parse import Frame

_MAX_OTHERS = 3
# The published site (site_url in mkdocs.yml; a test keeps the two equal).
DOCS_URL = "https://torch-diagnoser.github.io/torch-diagnoser/"


def page_url(entry_id: str, lang: str, base: str = DOCS_URL) -> str:
    return f"{base.rstrip('/')}/{'zh/' if lang == 'zh' else ''}entries/{entry_id}/"


def _where(frame: Frame | None) -> dict[str, Any] | None:
    if frame is None:
        return None
    return {
        "file": frame.filename,
        "line": frame.lineno,
        "function": frame.name,
        "source": frame.line,
    }


def _where_text(frame: Frame) -> str:
    return f"{frame.filename}:{frame.lineno}" + (f"  `{frame.line}`" if frame.line else "")


def _first_line(text: str) -> str:
    return text.split("\n", 1)[0]


def to_json(diagnosis: Diagnosis, lang: str) -> str:
    matches = [
        {
            "id": m.entry.id,
            "score": m.score,
            "kind": m.entry.kind,
            "group": m.entry.group,
            "title": m.entry.title[lang],
            "method": m.method,
            "message": m.error.text if m.error else None,
            "values": m.values,
            "explanation": explanation(m, lang),
            "where": _where(m.error.where) if m.error else None,
            "see_also": list(m.entry.see_also),
        }
        for m in diagnosis.matches
    ]
    errors = [
        {"type": e.exc_type, "message": e.message, "relation": e.relation, "where": _where(e.where)}
        for e in diagnosis.trace.errors
    ]
    return json.dumps(
        {"matches": matches, "errors": errors, "lang": lang}, ensure_ascii=False, indent=2
    )


class _Style:
    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def _sgr(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text

    def title(self, text: str) -> str:
        return self._sgr("1;31", text)

    def heading(self, text: str) -> str:
        return self._sgr("1", text)

    def dim(self, text: str) -> str:
        return self._sgr("2", text)

    def code(self, text: str) -> str:
        return self._sgr("36", text)


def to_text(
    diagnosis: Diagnosis, lang: str, *, colour: bool = False, docs_url: str = DOCS_URL
) -> str:
    s = _Style(colour)
    best = diagnosis.best
    if best is None:
        return f"{t('no_match', lang)}\n{t('no_match_hint', lang)}\n"
    entry = best.entry
    out = [f"{s.title(entry.title[lang])}  {s.dim(f'[{entry.id}, {best.score}]')}"]
    if best.method == "fuzzy":
        out.append(s.dim(t("fuzzy", lang)))
    out += ["", s.heading(t("what", lang))]
    if best.error:
        out.append(textwrap.indent(_first_line(best.error.text), "  "))
    said = explanation(best, lang) or (None if best.error else entry.title[lang])
    if said:
        out.append(textwrap.indent(said, "  → ", lambda _: True))
    if best.error and best.error.where:
        out.append(f"  {t('where', lang)}{colon(lang)}{_where_text(best.error.where)}")
    out += ["", s.heading(t("why", lang)), textwrap.indent(entry.cause[lang].strip(), "  ")]
    out += ["", s.heading(t("fix", lang)), _indent_markdown(entry.fix[lang], s)]
    out += ["", s.heading(t("reproduce", lang)), "  " + s.code(_repro_command(best, lang))]
    others = diagnosis.matches[1 : 1 + _MAX_OTHERS]
    if others:
        out += ["", s.heading(t("others", lang))]
        out += [f"  - {m.entry.title[lang]}  {s.dim(f'[{m.entry.id}, {m.score}]')}" for m in others]
    out += ["", f"{t('more', lang)}{colon(lang)}{page_url(entry.id, lang, docs_url)}"]
    return "\n".join(out) + "\n"


def _repro_command(m: Match, lang: str) -> str:
    needs = [n for n in m.entry.reproduction["needs"] if n != "cpu"]
    aside = "  " + parens(", ".join(needs), lang) if needs else ""
    return f"diagnoser repro {m.entry.id}{aside}"


def _indent_markdown(md: str, s: _Style) -> str:
    """Markdown fences become indented code in the terminal; prose stays as written."""
    lines, in_code = [], False
    for line in md.strip().split("\n"):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        lines.append("      " + s.code(line) if in_code else "  " + line)
    return "\n".join(lines)


def to_markdown(diagnosis: Diagnosis, lang: str) -> str:
    best = diagnosis.best
    if best is None:
        return f"**{t('no_match', lang)}**\n\n{t('no_match_hint', lang)}\n"
    entry = best.entry
    out = [
        f"## {entry.title[lang]}",
        "",
        f"`{entry.id}` · {best.score}",
        "",
        f"### {t('what', lang)}",
    ]
    if best.error:
        out += ["", "```", best.error.text, "```"]
    out.append("")
    said = explanation(best, lang)
    if said:
        out += [said, ""]
    if best.error and best.error.where:
        out += [f"{t('where', lang)}{colon(lang)}`{_where_text(best.error.where)}`", ""]
    out += [f"### {t('why', lang)}", "", entry.cause[lang].strip(), ""]
    out += [f"### {t('fix', lang)}", "", entry.fix[lang].strip(), ""]
    out += [f"### {t('reproduce', lang)}", "", f"`{_repro_command(best, lang)}`", ""]
    others = diagnosis.matches[1 : 1 + _MAX_OTHERS]
    if others:
        out += [f"### {t('others', lang)}", ""]
        out += [
            f"- {m.entry.title[lang]}{parens(f'`{m.entry.id}`, {m.score}', lang)}" for m in others
        ]
    return "\n".join(out).rstrip() + "\n"
