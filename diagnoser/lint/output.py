"""Findings as text (like Ruff), JSON, SARIF 2.1.0 (code scanning) or GitHub workflow commands."""

from __future__ import annotations

from pathlib import PurePath

from .. import __version__
from .rule import RULES, Finding

TYPE_CHECKING = False  # `typing` costs ~2 ms of every lint's start
if TYPE_CHECKING:
    from typing import Any

DOCS = "https://torch-diagnoser.github.io/torch-diagnoser/rules/"


def _cell(f: Finding) -> int | None:
    return getattr(f, "cell", None)


def _where(f: Finding) -> str:
    cell = _cell(f)
    return f"{f.path}:cell {cell}:{f.line}:{f.col}" if cell else f"{f.path}:{f.line}:{f.col}"


def to_text(findings: list[Finding]) -> str:
    out = []
    for f in findings:
        tail = f" [{f.entry}]" if f.entry else ""
        out.append(f"{_where(f)}: {f.code} {f.message}{tail}\n")
    return "".join(out)


def to_json(findings: list[Finding]) -> str:
    rows: list[dict[str, Any]] = []
    for f in findings:
        row: dict[str, Any] = {
            "path": f.path,
            "line": f.line,
            "col": f.col,
            "code": f.code,
            "entry": f.entry,
            "message": f.message,
        }
        if _cell(f):
            row["cell"] = _cell(f)
        rows.append(row)
    import json  # the json and sarif formats only: text output starts without it

    return json.dumps(rows, ensure_ascii=False, indent=2) + "\n"


# The base that relative `uri`s resolve against (SARIF 2.1.0 §3.4.4, §3.14.14): the working
# folder, which the paths `diagnoser lint` prints are relative to. The name is the one CodeQL uses
# and GitHub code scanning reads as the repository's root.
SRCROOT = "%SRCROOT%"


def _artifact_location(path: str) -> dict[str, str]:
    """A SARIF artifactLocation for a file name: `uri` must be a valid URI reference (§3.4.3),
    so a relative path is percent-encoded (spaces, `#`, `%`, `:`, non-ASCII letters) and made
    relative to SRCROOT, and an absolute one becomes a `file:` URI."""
    from pathlib import Path
    from urllib.parse import quote

    pure = PurePath(path)
    if pure.is_absolute():
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(pure.as_posix()), "uriBaseId": SRCROOT}


def to_sarif(findings: list[Finding], lang: str = "en") -> str:
    rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.name.replace("-", " ")},
            "fullDescription": {"text": r.why[lang]},
            "helpUri": f"{DOCS}{r.code}/",
            "properties": {"entry": r.entry},
        }
        for r in sorted(RULES.values(), key=lambda r: r.code)
    ]
    rules.append(
        {"id": "E999", "name": "syntax-error", "shortDescription": {"text": "syntax error"}}
    )
    index = {r["id"]: i for i, r in enumerate(rules)}
    results = []
    for f in findings:
        text = f.message + (f" [{f.entry}]" if f.entry else "")
        if _cell(f):
            text = f"cell {_cell(f)}: {text}"
        results.append(
            {
                "ruleId": f.code,
                **({"ruleIndex": index[f.code]} if f.code in index else {}),
                "level": "error" if f.code.startswith("E") else "warning",
                "message": {"text": text},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": _artifact_location(f.path),
                            "region": {"startLine": f.line, "startColumn": f.col},
                        }
                    }
                ],
            }
        )
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "diagnoser-lint",
                        "version": __version__,
                        "informationUri": DOCS,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": _working_folder_uri()}},
                "results": results,
            }
        ],
    }
    import json  # as in to_json

    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def _working_folder_uri() -> str:
    from pathlib import Path

    uri = Path.cwd().as_uri()
    return uri if uri.endswith("/") else uri + "/"  # a base URI ends with a slash (§3.14.14)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def to_github(findings: list[Finding]) -> str:
    """`::warning file=...,line=...,col=...,title=...::message`, one workflow command a line."""
    out = []
    for f in findings:
        level = "error" if f.code.startswith("E") else "warning"
        text = f"{f.code} {f.message}" + (f" [{f.entry}]" if f.entry else "")
        if _cell(f):
            text = f"cell {_cell(f)}: {text}"
        props = (
            f"file={_escape_property(PurePath(f.path).as_posix())},line={f.line},col={f.col},"
            f"title={_escape_property(f.code)}"
        )
        out.append(f"::{level} {props}::{_escape_data(text)}\n")
    return "".join(out)
