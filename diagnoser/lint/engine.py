"""Run the rules over files, folders and notebooks: parse once, run each selected rule, drop
what `# noqa` silences, and report files that cannot be read or parsed instead of stopping."""

from __future__ import annotations

import ast
import io
import os
import re
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..knowledge.records import dataclass
from ..knowledge.regex_cache import compile_cached
from .context import Context
from .rule import RULES, Finding, Rule

SYNTAX_ERROR, READ_ERROR = "E999", "E902"
# Folders nobody wants linted when a whole tree is named: environments, caches, build output.
SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", "env", "__pycache__", "node_modules", "build", "dist",
     ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".ipynb_checkpoints",
     "site-packages"}
)  # fmt: skip
_NOQA = compile_cached(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*))?", re.IGNORECASE)
_MAGIC = compile_cached(r"^\s*[%!]")
_TOO_DEEP = "too deeply nested to analyse"


@dataclass(frozen=True)
class Located(Finding):
    """A finding in a notebook also says which cell (1-based, counting every cell) it is in."""

    cell: int | None = None


def select_rules(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> list[Rule]:
    """Codes by prefix, like Ruff: `TD0` selects TD001..TD054; `--ignore` wins over `--select`."""
    chosen = [r for r in RULES.values() if not select or any(r.code.startswith(p) for p in select)]
    return [r for r in chosen if not any(r.code.startswith(p) for p in ignore)]


def unknown_codes(prefixes: Iterable[str]) -> list[str]:
    return [p for p in prefixes if not any(code.startswith(p) for code in RULES)]


def iter_files(paths: Iterable[Path], exclude: Iterable[str] = ()) -> Iterator[Path]:
    """The .py and .ipynb files under `paths`; a file named explicitly is always linted."""
    patterns = list(exclude)
    for path in paths:
        if not path.is_dir():
            yield path
            continue
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(
                d for d in dirs if d not in SKIP_DIRS and not d.startswith(".") and not _excluded(
                    Path(root, d), patterns)
            )  # fmt: skip
            for name in sorted(files):
                if name.endswith((".py", ".pyi", ".ipynb")):
                    f = Path(root, name)
                    if not _excluded(f, patterns):
                        yield f


def _excluded(path: Path, patterns: list[str]) -> bool:
    return any(path.match(p) or any(part == p for part in path.parts) for p in patterns)


def lint_file(path: Path, rules: list[Rule], lang: str = "en") -> list[Finding]:
    shown = str(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        return [Finding(shown, 1, 1, READ_ERROR, "", f"cannot read: {e.strerror or e}")]
    if path.suffix == ".ipynb":
        return lint_notebook(data, shown, rules, lang)
    try:
        source = _decode(data)
    except (SyntaxError, UnicodeDecodeError) as e:
        return [Finding(shown, 1, 1, SYNTAX_ERROR, "", f"cannot decode: {e}")]
    return lint_source(source, shown, rules, lang)


def _decode(data: bytes) -> str:
    # no cookie in the first two lines: UTF-8 (with or without a BOM), as detect_encoding says
    if not any(b"coding" in line for line in data.split(b"\n", 2)[:2]):
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            pass  # tokenize words the error (its import costs ~1 ms of every start)
    import tokenize

    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode("utf-8-sig" if encoding == "utf-8-sig" else encoding)


def lint_source(source: str, path: str, rules: list[Rule], lang: str = "en") -> list[Finding]:
    try:
        tree = _parse(source, path)
    except (SyntaxError, ValueError) as e:
        return [_syntax_error(path, e, rules=rules, lang=lang, source=source)]
    except (RecursionError, MemoryError):
        return [Finding(path, 1, 1, SYNTAX_ERROR, "", _TOO_DEEP)]
    return _run(tree, source, path, rules, lang)


def _parse(source: str, path: str) -> ast.Module:
    r"""Parse without the compiler's warnings about the user's code (an invalid escape such as
    "C:\data"): they are not ours to print, and TD034 reports the escapes that matter."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, filename=path)


_UNICODE_ESCAPE = "TD035"
# A backslash is taken alone, or with the quote after it: with any character after it, a run of
# backslashes split two ways at each one, and an unclosed string on a long line never finished.
_STRING = compile_cached(
    r"""(?P<prefix>[rRbBuUfF]{0,2})(?P<q>["'])(?P<body>(?:\\(?P=q)|(?!(?P=q))[^\n])*)(?P=q)"""
)
_BAD_UNICODE = compile_cached(r"(?<!\\)(?:\\\\)*\\(?:U(?![0-9a-fA-F]{8})|N(?!\{))")


def _syntax_error(
    path: str,
    e: SyntaxError | ValueError,
    cell: int | None = None,
    *,
    rules: list[Rule] = (),  # type: ignore[assignment]
    lang: str = "en",
    source: str = "",
) -> Finding:
    code, entry = SYNTAX_ERROR, ""
    if isinstance(e, SyntaxError):
        line, col = e.lineno or 1, e.offset or 1
        message = f"SyntaxError: {e.msg}"
        rule = next((r for r in rules if r.code == _UNICODE_ESCAPE), None)
        if rule is not None and "unicodeescape" in str(e.msg):
            # a Windows path in a normal string: the entry explains it; quote the string
            text = source.splitlines()[line - 1] if 0 < line <= source.count("\n") + 1 else ""
            found = _string_at(text)
            if found is not None and not _silenced(source.splitlines(), line, rule.code):
                code, entry = rule.code, rule.entry
                message = rule.message[lang].format(code=found[0][:60])
                col = found[1] + 1
    else:  # a null byte in the source
        line, col, message = 1, 1, f"SyntaxError: {e}"
    if cell is None:
        return Finding(path, line, col, code, entry, message)
    return Located(path, line, col, code, entry, message, cell)


def _string_at(text: str) -> tuple[str, int] | None:
    """The normal string literal of the line that holds a bad `\\U` / `\\N` escape, and its
    0-based column (the parser's offset points past it, differently across versions)."""
    for m in _STRING.finditer(text):
        if "r" not in m.group("prefix").lower() and _BAD_UNICODE.search(m.group("body")):
            return m.group(), m.start()
    return None


def _run(tree: ast.Module, source: str, path: str, rules: list[Rule], lang: str) -> list[Finding]:
    try:
        return _check(tree, source, path, rules, lang)
    except RecursionError:  # an expression nested thousands deep: the parser coped, we did not
        return [Finding(path, 1, 1, SYNTAX_ERROR, "", _TOO_DEEP)]


def _check(tree: ast.Module, source: str, path: str, rules: list[Rule], lang: str) -> list[Finding]:
    ctx = Context(tree, source)
    found: list[Finding] = []
    for r in rules:
        for hit in r.check(ctx):
            line = getattr(hit.node, "lineno", 1)
            if _silenced(ctx.lines, line, r.code):
                continue
            values = {k: v if isinstance(v, str) else v[lang] for k, v in hit.values.items()}
            message = r.message[lang].format(code=ctx.snippet(hit.node), **values)
            col = _column(ctx.lines, line, getattr(hit.node, "col_offset", 0))
            found.append(Finding(path, line, col, r.code, r.entry, message))
    return sorted(set(found))


def _silenced(lines: list[str], line: int, code: str) -> bool:
    if not 0 < line <= len(lines) or "noqa" not in lines[line - 1].lower():
        return False
    m = _NOQA.search(lines[line - 1])
    if m is None:
        return False
    codes = m.group("codes")
    return codes is None or code in {c.strip().upper() for c in codes.split(",")}


def _column(lines: list[str], line: int, byte_col: int) -> int:
    """1-based character column from the parser's UTF-8 byte offset."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if text.isascii():
        return byte_col + 1
    return len(text.encode("utf-8")[:byte_col].decode("utf-8", "replace")) + 1


def lint_notebook(data: bytes, path: str, rules: list[Rule], lang: str = "en") -> list[Finding]:
    """The code cells are one program (a later cell uses an earlier cell's imports), linted as
    one source; each finding is mapped back to its cell. IPython magics and shell lines are
    blanked, keeping the line numbers."""
    import json  # notebooks only: a script's lint starts without it

    try:
        nb = json.loads(data)
        # numbered as the user sees them: every cell counts, markdown included
        code = [(i, c) for i, c in enumerate(nb["cells"], 1) if c.get("cell_type") == "code"]
        numbers = [i for i, _ in code]
        sources = [c["source"] if isinstance(c["source"], str) else "".join(c["source"])
                   for _, c in code]  # fmt: skip
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        return [Finding(path, 1, 1, SYNTAX_ERROR, "", f"not a readable notebook: {e}")]
    cleaned = [_strip_magics(s) for s in sources]
    starts: list[int] = []
    lines: list[str] = []  # each cell's first line in the joined source
    for text in cleaned:
        starts.append(len(lines) + 1)
        lines += text.split("\n")
    joined = "\n".join(lines)
    try:
        tree = _parse(joined, path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        found: list[Finding] = []
        for number, text in zip(numbers, cleaned, strict=True):  # cell by cell: report the
            try:  # broken ones, lint the rest
                cell_tree = _parse(text, path)
            except (SyntaxError, ValueError) as e:
                found.append(_syntax_error(path, e, number, rules=rules, lang=lang, source=text))
                continue
            except (RecursionError, MemoryError):
                found.append(Located(path, 1, 1, SYNTAX_ERROR, "", _TOO_DEEP, number))
                continue
            found += [_in_cell(f, number, 1) for f in _run(cell_tree, text, path, rules, lang)]
        return sorted(found, key=_order)
    found = []
    for f in _run(tree, joined, path, rules, lang):
        k = max(i for i, start in enumerate(starts) if start <= f.line)
        found.append(_in_cell(f, numbers[k], starts[k]))
    return sorted(found, key=_order)


def _strip_magics(text: str) -> str:
    if text.lstrip().startswith("%%"):
        return "\n" * text.count("\n")  # a cell magic: the cell is not Python
    return "\n".join("" if _MAGIC.match(line) else line for line in text.split("\n"))


def _in_cell(f: Finding, cell: int, start: int) -> Located:
    return Located(f.path, f.line - start + 1, f.col, f.code, f.entry, f.message, cell)


def _order(f: Finding) -> tuple[str, int, int, int, str]:
    return (f.path, getattr(f, "cell", None) or 0, f.line, f.col, f.code)


def lint_paths(
    paths: Iterable[Path],
    rules: list[Rule],
    lang: str = "en",
    exclude: Iterable[str] = (),
) -> list[Finding]:
    found: list[Finding] = []
    for path in iter_files(paths, exclude):
        found += lint_file(path, rules, lang)
    return sorted(found, key=_order)
