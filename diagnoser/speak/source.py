"""The source tier in words: where PyTorch raises an error no entry explains, in both languages.

Only a declined diagnosis gets here (Diagnosis.source is None whenever an entry matched).
"""

from __future__ import annotations

from .i18n import colon, t

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..knowledge.source_tier import Location, Site
    from .report import SourceReport


def source_report(loc: Location | None) -> SourceReport | None:
    """What `--json` prints under "source"."""
    if loc is None:
        return None
    from ..knowledge.source_tier import versions

    return {
        "count": loc.count,
        "sites": [
            {
                "type": s.type,
                "file": s.file,
                "line": s.line,
                "function": s.function,
                "op": s.op or None,
                "condition": s.condition or None,
                "versions": list(s.versions),
                "current": s.current,
                "docs": s.docs or None,
                "graph_break": s.graph_break or None,
                "named": s.named,
            }
            for s in loc.sites
        ],
        "index": versions(),
    }


def _code(text: str, markdown: bool) -> str:
    if not markdown:
        return f"`{text}`"
    from .safe import code_span

    return code_span(text)


def site_line(s: Site, lang: str, markdown: bool = False) -> str:
    """raised by `embedding` in aten/src/ATen/native/Embedding.cpp:NN (torch 2.6) because
    `indices.scalar_type() == kLong` failed"""
    where = f"{s.file}:{s.line}" if s.line else s.file  # a TH string's line is not known
    if s.named:  # the file and line come from the user's text, not from the index
        if markdown:
            where = _code(where, markdown)
        function = ""
        if s.function:
            function = t("source_named_function", lang).format(function=_code(s.function, markdown))
        return t("source_named", lang).format(where=where, function=function)
    version = f"torch {s.version}" if s.version else "torch"
    if s.op:
        line = t("source_by_op", lang).format(
            op=_code(s.op, markdown), where=where, version=version
        )
    elif s.function:
        function = _code(s.function, markdown)
        line = t("source_in", lang).format(function=function, where=where, version=version)
    else:  # a TH string, a module-level raise: no function known
        line = t("source_at", lang).format(where=where, version=version)
    if not s.line:  # a TH-era wording read from a library's strings
        line += t("source_nearest", lang)
    if s.condition and s.condition not in ("false", "False"):
        line += t("source_because", lang).format(condition=_code(s.condition, markdown))
    if s.current is False:
        from ..knowledge.source_tier import versions

        line += f" — {t('source_old', lang).format(wheel=versions().get('wheel', '?'))}"
    if s.docs:
        line += f" · {t('source_docs', lang)}{colon(lang)}{s.docs}"
    if s.graph_break:
        gb, _, url = s.graph_break.partition(" ")
        line += f" · {t('source_graph_break', lang)} {gb}{colon(lang)}{url}"
    return line


def source_lines(loc: Location, lang: str, markdown: bool = False) -> tuple[list[str], list[str]]:
    """The paragraphs (the note; "raised at N places" when ambiguous), then one line a site (up
    to 3), for a list."""
    head = [t("source_note", lang)]
    if loc.count > 1:
        head.append(t("source_places", lang).format(count=loc.count, shown=len(loc.sites)))
    return head, [site_line(s, lang, markdown) for s in loc.sites]
