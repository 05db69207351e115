"""Turn a Diagnosis into what a person or a tool reads: text, JSON or Markdown."""

from __future__ import annotations

import json
import textwrap
from typing import Any

from .explain import explanation
from .facts import Context, Facts, ModuleFact, TensorFact
from .i18n import colon, parens, t
from .match import Diagnosis, Match
from .parse import Frame
from .tensor_notes import tensor_notes

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


def _tensor_json(f: TensorFact) -> dict[str, Any]:
    return {
        "name": f.name,
        "shape": list(f.shape),
        "dtype": f.dtype,
        "device": f.device,
        "requires_grad": f.requires_grad,
        "grad_fn": f.grad_fn,
        "kind": f.kind,
        "frame": f.frame,
    }


def _module_json(f: ModuleFact) -> dict[str, Any]:
    return {
        "name": f.name,
        "type": f.type,
        "summary": f.summary,
        "device": f.device,
        "dtype": f.dtype,
    }


def facts_of(diagnosis: Diagnosis, match: Match, context: Context | None) -> Facts:
    """The facts captured for the error this match explains (none on the text path)."""
    if context is None or match.error is None:
        return Facts()
    for i, err in enumerate(diagnosis.trace.errors):
        if err is match.error:
            return context.facts_for(i)
    return Facts()


def notes(diagnosis: Diagnosis, match: Match, lang: str, context: Context | None) -> list[str]:
    return tensor_notes(match, facts_of(diagnosis, match, context), lang)


def to_json(diagnosis: Diagnosis, lang: str, context: Context | None = None) -> str:
    context = context or Context()
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
            "notes": notes(diagnosis, m, lang, context),
            "where": _where(m.error.where) if m.error else None,
            "see_also": list(m.entry.see_also),
        }
        for m in diagnosis.matches
    ]
    errors = [
        {
            "type": e.exc_type,
            "message": e.message,
            "relation": e.relation,
            "where": _where(e.where),
            "tensors": [_tensor_json(f) for f in context.facts_for(i).tensors],
            "modules": [_module_json(f) for f in context.facts_for(i).modules],
        }
        for i, e in enumerate(diagnosis.trace.errors)
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


def facts_lines(facts: Facts) -> list[str]:
    """`x  tensor<(32, 64), float32, cpu>` and `self.fc  Linear(in=128, out=10)`, one a line."""
    lines = [
        f"{f.name}  {f.short}" + (f"  grad_fn={f.grad_fn}" if f.grad_fn else "")
        for f in facts.tensors
    ]
    for m in facts.modules:
        where = f"  [{m.dtype}, {m.device}]" if m.device else ""
        lines.append(f"{m.name}  {m.summary}{where}")
    return lines


def to_text(
    diagnosis: Diagnosis,
    lang: str,
    *,
    colour: bool = False,
    docs_url: str = DOCS_URL,
    context: Context | None = None,
) -> str:
    s = _Style(colour)
    best = diagnosis.best
    if best is None:
        return f"{t('no_match', lang)}\n{t('no_match_hint', lang)}\n"
    entry = best.entry
    out = [f"{s.title(entry.title[lang])}  {s.dim(f'[{entry.id}, {best.score}]')}"]
    if best.method in ("fuzzy", "frames"):
        out.append(s.dim(t(best.method, lang)))
    out += ["", s.heading(t("what", lang))]
    if best.error:
        out.append(textwrap.indent(_first_line(best.error.text), "  "))
    said = explanation(best, lang) or (None if best.error else entry.title[lang])
    if said:
        out.append(textwrap.indent(said, "  → ", lambda _: True))
    for note in notes(diagnosis, best, lang, context):
        out.append(textwrap.indent(note, "  → ", lambda _: True))
    if best.error and best.error.where:
        out.append(f"  {t('where', lang)}{colon(lang)}{_where_text(best.error.where)}")
    facts = facts_of(diagnosis, best, context)
    if facts:
        out += ["", s.heading(t("tensors", lang))]
        out += ["  " + line for line in facts_lines(facts)]
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


def _environment_markdown(context: Context | None, lang: str) -> list[str]:
    if context is None or not context.environment:
        return []
    return (
        [f"### {t('environment', lang)}", ""]
        + [f"- {k}: {v}" for k, v in context.environment]
        + [""]
    )


def to_markdown(diagnosis: Diagnosis, lang: str, context: Context | None = None) -> str:
    best = diagnosis.best
    if best is None:
        out = [f"**{t('no_match', lang)}**", "", t("no_match_hint", lang), ""]
        return "\n".join(out + _environment_markdown(context, lang)).rstrip() + "\n"
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
    out += [line for note in notes(diagnosis, best, lang, context) for line in (note, "")]
    if best.error and best.error.where:
        out += [f"{t('where', lang)}{colon(lang)}`{_where_text(best.error.where)}`", ""]
    facts = facts_of(diagnosis, best, context)
    if facts:
        out += [f"### {t('tensors', lang)}", ""]
        out += [f"- `{line}`" for line in facts_lines(facts)] + [""]
    out += _environment_markdown(context, lang)
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
