"""A triage report as a person or a tool reads it: a table (text or Markdown), JSON, or one
self-contained HTML page with the table and a timeline of the failures per rank."""

from __future__ import annotations

from ..knowledge.index import Index
from ..speak import render
from ..speak.explain import explanation
from ..speak.i18n import t
from ..speak.safe import code_span, table_cell, visible
from ..text.match import Diagnosis, match
from ..text.parse import Trace
from .grouping import Group, Report
from .origin import Rank

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing and datetime cost a start-up milliseconds
    from datetime import datetime
    from typing import Any


def _w(key: str, lang: str) -> str:
    return t(f"triage_{key}", lang)


def ranks_text(ranks: list[Rank]) -> str:
    """[0, 1, 2, 3, 7] → "0–3, 7"; labels such as "node2/worker5" as they are."""
    numbers = sorted(r for r in ranks if isinstance(r, int))
    parts: list[str] = []
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        parts.append(str(numbers[i]) if i == j else f"{numbers[i]}–{numbers[j]}")
        i = j + 1
    return ", ".join(parts + [str(r) for r in ranks if isinstance(r, str)]) or "-"


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return str(n)


def _time_text(at: datetime) -> str:
    return at.isoformat(sep=" ", timespec="milliseconds" if at.microsecond else "seconds")


def _seen_text(g: Group) -> str:
    where = f"{g.first.file}:{g.first.line}" if g.first.line else g.first.file
    return where + (f" {_time_text(g.first.time)}" if g.first.time else "")


def _explain(g: Group, index: Index, lang: str, role: str | None = None) -> str:
    entry = index.by_id.get(g.id) if g.id else None
    said = entry.title[lang] if entry else g.message
    return said + (_w("follower", lang) if role == "follower" else "")


def first_diagnosis(g: Group, index: Index) -> Diagnosis:
    """The first failure diagnosed in full, as `diagnoser` would on its rank's output."""
    if g.error is None:  # a symptom has no error to diagnose
        return Diagnosis(Trace((), ""), ())
    return match(Trace((g.error,), ""), index)


def _rows(report: Report, index: Index, lang: str) -> list[list[str]]:
    return [
        [
            g.id or _w("unknown", lang),
            str(g.count),
            ranks_text(g.ranks),
            _seen_text(g),
            _explain(g, index, lang, report.role(g)),
        ]
        for g in report.groups
    ]


def _header(lang: str) -> list[str]:
    return [_w(k, lang) for k in ("family", "count", "ranks", "first_seen", "explanation")]


def _summary(report: Report, lang: str) -> str:
    said = _w("summary", lang).format(
        groups=len(report.groups), files=len(report.files), size=_size(report.bytes)
    )
    if report.problems:  # never silent: what could not be read is counted here too
        said += _w("unread", lang).format(n=len(report.problems))
    return said


def to_text(
    report: Report, index: Index, lang: str, colour: bool = False, width: int | None = None
) -> str:
    """The groups' table, then the first failure's diagnosis (wrapped to width, a terminal's)."""
    if not report.groups:
        return _w("none", lang) + "\n"
    rows = [_header(lang), *_rows(report, index, lang)]
    widths = [min(max(len(r[i]) for r in rows), 48) for i in range(4)]
    out = []
    for n, row in enumerate(rows):
        # a long path keeps its end: the file name and line
        cells = [c if len(c) <= w else "…" + c[-w + 1 :] for c, w in zip(row, widths, strict=False)]
        line = "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=False)) + "  " + row[4]
        mark = "*" if n and report.groups[n - 1] is report.first_failure else " "
        out.append(f"{mark} {line}".rstrip())
    out += ["", _summary(report, lang)]
    if report.first_failure is not None:
        g = report.first_failure
        rank = "" if g.first.rank is None else _w("of_rank", lang).format(rank=g.first.rank)
        out += ["", f"* {_w('first_failure', lang)}{_seen_text(g)}{rank}", ""]
        diagnosis = first_diagnosis(g, index)
        out.append(render.to_text(diagnosis, lang, colour=colour, width=width).rstrip())
    return visible("\n".join(out) + "\n", colour)


def to_markdown(report: Report, index: Index, lang: str) -> str:
    if not report.groups:
        return _w("none", lang) + "\n"

    rows = _rows(report, index, lang)
    out = ["| " + " | ".join(_header(lang)) + " |", "|" + " --- |" * 5]
    for g, row in zip(report.groups, rows, strict=True):
        row[0] = code_span(row[0]) if g.id else row[0]
        if g is report.first_failure:
            row[0] = f"**{row[0]}**"
        out.append("| " + " | ".join(map(table_cell, row)) + " |")
    out += ["", _summary(report, lang)]
    if report.first_failure is not None:
        g = report.first_failure
        out += ["", f"## {_w('first_failure', lang)}{code_span(_seen_text(g))}", ""]
        out.append(render.to_markdown(first_diagnosis(g, index), lang))
    return visible("\n".join(out).rstrip() + "\n")


def _seen_json(g: Group) -> dict[str, Any]:
    s = g.first
    return {
        "file": s.file,
        "line": s.line,
        "time": s.time.isoformat() if s.time else None,
        "rank": s.rank,
    }


def to_dict(report: Report, index: Index, lang: str) -> dict[str, Any]:
    import json  # json and html: only the formats that need them pay for them

    groups = []
    for g in report.groups:
        groups.append(
            {
                "id": g.id,
                "kind": g.kind,
                "role": report.role(g),
                "count": g.count,
                "ranks": g.ranks,
                "files": list(g.files),
                "first": _seen_json(g),
                "message": g.message,
                "explanation": _explain(g, index, lang, report.role(g)),
            }
        )
    first: dict[str, Any] | None = None
    if report.first_failure is not None:
        g = report.first_failure
        diagnosis = first_diagnosis(g, index)
        best = diagnosis.best
        first = {
            "id": g.id,
            **_seen_json(g),
            "message": g.message,
            "group": report.groups.index(g),
            "explanation": explanation(best, lang) if best else None,
            "diagnosis": json.loads(render.to_json(diagnosis, lang)),
        }
    return {
        "groups": groups,
        "first_failure": first,
        "files": len(report.files),
        "bytes": report.bytes,
        "problems": report.problems,
        "lang": lang,
    }


def to_json(report: Report, index: Index, lang: str) -> str:
    import json

    return json.dumps(to_dict(report, index, lang), ensure_ascii=False, indent=2)


_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#222}
table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #ccc;padding:.3rem .6rem;
text-align:left;vertical-align:top}th{background:#f3f3f3}tr.first td{background:#fff3cd}
tr.follower td{color:#666}code{font-size:13px}.swatch{display:inline-block;width:.8em;
height:.8em;border-radius:50%;margin-right:.4em}pre{background:#f7f7f7;padding:1rem;
overflow:auto}svg text{font-size:12px;fill:#333}
"""


def _colour(i: int) -> str:
    return f"hsl({(i * 137) % 360},65%,45%)"


def _timeline(report: Report, lang: str) -> str:
    """One row per rank, one dot per group where the rank first printed it, left to right in
    the order they happened (by time where the logs print it)."""
    import html

    points = [
        (seen, rank, i, g)
        for i, g in enumerate(report.groups)
        if g.kind == "error"
        for rank, seen in g.by_rank.items()
    ]
    if not points:
        return ""
    by_time = all(p[0].time for p in points)
    points.sort(key=lambda p: p[0].order(by_time))
    ranks = sorted({p[1] for p in points}, key=lambda r: (isinstance(r, str), str(r).zfill(12)))
    row = {r: n for n, r in enumerate(ranks)}
    left, step, height = 110, max(24, min(80, 900 // max(1, len(points)))), 22
    width = left + step * (len(points) + 1)
    out = [
        f'<svg id="timeline" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height * len(ranks) + 30}" role="img">'
    ]
    for r, n in row.items():
        y = 20 + n * height
        out.append(f'<text x="4" y="{y + 4}">rank {html.escape(str(r))}</text>')
        out.append(f'<line x1="{left}" y1="{y}" x2="{width}" y2="{y}" stroke="#ddd"/>')
    for k, (seen, rank, i, g) in enumerate(points):
        x, y = left + step * (k + 1), 20 + row[rank] * height
        label = f"{g.id or g.message[:60]} · rank {rank} · {seen.file}:{seen.line}"
        if seen.time:
            label += f" · {_time_text(seen.time)}"
        r = 8 if g is report.first_failure else 5
        out.append(
            f'<circle class="failure" cx="{x}" cy="{y}" r="{r}" fill="{_colour(i)}" '
            f'data-group="{i}"><title>{html.escape(label)}</title></circle>'
        )
    out.append("</svg>")
    return f"<h2>{_w('timeline', lang)}</h2>\n" + "\n".join(out)


def to_html(report: Report, index: Index, lang: str) -> str:
    import html

    rows = _rows(report, index, lang)
    body = [f"<h1>{_w('title', lang)}</h1>", f"<p>{html.escape(_summary(report, lang))}</p>"]
    if report.groups:
        body.append("<table><thead><tr>")
        body += [f"<th>{html.escape(h)}</th>" for h in _header(lang)]
        body.append("</tr></thead><tbody>")
        for i, (g, row) in enumerate(zip(report.groups, rows, strict=True)):
            cls = {"first_failure": "first", "follower": "follower"}.get(report.role(g) or "", "")
            swatch = f'<span class="swatch" style="background:{_colour(i)}"></span>'
            cells = [swatch + f"<code>{html.escape(row[0])}</code>"]
            cells += [html.escape(c) for c in row[1:]]
            body.append(f'<tr class="{cls}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        body.append("</tbody></table>")
        body.append(_timeline(report, lang))
    else:
        body.append(f"<p>{_w('none', lang)}</p>")
    if report.first_failure is not None:
        g = report.first_failure
        text = render.to_text(first_diagnosis(g, index), lang)
        body.append(f"<h2>{_w('first_failure', lang)}{html.escape(_seen_text(g))}</h2>")
        body.append(f'<pre id="diagnosis">{html.escape(text)}</pre>')
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{_w('title', lang)}</title><style>{_CSS}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )
