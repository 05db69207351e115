"""`diagnoser lint --fix` / `--diff`: mechanical rewrites for the rules whose fix is the same
whatever the code around it: the deprecated AMP names, `ToTensor` without `()`, a Windows path in
a normal string (both the silent escapes and the unicodeescape SyntaxError), a discarded `.to()`,
`torch._six` imports, and `weights_only=False` on loading a file the program saved itself.

A fixer turns one finding's node into text edits; edits that overlap are dropped (the next run
picks them up), and a rewrite that would not compile is never written.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Callable, Iterable

from .context import Context, keyword, method_call, receiver
from .rule import RULES, Hit, Rule

Edit = tuple[int, int, str]  # start offset, end offset (characters in the source), new text
Fixer = Callable[[Context, Hit, "Offsets"], list[Edit] | None]


class Offsets:
    """Character offsets in the source from the parser's (line, UTF-8 byte column)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines = source.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def at(self, line: int, byte_col: int) -> int:
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        col = len(text.encode("utf-8")[:byte_col].decode("utf-8", "replace"))
        return self.starts[line - 1] + col

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (
            self.at(node.lineno, node.col_offset),  # type: ignore[attr-defined]
            self.at(node.end_lineno, node.end_col_offset),  # type: ignore[attr-defined]
        )


_AMP = {
    "torch.cuda.amp.autocast": ("torch.amp.autocast", "cuda"),
    "torch.cuda.amp.GradScaler": ("torch.amp.GradScaler", "cuda"),
    "torch.cpu.amp.autocast": ("torch.amp.autocast", "cpu"),
    "torch.cpu.amp.GradScaler": ("torch.amp.GradScaler", "cpu"),
}


def _fix_amp(ctx: Context, hit: Hit, off: Offsets) -> list[Edit] | None:
    call = ctx.parents.get(hit.node)
    new = _AMP.get(ctx.qualname(hit.node) or "")
    if new is None or not isinstance(call, ast.Call) or call.func is not hit.node:
        return None  # a decorator (custom_fwd) or a name used without a call
    if ctx.aliases.get("torch") != "torch" or keyword(call, "device_type") is not None:
        return None  # `torch` itself is not imported: the new name would not resolve
    start, end = off.span(hit.node)
    edits: list[Edit] = [(start, end, new[0])]
    if new[0].endswith("autocast"):
        # the old autocast(enabled, dtype, cache_enabled): after the device the new one takes
        # dtype second, so positional arguments become keywords
        if len(call.args) > 3 or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        for name, arg in zip(("enabled", "dtype", "cache_enabled"), call.args, strict=False):
            at = off.span(arg)[0]
            edits.append((at, at, f"{name}="))
    # the device goes first: torch.amp.autocast("cuda", ...), torch.amp.GradScaler("cuda", ...)
    open_paren = off.source.index("(", end)
    sep = ", " if call.args or call.keywords else ""
    edits.append((open_paren + 1, open_paren + 1, f'"{new[1]}"{sep}'))
    return edits


def _fix_raw_string(ctx: Context, hit: Hit, off: Offsets) -> list[Edit] | None:
    node = hit.node
    if not isinstance(node, ast.Constant) or node.lineno != node.end_lineno:
        return None
    start, end = off.span(node)
    return _raw_prefix(off.source, start, end)


def _raw_prefix(source: str, start: int, end: int) -> list[Edit] | None:
    """`"C:\\data\\train"` -> `r"C:\\data\\train"` when that keeps every other character: no
    prefix but `b`, one quote character, no escaped quote or backslash, no trailing backslash."""
    text = source[start:end]
    quote_at = next((i for i, c in enumerate(text) if c in "\"'"), None)
    if quote_at is None:
        return None
    prefix, body = text[:quote_at], text[quote_at:]
    if any(c not in "bB" for c in prefix) or body[:3] in ('"""', "'''"):
        return None
    inner = body[1:-1]
    if "\\\\" in inner or "\\" + body[0] in inner or inner.endswith("\\"):
        return None
    return [(start + quote_at, start + quote_at, "r")]


def _fix_transform_class(ctx: Context, hit: Hit, off: Offsets) -> list[Edit] | None:
    node = hit.node
    if not isinstance(node, ast.Name | ast.Attribute):
        return None
    _, end = off.span(node)
    return [(end, end, "()")]


def _fix_move_discarded(ctx: Context, hit: Hit, off: Offsets) -> list[Edit] | None:
    call = hit.node
    if method_call(call, "to", "cuda", "cpu") is None:
        return None
    r = receiver(call)  # type: ignore[arg-type]
    if not isinstance(r, ast.Name):
        return None
    start, _ = off.span(call)
    return [(start, start, f"{r.id} = ")]


def _fix_weights_only(ctx: Context, hit: Hit, off: Offsets) -> list[Edit] | None:
    """`torch.load(path)` of a file this program saved itself (TD052, TD055 only fire then):
    trusting it, as torch < 2.6 did, is what `weights_only=False` says, and it is safe because
    the pickle is the program's own."""
    call = hit.node
    if not isinstance(call, ast.Call) or keyword(call, "weights_only") is not None:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None  # *args / **kwargs may hold it already
    _, end = off.span(call)
    close = end - 1  # the call's ")"
    before = off.source[:close].rstrip()
    sep = " " if before.endswith((",", "(")) else ", "
    return [(close, close, f"{sep}weights_only=False")]


# What torch._six held, as plain Python: the import is replaced by the same names.
_SIX = {
    "string_classes": "{0} = (str, bytes)",
    "int_classes": "{0} = int",
    "inf": "from math import inf as {0}",
    "nan": "from math import nan as {0}",
    "container_abcs": "import collections.abc as {0}",
    "PY3": "{0} = True",
    "PY37": "{0} = True",
}


def _fix_six(ctx: Context, hit: Hit, off: Offsets) -> list[Edit] | None:
    node = hit.node
    if not isinstance(node, ast.ImportFrom) or node.module != "torch._six" or node.level:
        return None
    if node.lineno != node.end_lineno or any(a.name not in _SIX for a in node.names):
        return None
    lines = [_SIX[a.name].format(a.asname or a.name) for a in node.names]
    start, end = off.span(node)
    return [(start, end, "; ".join(lines))]


FIXERS: dict[str, Fixer] = {
    "TD053": _fix_amp,
    "TD034": _fix_raw_string,
    "TD022": _fix_transform_class,
    "TD033": _fix_move_discarded,
    "TD052": _fix_weights_only,
    "TD055": _fix_weights_only,
    "TD054": _fix_six,
}
FIXABLE = frozenset({*FIXERS, "TD035"})


def _parse(source: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source)


def fix_source(source: str, rules: Iterable[Rule]) -> tuple[str, int]:
    """The source with every fixable finding of `rules` rewritten, and how many were."""
    chosen = [r for r in rules if r.code in FIXABLE]
    applied = 0
    if any(r.code == "TD035" for r in chosen):
        source, applied = _fix_unicode_escapes(source)
    for _ in range(3):  # overlapping edits wait for the next round
        try:
            tree = _parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return source, applied
        ctx = Context(tree, source)
        off = Offsets(source)
        edits: list[list[Edit]] = []
        for r in chosen:
            fixer = FIXERS.get(r.code)
            if fixer is None:
                continue
            for hit in r.check(ctx):
                line = getattr(hit.node, "lineno", 1)
                from .engine import _silenced

                if _silenced(ctx.lines, line, r.code):
                    continue
                got = fixer(ctx, hit, off)
                if got:
                    edits.append(got)
        if not edits:
            break
        new, n = _apply(source, edits)
        try:
            compile(new, "<fix>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            break  # never write what does not compile
        source, applied = new, applied + n
    return source, applied


def _apply(source: str, groups: list[list[Edit]]) -> tuple[str, int]:
    """Apply each finding's edits unless one of them overlaps an edit already taken."""
    taken: list[Edit] = []
    count = 0
    for group in sorted(groups, key=lambda g: min(e[0] for e in g)):
        if any(not (e[1] < t[0] or e[0] > t[1]) for e in group for t in taken):
            continue
        taken += group
        count += 1
    for start, end, text in sorted(taken, key=lambda e: (e[0], e[1]), reverse=True):
        source = source[:start] + text + source[end:]
    return source, count


def _fix_unicode_escapes(source: str) -> tuple[str, int]:
    """TD035: the file does not parse; prefix the string the error names with `r`, again until
    it parses or a string cannot be fixed safely."""
    from .engine import _string_at

    count = 0
    for _ in range(200):
        try:
            _parse(source)
            return source, count
        except SyntaxError as e:
            if "unicodeescape" not in str(e.msg) or not e.lineno:
                return source, count
            lines = source.splitlines(keepends=True)
            found = _string_at(lines[e.lineno - 1])
            if found is None:
                return source, count
            start = sum(len(x) for x in lines[: e.lineno - 1]) + found[1]
            text = found[0]
            edits = _raw_prefix(source, start, start + len(text))
            if not edits:
                return source, count
            source, _ = _apply(source, [edits])
            count += 1
        except (ValueError, RecursionError, MemoryError):
            return source, count
    return source, count


def fixable(code: str) -> bool:
    return code in FIXABLE and code in RULES


def fix_paths(
    paths: Iterable[object], rules: list[Rule], exclude: Iterable[str], write: bool
) -> int:
    """Fix the .py files under `paths` (notebooks are left alone); with `write` False print a
    unified diff instead. Returns how many files changed."""
    import difflib
    import sys
    from pathlib import Path

    from .engine import _decode, iter_files

    changed = 0
    for path in iter_files([Path(str(p)) for p in paths], exclude):
        if path.suffix != ".py":
            continue
        try:
            data = path.read_bytes()
            source = _decode(data)
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue
        new, n = fix_source(source, rules)
        if not n or new == source:
            continue
        changed += 1
        if write:
            # the decoded text keeps the file's own line endings: write it untranslated
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(new)
            print(f"fixed {n} in {path}", file=sys.stderr)
        else:
            sys.stdout.writelines(
                difflib.unified_diff(
                    source.splitlines(keepends=True),
                    new.splitlines(keepends=True),
                    str(path),
                    str(path),
                )
            )
    return changed
