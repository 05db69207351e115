"""Turn a Diagnosis into what a person or a tool reads: text, JSON or Markdown."""

from __future__ import annotations

from ..text.facts import Context, Facts, ModuleFact, TensorFact
from ..text.match import Diagnosis, Match
from ..text.parse import Error, Frame
from ..text.training_log import read as read_log
from .explain import explanation
from .i18n import colon, parens, t
from .safe import code_span, fence, markdown_text, visible
from .tensor_notes import Correction, tensor_notes
from .wrap import columns, markdown, wrap

TYPE_CHECKING = False  # typing is for mypy only: it costs a start-up milliseconds
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..knowledge.index import Entry
    from .report import (
        CheckReport,
        ErrorReport,
        ModuleReport,
        Report,
        SourceReport,
        TensorReport,
        Where,
    )

_MAX_OTHERS = 3
# The published site (site_url in mkdocs.yml; a test keeps the two equal).
DOCS_URL = "https://torch-diagnoser.github.io/torch-diagnoser/"


def page_url(entry_id: str, lang: str, base: str = DOCS_URL) -> str:
    return f"{base.rstrip('/')}/{'zh/' if lang == 'zh' else ''}entries/{entry_id}/"


def _where(frame: Frame | None) -> Where | None:
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


def _where_markdown(frame: Frame) -> str:
    """`path:line` — `source`: two code spans, never one inside the other."""
    where = code_span(f"{frame.filename}:{frame.lineno}")
    return where + (f" — {code_span(frame.line)}" if frame.line else "")


def _frames_note(m: Match) -> str:
    """Why frames answered: the message is cut off (or left out by the post), the exception has
    none, or it is the message of an error the frames re-raised (which no entry knows)."""
    if m.error is None or not m.error.exc_type or m.error.message_left_out:
        return "frames"
    return "frames_bare" if m.error.says_nothing else "frames_wrapped"


def _echoed(m: Match) -> str:
    """The error's own line to quote back. When no exception line was found the error is the
    whole paste, so the line the signature recognised is quoted, not the log's first line (often
    a notice such as "Sending process ... closing signal SIGTERM"); a message that starts with a
    rule (torchrun's table) is quoted from its first line of words."""
    err = m.error
    assert err is not None
    if err.exc_type is None and m.signature is not None:
        hit = m.signature.regex.search(err.message)
        if hit:
            start = err.message.rfind("\n", 0, hit.start()) + 1
            return err.message[start:].split("\n", 1)[0]
    words = next((ln for ln in err.message.split("\n") if ln.strip(" =-")), "").strip()
    if err.exc_type:  # a bare `raise NotImplementedError` prints its class alone
        return f"{err.exc_type}: {words}" if words else err.exc_type
    return words


def _wrapped_root(diagnosis: Diagnosis, m: Match) -> Error | None:
    """The real error behind a launcher's or worker pool's "a child failed", when the paste
    holds it (a rank's traceback before torchrun's table) and no entry explained it."""
    root = diagnosis.trace.root
    if m.error is None or not m.error.is_wrapper or root is None or root is m.error:
        return None
    return root if root.exc_type and root.kind == "exception" else None


def _said(diagnosis: Diagnosis, m: Match, lang: str) -> str | None:
    """The explanation; for a wrapper whose cause is in the paste, that cause, quoted, instead of
    the entry's "look above for the rank's own traceback"."""
    root = _wrapped_root(diagnosis, m)
    if root is None:
        return explanation(m, lang)
    quoted = _echoed(Match(m.entry, m.score, root, m.method))
    if root.where:
        quoted += parens(_where_text(root.where), lang)
    return t("cause_in_paste", lang).format(error=quoted)


def _tensor_json(f: TensorFact) -> TensorReport:
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


def _module_json(f: ModuleFact) -> ModuleReport:
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


def said_and_notes(said: str | None, found: list[str]) -> list[str]:
    """The explanation, then the notes; a note that corrects the explanation's advice
    (tensor_notes.Correction) comes first, so the advice the values contradict is not read first."""
    first = [n for n in found if isinstance(n, Correction)]
    rest = [n for n in found if not isinstance(n, Correction)]
    return [*first, *([said] if said else []), *rest]


def report(diagnosis: Diagnosis, lang: str, context: Context | None = None) -> Report:
    """The diagnosis as data: what `--json` prints and `diagnoser.diagnose` returns."""
    context = context or Context()
    return {
        "matches": [
            {
                "id": m.entry.id,
                "score": m.score,
                "kind": m.entry.kind,
                "group": m.entry.group,
                "title": m.title[lang],
                "method": m.method,
                "message": m.error.text if m.error else None,
                "values": m.values,
                "explanation": _said(diagnosis, m, lang),
                "notes": notes(diagnosis, m, lang, context),
                "where": _where(m.error.where) if m.error else None,
                "see_also": list(m.entry.see_also),
                "aliases": list(m.entry.aliases),
                "checks": checks_report(m.entry),
            }
            for m in diagnosis.matches
        ],
        "errors": [
            error_report(e, context.facts_for(i)) for i, e in enumerate(diagnosis.trace.errors)
        ],
        "lang": lang,
        "source": _source_report(diagnosis),
    }


def checks_report(entry: Entry) -> list[CheckReport]:
    return [
        {"tool": c["tool"], "call": c["call"], "checks": [k["id"] for k in c["checks"]]}
        for c in entry.checks
    ]


def check_steps(entry: Entry, lang: str, markdown: bool = False) -> list[tuple[str, str]]:
    """The runtime tools that check the entry next, each (call, what it does and checks), from
    the runtime checks' catalogue (knowledge/checks.json); none for most entries."""
    steps = []
    sep = "；" if lang == "zh" else "; "
    end = "。" if lang == "zh" else "."
    for c in entry.checks:
        does = c["does"][lang]
        said = (does[:1].upper() + does[1:] if lang == "en" else does) + end
        if c["checks"]:
            titles = [
                k["title"][lang] + (parens(code_span(k["id"]), lang) if markdown else "")
                for k in c["checks"]
            ]
            said += (" " if lang == "en" else "") + t("check_checks", lang)
            said += sep.join(titles) + end
        steps.append((c["call"], said))
    return steps


def call_lines(call: str, width: int | None, indent: str) -> list[str]:
    """A call on one line, or, wider than the terminal, broken after the commas of its arguments
    (still Python: the parenthesis holds it together)."""
    if width is None or len(indent) + len(call) <= width:
        return [indent + call]
    lines, line = [], indent
    for i, part in enumerate(call.split(", ")):
        piece = part if i == 0 else " " + part
        if i and len(line) + len(piece) + 1 > width:
            lines.append(line + ",")
            line = indent + "    " + part
        else:
            line += ("," if i else "") + piece
    return [*lines, line]


def _source_report(diagnosis: Diagnosis) -> SourceReport | None:
    loc = None if diagnosis.matches else diagnosis.source  # the tier is read only on a decline
    if loc is None:
        return None
    from .source import source_report

    return source_report(loc)


def _source_section(
    diagnosis: Diagnosis, lang: str, markdown: bool
) -> tuple[list[str], list[str]] | None:
    """The source tier's paragraphs and sites, on a decline it locates; else None."""
    loc = None if diagnosis.matches else diagnosis.source
    if loc is None:
        return None
    from .source import source_lines

    return source_lines(loc, lang, markdown)


def error_report(error: Error, facts: Facts | None = None) -> ErrorReport:
    facts = facts or Facts()
    return {
        "type": error.exc_type,
        "message": error.message,
        "relation": error.relation,
        "where": _where(error.where),
        "tensors": [_tensor_json(f) for f in facts.tensors],
        "modules": [_module_json(f) for f in facts.modules],
    }


def to_json(diagnosis: Diagnosis, lang: str, context: Context | None = None) -> str:
    import json  # only for --json: the text a terminal shows needs none

    return json.dumps(report(diagnosis, lang, context), ensure_ascii=False, indent=2)


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
    width: int | None = None,
) -> str:
    """The diagnosis for a person. Each paragraph is one line; with a width (a terminal's: see
    wrap.terminal_width), wrapped to it with hanging indents. Code is never wrapped."""
    s = _Style(colour)
    best = diagnosis.best
    if best is None:
        out = wrap(t("no_match", lang), width)
        located = _source_section(diagnosis, lang, markdown=False)
        if located:
            head, sites = located
            out += ["", s.heading(t("source", lang))]
            out += [ln for line in head for ln in wrap(line, width, "  ", "  ")]
            out += [ln for line in sites for ln in wrap(line, width, "  - ", "    ")]
            out.append("")
        out += wrap(t(_no_match_hint(diagnosis, bool(located)), lang), width)
        return visible("\n".join(out) + "\n", colour)
    entry = best.entry
    out = _tagged(best.title[lang], f"[{entry.id}, {best.score}]", width, s, "", s.title)
    if best.method in ("fuzzy", "frames"):
        note = t(_frames_note(best) if best.method == "frames" else best.method, lang)
        out += [s.dim(line) for line in wrap(note, width)]
    out += ["", s.heading(t("what", lang))]
    if best.error:
        out += _lines(_echoed(best), width, "  ", "    ")
    said = _said(diagnosis, best, lang) or (None if best.error else best.title[lang])
    for line in said_and_notes(said, notes(diagnosis, best, lang, context)):
        out += _lines(line, width, "  → ", "    ")
    where = _where_of(diagnosis, best)
    if where:
        out += _where_lines(where, f"{t('where', lang)}{colon(lang)}", width)
    facts = facts_of(diagnosis, best, context)
    if facts:
        out += ["", s.heading(t("tensors", lang))]
        out += [line for fact in facts_lines(facts) for line in wrap(fact, width, "  ", "    ")]
    out += ["", s.heading(t("why", lang)), *markdown(best.cause[lang], width, "  ")]
    fix = markdown(best.fix[lang], width, "  ", fences=False, code=s.code)
    out += ["", s.heading(t("fix", lang)), *fix]
    steps = check_steps(entry, lang)
    if steps:
        out += ["", s.heading(t("check", lang))]
        for call, said in steps:
            out += [s.code(line) for line in call_lines(call, width, "  ")]
            out += wrap(said, width, "    ", "    ")
    out += ["", s.heading(t("reproduce", lang)), "  " + s.code(_repro_command(best, lang))]
    others = diagnosis.matches[1 : 1 + _MAX_OTHERS]
    if others:
        out += ["", s.heading(t("others", lang))]
        for m in others:
            out += _tagged(m.title[lang], f"[{m.entry.id}, {m.score}]", width, s, "  - ")
    out += ["", *wrap(f"{t('more', lang)}{colon(lang)}{page_url(entry.id, lang, docs_url)}", width)]
    return visible("\n".join(out) + "\n", colour)


def _where_lines(frame: Frame, label: str, width: int | None) -> list[str]:
    """`where: path:line  `source``; when that does not fit, the source on a line of its own."""
    lines = wrap(label + _where_text(frame), width, "  ", "    ")
    if len(lines) > 1 and frame.line:
        where = wrap(f"{label}{frame.filename}:{frame.lineno}", width, "  ", "    ")
        return where + wrap(f"`{frame.line}`", width, "    ")
    return lines


def _lines(text: str, width: int | None, first: str, rest: str) -> list[str]:
    """Each line of text as a paragraph of its own, each after `first`."""
    return [out for line in text.split("\n") for out in wrap(line, width, first, rest)]


def _tagged(
    text: str,
    tag: str,
    width: int | None,
    s: _Style,
    first: str = "",
    style: Callable[[str], str] | None = None,
) -> list[str]:
    """A title and its dimmed `[id, score]` tag: the tag ends the title's last line when it fits
    there, else it takes a line of its own."""
    rest = " " * len(first) if first else ""
    lines = wrap(text, width, first, rest)
    shown = [style(line) if style else line for line in lines]
    if width is None or columns(lines[-1]) + 2 + columns(tag) <= width:
        shown[-1] += "  " + s.dim(tag)
    else:
        shown.append(rest + s.dim(tag))
    return shown


def _where_of(diagnosis: Diagnosis, m: Match) -> Frame | None:
    root = _wrapped_root(diagnosis, m)
    return (root or m.error).where if m.error else None


def _no_match_hint(diagnosis: Diagnosis, located: bool = False) -> str:
    """Asking for the whole traceback only helps when the paste was not one, nor a training log
    with nothing wrong in its numbers. An error PyTorch's sources raise is PyTorch's."""
    if located:
        return "no_match_located"
    errors = diagnosis.trace.errors
    if any(e.exc_type and e.frames for e in errors):
        return "no_match_whole"
    if not any(e.exc_type for e in errors) and read_log(diagnosis.trace.text):
        return "no_match_log"
    return "no_match_hint"


def _repro_command(m: Match, lang: str) -> str:
    needs = [n for n in m.entry.reproduction["needs"] if n != "cpu"]
    aside = "  " + parens(", ".join(needs), lang) if needs else ""
    return f"diagnoser repro {m.entry.id}{aside}"


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
        out = [f"**{t('no_match', lang)}**", ""]
        located = _source_section(diagnosis, lang, markdown=True)
        if located:
            head, sites = located
            out += [f"### {t('source', lang)}", ""] + [x for line in head for x in (line, "")]
            out += [f"- {line}" for line in sites] + [""]
        out += [t(_no_match_hint(diagnosis, bool(located)), lang), ""]
        return visible("\n".join(out + _environment_markdown(context, lang)).rstrip() + "\n")
    entry = best.entry
    out = [
        f"## {best.title[lang]}",
        "",
        f"{code_span(entry.id)} · {best.score}",
        "",
        f"### {t('what', lang)}",
    ]
    if best.error:
        out += ["", *fence(best.error.text)]
    out.append("")
    said = said_and_notes(_said(diagnosis, best, lang), notes(diagnosis, best, lang, context))
    out += [line for note in said for line in (markdown_text(note), "")]
    where = _where_of(diagnosis, best)
    if where:
        out += [f"{t('where', lang)}{colon(lang)}{_where_markdown(where)}", ""]
    facts = facts_of(diagnosis, best, context)
    if facts:
        out += [f"### {t('tensors', lang)}", ""]
        out += [f"- {code_span(line)}" for line in facts_lines(facts)] + [""]
    out += _environment_markdown(context, lang)
    out += [f"### {t('why', lang)}", "", best.cause[lang].strip(), ""]
    out += [f"### {t('fix', lang)}", "", best.fix[lang].strip(), ""]
    steps = check_steps(entry, lang, markdown=True)
    if steps:
        out += [f"### {t('check', lang)}", ""]
        out += [f"- {code_span(call)}{colon(lang)}{said}" for call, said in steps] + [""]
    out += [f"### {t('reproduce', lang)}", "", code_span(_repro_command(best, lang)), ""]
    others = diagnosis.matches[1 : 1 + _MAX_OTHERS]
    if others:
        out += [f"### {t('others', lang)}", ""]
        out += [
            f"- {m.title[lang]}{parens(f'{code_span(m.entry.id)}, {m.score}', lang)}"
            for m in others
        ]
    return visible("\n".join(out).rstrip() + "\n")
