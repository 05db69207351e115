"""Build the source tier: the message templates PyTorch itself raises, extracted from its sources.

Run by developers, offline, never at install. The sources are not in the repository:

    # 1. the C++ trees of PyTorch releases, Debian's source packages (apt needs deb-src lines;
    #    a private apt configuration keeps the system's alone):
    mkdir -p /work/src-cache/apt/lists/partial /work/src-cache/apt/cache/archives/partial
    printf 'deb-src http://deb.debian.org/debian %s main\\n' bookworm trixie sid \\
        > /work/src-cache/apt/sources.list
    O="-o Dir::Etc::SourceList=/work/src-cache/apt/sources.list -o Dir::Etc::SourceParts=/dev/null
       -o Dir::State::Lists=/work/src-cache/apt/lists -o Dir::Cache=/work/src-cache/apt/cache"
    apt-get $O update && apt-cache $O showsrc pytorch     # the versions on offer
    cd /work/src-cache
    for v in 2.6.0+dfsg-7 1.13.1+dfsg-4; do apt-get $O source --download-only pytorch=$v; done
    for v in 2.6.0 1.13.1; do mkdir -p $v && tar -xJf pytorch_$v+dfsg.orig.tar.xz -C $v \\
        --wildcards '*/aten/*' '*/c10/*' '*/torch/csrc/*' '*/caffe2/serialize/*' '*/LICENSE' \\
        '*/version.txt'; done

    # 2. a TH/THC-era wheel for the old wordings (no C++ tree of that age is at hand: its Python
    #    files, and the printf-style messages its libraries keep beside a TH/THC source path):
    pip download --no-deps torch==1.4.0 --python-version 3.7 --only-binary=:all: \\
        --platform manylinux1_x86_64 -d /work/src-cache/torch-1.4.0
    cd /work/src-cache/torch-1.4.0 && unzip -q torch-1.4.0-*.whl 'torch/*.py' 'torch/lib/*.so*'

    # 3. the index (the installed torch wheel gives the Python sources, the graph-break registry
    #    and the strings its libraries print today):
    python tools/build_source_index.py --cpp /work/src-cache/2.6.0/pytorch-v2.6.0 \\
        --cpp /work/src-cache/1.13.1/pytorch-1.13.1 --old-wheel /work/src-cache/torch-1.4.0/torch \\
        --wheel .venv/lib/python3.11/site-packages/torch --dump /work/src-cache/templates.json \\
        --strings-cache /work/src-cache/wheel-strings.txt \\
        --foreign-cache /work/src-cache/foreign-strings.txt

It writes diagnoser/knowledge/source_index.bin (read by diagnoser/knowledge/source_tier.py) and
diagnoser/knowledge/PYTORCH_LICENSE.txt (PyTorch's BSD licence, from the newest C++ tree); --dump
writes every template, refused ones with the reason, as JSON for inspection.

A message C++ builds in a string by appends (the argument parser's "X() received an invalid
combination of arguments - got ...") gives its stable prefix, the appends before the first branch.
An old wheel's templates carry its version; its TH strings have no line (0) and the file is the
TH/THC source path nearest them in the library (its __FILE__); a TH string whose words a newer
template holds is left out.

A template is the message a raise site prints: its string literals are literal pieces, every other
argument a wildcard. From C++: TORCH_CHECK, TORCH_CHECK_VALUE / _INDEX / _TYPE / _NOT_IMPLEMENTED,
AT_ERROR, TORCH_INTERNAL_ASSERT and caffe2's CAFFE_THROW / CAFFE_ENFORCE. From Python:
`raise X("...")`, f-strings, `"..." % ...`, `"...".format(...)`, a message assigned to a name
just before the raise, `torch._check*(cond, lambda: ...)`, and dynamo's `unimplemented(gb_type=...,
explanation=...)` with the graph-break registry's ids. Each carries its exception type, file:line,
enclosing function, ATen op where known (from native_functions.yaml), the checked condition and
the versions that hold it.

Refused (see tools/source_stoplist.txt): a template whose literal text, once the stoplist's
wordings are taken out of it, is under 15 characters or has no piece of 12, unless it starts
with a literal prefix of 25 characters.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from diagnoser.knowledge import source_tier  # noqa: E402

STOPLIST = Path(__file__).with_name("source_stoplist.txt")
MIN_LITERAL = 15
MIN_PIECE = 12
MIN_PREFIX = 25
_MAX_CONDITION = 120  # a longer condition is cut: the reader needs its start

CPP_MACROS = {
    "TORCH_CHECK": "RuntimeError",
    "TORCH_CHECK_VALUE": "ValueError",
    "TORCH_CHECK_INDEX": "IndexError",
    "TORCH_CHECK_TYPE": "TypeError",
    "TORCH_CHECK_NOT_IMPLEMENTED": "NotImplementedError",
    "AT_ERROR": "RuntimeError",
    "TORCH_INTERNAL_ASSERT": "RuntimeError",
    # beyond the usual forms: linear algebra's failures, a check the CUDA build leaves out
    "TORCH_CHECK_LINALG": "_LinAlgError",
    "TORCH_CHECK_IF_NOT_ON_CUDA": "RuntimeError",
    # caffe2's, still raised by caffe2/serialize (torch.load's zip reader)
    "CAFFE_THROW": "RuntimeError",
    "CAFFE_ENFORCE": "RuntimeError",
}
# torch/csrc's Python exceptions (torch/csrc/Exceptions.h), worded printf-style: the argument
# parser's "zeros(): argument 'dtype' must be torch.dtype, not str"
PY_THROWS = ("TypeError", "ValueError", "IndexError", "AttributeError", "NotImplementedError")
# std exceptions as pybind11 and torch translate them into Python's
STD_THROWS = {
    "runtime_error": "RuntimeError",
    "invalid_argument": "ValueError",
    "out_of_range": "IndexError",
    "logic_error": "RuntimeError",
    "length_error": "ValueError",
}
_MACRO = re.compile(
    r"\b(" + "|".join(sorted(CPP_MACROS, key=len, reverse=True)) + r"|C10_THROW_ERROR"
    r"|throw\s+std::(?:" + "|".join(STD_THROWS) + r")"
    r"|throw\s+(?:torch::)?(?:" + "|".join(PY_THROWS) + r")"
    r"|PyErr_SetString|PyErr_Format|THPUtils_setError)\s*\("
)
_CPP_SUFFIXES = (".cpp", ".h", ".cu", ".cuh", ".hpp", ".cc", ".mm")
_FUNC_HEAD = re.compile(
    r"^[ \t]*(?:template\s*<[^;{]*>\s*)?(?:[\w:<>,\*&~\s]+?[\s\*&])?"
    r"((?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*)\s*\(([^;{}]*?)\)\s*(?:const\s*)?(?:override\s*)?"
    r"(?:noexcept\s*)?(?:->\s*[\w:<>\s]+)?\{",
    re.M,
)
_NOT_FUNCS = {
    "if",
    "for",
    "while",
    "switch",
    "return",
    "catch",
    "sizeof",
    "defined",
    "decltype",
    "constexpr",
    "static_assert",
    "noexcept",
    "alignas",
    "operator",
}
_ESC = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\", "0": "", "r": "", "?": "?"}


# ---------------------------------------------------------------- pieces and refusals

Piece = str | None  # None: a wildcard
Template = dict[str, Any]


def normalise(pieces: list[Piece]) -> list[Piece]:
    """Whitespace collapsed as the matcher collapses the message's; adjacent literals joined,
    adjacent wildcards merged, empty literals dropped."""
    out: list[Piece] = []
    for p in pieces:
        if p is not None:
            p = " ".join(p.split())
            if not p:
                continue
            if out and out[-1] is not None:
                out[-1] = f"{out[-1]} {p}"
                continue
        elif out and out[-1] is None:
            continue
        out.append(p)
    return out


def load_stoplist(path: Path = STOPLIST) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]


def refusal(pieces: list[Piece], stoplist: list[str]) -> str | None:
    """Why a template may not locate a message, or None. Stoplisted wordings do not count."""
    own: list[str] = []
    for p in pieces:
        if p is None:
            own.append("")
            continue
        left = p
        for stop in stoplist:
            left = re.sub(re.escape(stop), "\x00", left, flags=re.I)
        own.append(left)
    parts = [s.strip(" \x00") for p in own for s in p.split("\x00")]
    literal = sum(len(s) for s in parts)
    longest = max((len(s) for s in parts), default=0)
    prefix = len(own[0].split("\x00")[0]) if own and own[0] else 0
    if prefix >= MIN_PREFIX:
        return None
    if literal < MIN_LITERAL:
        return f"{literal} literal characters of its own (< {MIN_LITERAL})"
    if longest < MIN_PIECE:
        return f"longest literal piece {longest} characters (< {MIN_PIECE})"
    return None


# ---------------------------------------------------------------- C++


def _scan_args(text: str, start: int) -> tuple[list[str], int] | None:
    """The top-level arguments of the call whose '(' is at start-1, and the end."""
    depth, i, args, cur = 0, start, [], start
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            if c == '"' and text[i - 1] == "R" and not text[i - 2].isalnum():
                m = re.match(r'R"([^(\s]*)\(', text[i - 1 :])
                if m:
                    close = text.find(")" + m.group(1) + '"', i)
                    i = close + len(m.group(1)) + 2 if close >= 0 else n
                    continue
            i += 1
            while i < n and text[i] != c:
                i += 2 if text[i] == "\\" else 1
            i += 1
            continue
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
            continue
        if text.startswith("/*", i):
            i = text.find("*/", i)
            i = n if i < 0 else i + 2
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append(text[cur:i])
                return args, i + 1
            depth -= 1
        elif c == "," and depth == 0:
            args.append(text[cur:i])
            cur = i + 1
        elif c == ";" and depth == 0:
            return None
        i += 1
    return None


_STRING_ARG = re.compile(r'\s*(?:(?:u8|L|u|U)?"(?:[^"\\\n]|\\.)*"\s*)+', re.S)
_ONE_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"', re.S)


def _unescape(s: str) -> str:
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append(_ESC.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def _split_shifts(expr: str, op: str = "<<") -> list[str]:
    """`a << "b" << f(c, d)` -> its operands (top-level `op` only: `<<`, or `+`)."""
    parts, depth, cur, i = [], 0, 0, 0
    while i < len(expr):
        c = expr[i]
        if c == '"':
            i += 1
            while i < len(expr) and expr[i] != '"':
                i += 2 if expr[i] == "\\" else 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif expr.startswith(op, i) and depth == 0:
            parts.append(expr[cur:i])
            cur = i + len(op)
            i += len(op) - 1
        i += 1
    parts.append(expr[cur:])
    return parts


# a std::string named as a message (error_msg, msg, what, reason...) built by appends
_MESSAGE_STRING = re.compile(
    r"\bstd::string\s+(\w*(?:msg|message|err|error|what|reason)\w*)\s*(=\s*[^;]*)?;", re.I
)
_STOPS_PREFIX = re.compile(r"(?:if|for|while|switch|else|do|return|try|case|default|goto)\b|[{}]")


def _statement_end(text: str, i: int) -> int:
    """The index of the `;` that ends the statement starting at i (strings and brackets
    skipped), or -1."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c in "{}" and depth == 0:
            return -1
        elif c == ";" and depth == 0:
            return i
        i += 1
    return -1


def appended_templates(text: str, rel: str, version: str) -> list[Template]:
    """Messages C++ builds in a string by appends (`error_msg += " received an invalid
    combination of arguments - ";`) and hands to a raise elsewhere, as the argument parser's
    format_invalid_args does: the stable prefix, the pieces appended before the first branch or
    loop (what follows depends on the arguments). The class is the raise's, unknown here: ""."""
    found: list[Template] = []
    heads = _functions(text)
    for m in _MESSAGE_STRING.finditer(text):
        name = m.group(1)
        pieces: list[Piece] = []
        if m.group(2):
            pieces += [_arg_piece(a) for a in _split_shifts(m.group(2)[1:].strip(), "+")]
        i = m.end()
        appends = 0
        while True:
            rest = text[i:]
            stripped = rest.lstrip()
            i += len(rest) - len(stripped)
            while stripped.startswith("//"):  # a comment between appends
                i = text.find("\n", i)
                if i < 0:
                    break
                rest = text[i:]
                stripped = rest.lstrip()
                i += len(rest) - len(stripped)
            if i < 0 or not stripped or _STOPS_PREFIX.match(stripped):
                break
            end = _statement_end(text, i)
            if end < 0:
                break
            statement = text[i:end]
            add = re.match(rf"{re.escape(name)}\s*(\+=|\.append\s*\()", statement)
            if add:
                expr = statement[add.end() :]
                if add.group(1) != "+=":
                    expr = expr.rstrip().removesuffix(")")
                pieces += [_arg_piece(a) for a in _split_shifts(expr, "+")]
                appends += 1
            elif re.match(rf"{re.escape(name)}\s*=", statement):
                break  # set anew: what came before was not this message
            i = end + 1
        literal = [p for p in pieces if p]
        if not appends or not literal:
            continue
        function = ""
        for start, fname in heads:
            if start > m.start():
                break
            function = fname
        found.append(
            {
                "pieces": normalise(pieces),
                "type": "",
                "file": rel,
                "line": text.count("\n", 0, m.start()) + 1,
                "function": function,
                "condition": "",
                "versions": [version],
                "lang": "c++",
                "raw": literal,
            }
        )
    return found


def _stream_pieces(text: str, name: str, end: int) -> list[Piece] | None:
    """The pieces a `std::ostringstream name` collected before `name.str()` at end: every
    `name << ...;` after its declaration, in order. Separators of two characters or fewer are
    left out: a loop prints them a variable number of times."""
    decl = None
    for d in re.finditer(rf"\b(?:std::)?(?:o?string)?stream\s+{re.escape(name)}\b", text[:end]):
        decl = d
    if decl is None or end - decl.end() > 4000:
        return None
    pieces: list[Piece] = []
    for shift in re.finditer(rf"\b{re.escape(name)}\s*<<", text[decl.end() : end]):
        start = decl.end() + shift.end()
        stop = text.find(";", start)
        if stop < 0 or stop > end:
            break
        for operand in _split_shifts(text[start:stop]):
            piece = _arg_piece(operand)
            if piece is not None and len(piece.strip()) <= 2:
                piece = None
            pieces.append(piece)
    return pieces or None


def _arg_piece(arg: str) -> Piece:
    arg = arg.replace("\\\n", " ")  # a check inside a macro's body: its line continuations
    if _STRING_ARG.fullmatch(arg):
        return "".join(_unescape(m.group(1)) for m in _ONE_STRING.finditer(arg))
    stripped = arg.strip()
    if re.fullmatch(r"'(?:[^'\\]|\\.)'", stripped):  # a char literal: ',' ')' ...
        return _unescape(stripped[1:-1])
    return None


def _concat_pieces(arg: str) -> list[Piece]:
    """An argument's pieces: a `"..." + std::to_string(n) + "..."` chain gives its literals (a
    message built in pieces: `throw std::runtime_error("unexpected EOF, expected " + ...)`)."""
    operands = _split_shifts(arg, "+")
    if len(operands) > 1:
        pieces = [_arg_piece(o) for o in operands]
        if any(p is not None for p in pieces):
            return pieces
    return [_arg_piece(arg)]


def _squash(code: str) -> str:
    code = code.replace("\\\n", " ")
    code = re.sub(r"//[^\n]*", "", code)
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)
    return " ".join(code.split())


def _functions(text: str) -> list[tuple[int, str]]:
    heads = []
    for m in _FUNC_HEAD.finditer(text):
        name = m.group(1)
        if name.startswith(("TORCH_META_FUNC", "TORCH_IMPL_FUNC", "TORCH_PRECOMPUTE_META_FUNC")):
            name = re.split(r"[,)]", m.group(2))[0].strip()  # a structured kernel: its op
        elif name.split("::")[-1] in _NOT_FUNCS or re.fullmatch(r"[A-Z0-9_]+", name):
            # a statement, or a macro (AT_DISPATCH_..., a lambda inside it): not a function
            continue
        heads.append((m.start(1), name))
    return heads


def cpp_templates(tree: Path, version: str) -> list[Template]:
    found = []
    for path in sorted(tree.rglob("*")):
        if path.suffix not in _CPP_SUFFIXES or not path.is_file():
            continue
        rel = path.relative_to(tree).as_posix()
        if "/test/" in f"/{rel}" or rel.startswith("third_party/"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if not _MACRO.search(text) and not _MESSAGE_STRING.search(text):
            continue
        heads = _functions(text)
        found += appended_templates(text, rel, version)
        hi = 0
        for m in _MACRO.finditer(text):
            # skip the macros' own definitions and #define lines
            line_start = text.rfind("\n", 0, m.start()) + 1
            if text[line_start : m.start()].lstrip().startswith("#"):
                continue
            scanned = _scan_args(text, m.end())
            if scanned is None:
                continue
            args, _ = scanned
            macro = m.group(1)
            printf = False
            if macro.startswith("throw") and "std::" in macro:
                macro, typ = "AT_ERROR", STD_THROWS[macro.rsplit(":", 1)[-1]]
            elif macro.startswith("throw"):  # TypeError("%s(): argument '%s' ...", ...)
                macro, typ, printf = "AT_ERROR", macro.rsplit(":", 1)[-1].split()[-1], True
                args = args[:1]
            elif macro in ("PyErr_SetString", "PyErr_Format"):  # (PyExc_TypeError, "...")
                exc = args[0].strip()
                if not exc.startswith("PyExc_") or len(args) < 2:
                    continue
                typ, printf = exc.removeprefix("PyExc_"), macro == "PyErr_Format"
                macro, args = "AT_ERROR", args[1:2]
            elif macro == "THPUtils_setError":  # printf-style, a RuntimeError
                macro, typ, printf, args = "AT_ERROR", "RuntimeError", True, args[:1]
            elif macro == "C10_THROW_ERROR":  # C10_THROW_ERROR(IndexError, message...)
                # c10::Error reaches Python as a RuntimeError, c10::LinAlgError as _LinAlgError
                exc = args[0].strip().removeprefix("c10::")
                typ = {"Error": "RuntimeError", "LinAlgError": "_LinAlgError"}.get(exc, exc)
                macro = "AT_ERROR"
                args = args[1:]
            else:
                typ = CPP_MACROS[macro]
            line = text.count("\n", 0, m.start()) + 1
            while hi < len(heads) and heads[hi][0] < m.start():
                hi += 1
            function = heads[hi - 1][1] if hi else ""
            if macro in ("AT_ERROR", "CAFFE_THROW"):
                cond, msg_args = "", args
            else:
                cond, msg_args = _squash(args[0]), args[1:]
            pieces: list[Piece] = []
            for a in msg_args:
                if not a.strip():
                    continue
                stream = re.fullmatch(r"\s*(\w+)\.str\(\)\s*", a)
                expanded = stream and _stream_pieces(text, stream.group(1), m.start())
                pieces += expanded or _concat_pieces(a)
            if printf and pieces and pieces[0] is not None:
                pieces = _fmt_pieces(pieces[0], "%")
            if macro == "TORCH_INTERNAL_ASSERT":
                pieces = [
                    cond,
                    ' INTERNAL ASSERT FAILED at "',
                    None,
                    f'{rel}":',
                    None,
                    ", please report a bug to PyTorch. ",
                    *pieces,
                ]
            elif macro == "CAFFE_ENFORCE":  # c10::EnforceNotMet's wording
                pieces = ["[enforce fail at", None, f"] {cond}.", *pieces]
            elif not pieces and macro not in ("AT_ERROR", "CAFFE_THROW"):
                pieces = [f"Expected {cond} to be true, but got false."]
            found.append(
                {
                    "pieces": normalise(pieces),
                    "type": typ,
                    "file": rel,
                    "line": line,
                    "function": function,
                    "condition": cond,
                    "versions": [version],
                    "lang": "c++",
                    "raw": [p for p in pieces if p],
                }
            )
    return found


# ---------------------------------------------------------------- a TH-era wheel's libraries

# TH/THC/THNN/THCUNN: the C libraries of torch < 1.5 that checked with THArgCheck / THError /
# THCudaCheck and printf-style messages
_TH_PATH = re.compile(rb"/(aten/src/TH(?:C|NN|CUNN|S|CS)?/[\w./+-]+\.(?:c|cpp|cu|cuh|h))\0")
_TH_MESSAGE = re.compile(rb"[A-Za-z][\x20-\x7e]{11,}\n?")  # fprintf's end with a newline
# code, not a message: a function's signature (__PRETTY_FUNCTION__), an asserted condition
_CODE = re.compile(r"::|\[with |->|[=!<>]=|&&|\|\||\w\(")
_TH_WINDOW = 4096  # bytes: a TU's strings sit within this of its __FILE__


def _rodata(data: bytes) -> tuple[int, int]:
    """Where an ELF64 library's .rodata section is (offset, size); (0, 0) when it has none."""
    import struct

    if data[:4] != b"\x7fELF" or data[4] != 2:
        return 0, 0
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    names = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)[0]
    for k in range(shnum):
        head = shoff + k * shentsize
        name = struct.unpack_from("<I", data, head)[0]
        if data[names + name : names + name + 8] == b".rodata\0":
            return struct.unpack_from("<QQ", data, head + 0x18)
    return 0, 0


def th_templates(torch_dir: Path, version: str) -> list[Template]:
    """The printf-style messages of a TH-era wheel's libraries (no C++ tree of that release is at
    hand): the read-only strings that sit beside a TH/THC source path, the file their unit
    printed as __FILE__ (the nearest path within _TH_WINDOW bytes; the line is not known: 0).
    "invalid argument 2: %s at %s:%d" is what THArgCheck wrapped them in: the format is the
    template, %d/%s its wildcards."""
    import mmap

    found: list[Template] = []
    for lib in sorted((torch_dir / "lib").glob("lib*.so*")):
        with open(lib, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            start, size = _rodata(mm)  # type: ignore[arg-type]
            if not size:
                continue
            data = mm[start : start + size]
        paths = [(m.start(), m.group(1).decode()) for m in _TH_PATH.finditer(data)]
        if not paths:
            continue
        at = [p for p, _ in paths]
        import bisect

        for m in _TH_MESSAGE.finditer(data):
            # a whole string: NUL before and after it
            if (m.start() and data[m.start() - 1] != 0) or data[m.end() : m.end() + 1] != b"\0":
                continue
            text = m.group().decode().rstrip("\n")
            if text.count(" ") < 2 or text.startswith(("/", "_Z")) or _CODE.search(text):
                continue
            k = bisect.bisect(at, m.start())
            near = [(abs(at[j] - m.start()), paths[j][1]) for j in (k - 1, k) if 0 <= j < len(at)]
            dist, file = min(near)
            if dist > _TH_WINDOW:
                continue
            found.append(
                {
                    "pieces": normalise(_fmt_pieces(text, "%")),
                    "type": "RuntimeError",
                    "file": file,
                    "line": 0,
                    "function": "",
                    "condition": "",
                    "versions": [version],
                    "lang": "strings",
                }
            )
    return found


# ---------------------------------------------------------------- Python


def _fmt_pieces(s: str, style: str) -> list[Piece]:
    if style == "%":
        parts = re.split(
            r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?[diouxXeEfFgGcrsa%]", s
        )
    else:
        parts = re.split(r"(?<!\{)\{[^{}]*\}(?!\})", s)
        parts = [p.replace("{{", "{").replace("}}", "}") for p in parts]
    out: list[Piece] = []
    for i, p in enumerate(parts):
        if i:
            out.append(None)
        out.append(p)
    return out


def _expr_pieces(node: ast.AST, names: dict[str, ast.AST], depth: int = 0) -> list[Piece]:
    if depth > 4:
        return [None]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        out: list[Piece] = []
        for v in node.values:
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                out.append(v.value)
            else:
                out.append(None)
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _expr_pieces(node.left, names, depth + 1) + _expr_pieces(
            node.right, names, depth + 1
        )
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Mod)
        and isinstance(node.left, ast.Constant)
        and isinstance(node.left.value, str)
    ):
        return _fmt_pieces(node.left.value, "%")
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    ):
        return _fmt_pieces(node.func.value.value, "{")
    if isinstance(node, ast.Lambda):
        return _expr_pieces(node.body, names, depth + 1)
    if isinstance(node, ast.Name) and node.id in names:
        return _expr_pieces(names[node.id], names, depth + 1)
    return [None]


_CHECKS = {
    "_check": "RuntimeError",
    "_check_with": None,
    "_check_index": "IndexError",
    "_check_value": "ValueError",
    "_check_type": "TypeError",
    "_check_not_implemented": "NotImplementedError",
}


def _name_of(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return _name_of(node.func)
    return ""


class _PyVisitor(ast.NodeVisitor):
    def __init__(self, rel: str, version: str) -> None:
        self.rel, self.version = rel, version
        self.found: list[Template] = []
        self.funcs: list[str] = []
        self.conds: list[str] = []
        self.names: list[dict[str, ast.AST]] = [{}]

    def _add(
        self, node: ast.stmt | ast.expr, typ: str, pieces: list[Piece], cond: str, **extra: str
    ) -> None:
        if any(p for p in pieces if p):
            self.found.append(
                {
                    "pieces": normalise(pieces),
                    "type": typ,
                    "file": self.rel,
                    "line": node.lineno,
                    "function": ".".join(self.funcs),
                    "condition": cond[:_MAX_CONDITION],
                    "versions": [self.version],
                    "lang": "python",
                    **extra,
                }
            )

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.funcs.append(node.name)
        self.names.append({})
        self.generic_visit(node)
        self.names.pop()
        self.funcs.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.funcs.append(node.name)
        self.generic_visit(node)
        self.funcs.pop()

    def visit_If(self, node: ast.If) -> None:
        try:
            cond = ast.unparse(node.test)
        except Exception:
            cond = ""
        self.visit(node.test)
        self.conds.append(cond)
        for n in node.body:
            self.visit(n)
        self.conds.pop()
        self.conds.append(f"not ({cond})" if cond else "")
        for n in node.orelse:
            self.visit(n)
        self.conds.pop()

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            self.names[-1][node.targets[0].id] = node.value
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        exc = node.exc
        if isinstance(exc, ast.Call) and exc.args:
            typ = _name_of(exc.func)
            if typ and typ[0].isupper():
                pieces = _expr_pieces(exc.args[0], self.names[-1])
                self._add(node, typ, pieces, self.conds[-1] if self.conds else "")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _name_of(node.func)
        if name in _CHECKS and isinstance(node.func, ast.Attribute) and len(node.args) >= 2:
            typ = _CHECKS[name]
            args = node.args
            if typ is None:  # _check_with(ErrorType, cond, message)
                typ, args = _name_of(args[0]) or "RuntimeError", args[1:]
            if len(args) >= 2:
                try:
                    cond = ast.unparse(args[0])
                except Exception:
                    cond = ""
                self._add(node, typ, _expr_pieces(args[1], self.names[-1]), cond)
        elif name == "unimplemented":
            kw = {k.arg: k.value for k in node.keywords}
            gb_node = kw.get("gb_type")
            if isinstance(gb_node, ast.Constant) and isinstance(gb_node.value, str):
                gb = gb_node.value
                pieces: list[Piece] = [gb, "Explanation:"]
                if "explanation" in kw:
                    pieces += _expr_pieces(kw["explanation"], self.names[-1])
                self._add(node, "Unsupported", pieces, "", gb_type=gb)
        self.generic_visit(node)


# torch's re-implementations of other libraries raise those libraries' own messages: dynamo's
# polyfills of Python's builtins, torch._numpy of numpy's, OrderedSet of set's. Their words are
# not PyTorch's.
_MIMICS = ("torch/_dynamo/polyfills/", "torch/_numpy/", "torch/utils/_ordered_set.py")


def python_templates(torch_dir: Path, version: str) -> list[Template]:
    found = []
    for path in sorted(torch_dir.rglob("*.py")):
        rel = "torch/" + path.relative_to(torch_dir).as_posix()
        if "/testing/" in rel or "/test/" in rel or rel.startswith(_MIMICS):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
        v = _PyVisitor(rel, version)
        v.visit(tree)
        found += v.found
    return found


def graph_breaks(torch_dir: Path) -> dict[str, str]:
    path = torch_dir / "_dynamo" / "graph_break_registry.json"
    if not path.exists():
        return {}
    registry = json.loads(path.read_text(encoding="utf-8"))
    return {e["Gb_type"]: gb for gb, entries in registry.items() for e in entries}


# ---------------------------------------------------------------- ops and docs


def kernel_to_op(native_functions: Path) -> dict[str, str]:
    """kernel function name -> op name, from native_functions.yaml (read as text: no yaml)."""
    ops: dict[str, str] = {}
    op = ""
    for line in native_functions.read_text(encoding="utf-8").splitlines():
        m = re.match(r"- func: ([\w.]+)\(", line)
        if m:
            op = m.group(1).split(".")[0]
            ops.setdefault(op, op)
            continue
        m = re.match(r"\s+[\w, ]+: (\w+)\s*$", line)
        if m and op and not line.strip().startswith(("variants", "structured", "device_")):
            ops.setdefault(m.group(1), op)
    return ops


_OP_AFFIXES = re.compile(
    r"^(?:check_|_check_|at::native::|native::)"
    r"|(?:_out|_cpu|_cuda|_mps|_impl|_kernel|_template|_symint|_check|_checks)$"
)


def op_of(function: str, file: str, kernels: dict[str, str]) -> str:
    if not file.startswith("aten/src/ATen/native/"):
        return ""
    name = function.split("::")[-1]
    for _ in range(3):
        if name in kernels:
            return kernels[name]
        stripped = _OP_AFFIXES.sub("", name)
        if stripped == name:
            break
        name = stripped
    return ""


def docs_link(op: str) -> str:
    """Where PyTorch documents the op, as a code the index keeps short (source_tier.DOCS): F
    torch.nn.functional.OP, T torch.OP, M torch.Tensor.OP; "" when it has no page."""
    if not op or op.startswith("_"):
        return ""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return ""
    if getattr(getattr(F, op, None), "__doc__", None):
        return "F"
    fn = getattr(torch, op, None)
    if fn is not None and (getattr(fn, "__doc__", None) or "").strip():
        return "T"
    if (getattr(getattr(torch.Tensor, op, None), "__doc__", None) or "").strip():
        return "M"
    return ""


# ---------------------------------------------------------------- current in the wheel


def wheel_strings(torch_dir: Path) -> str:
    """Every printable run of 4+ characters in the wheel's libraries, one a line."""
    runs = []
    for lib in ("libtorch_cpu.so", "libc10.so", "libtorch_python.so"):
        path = torch_dir / "lib" / lib
        if path.exists():
            data = path.read_bytes()
            runs += [m.group().decode("ascii") for m in re.finditer(rb"[\x09\x20-\x7e]{4,}", data)]
    return "\n" + "\n".join(runs) + "\n"


def is_current(raw: list[str], strings: str, string_set: set[str]) -> bool:
    for piece in raw:
        if len(piece.strip()) < 4:
            continue
        if piece in string_set or piece.strip() in string_set:
            continue
        # the linker shares one string's tail with another's: search inside them
        if piece.strip() not in strings:
            return False
    return True


# ---------------------------------------------------------------- other programs' words

_PY_STRING = re.compile(r"""(?:[rRbBuUfF]{0,2})(?:"([^"\\\n]{8,})"|'([^'\\\n]{8,})')""")


def foreign_strings(cache: Path | None = None) -> str:
    """What Python itself and numpy print, one string a line: the printable runs of libpython
    and of numpy's extension modules, the string literals of the standard library and of numpy's
    Python files. A template all of whose words are among them is theirs, reused by torch
    (io's "binary mode doesn't take an encoding argument", importlib's "attempted relative
    import with no known parent package"), and is refused."""
    if cache and cache.exists():
        return cache.read_text(encoding="utf-8")
    import sysconfig

    runs: set[str] = set()
    libdir = Path(sysconfig.get_config_var("LIBDIR") or "")
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    binaries = [libdir / (sysconfig.get_config_var("LDLIBRARY") or ""), Path(sys.executable)]
    binaries += sorted((stdlib / "lib-dynload").glob("*.so"))
    sources = [stdlib]
    try:
        import numpy

        numpy_dir = Path(numpy.__file__).parent
        binaries += sorted(numpy_dir.rglob("*.so"))
        sources.append(numpy_dir)
    except ImportError:
        pass
    for b in binaries:
        if b.is_file():
            data = b.read_bytes()
            runs.update(m.group().decode() for m in re.finditer(rb"[\x20-\x7e]{8,}", data))
    for folder in sources:
        for py in folder.rglob("*.py"):
            if "site-packages" in py.parts and folder == stdlib:
                continue
            text = py.read_text(encoding="utf-8", errors="replace")
            runs.update(a or b for a, b in _PY_STRING.findall(text))
    joined = "\n".join(sorted(runs))
    if cache:
        cache.write_text(joined, encoding="utf-8")
    return joined


def is_foreign(pieces: list[Piece], foreign: str) -> bool:
    """Every literal piece of 4+ characters is in what Python or numpy print."""
    words = [p for p in pieces if p and len(p) >= 4]
    return bool(words) and all(p in foreign for p in words)


# ---------------------------------------------------------------- build


def merge(templates: list[Template]) -> list[Template]:
    """One template per (pieces, type, file, function): the same site in several releases, its
    versions merged and the newest line kept; two functions of a file that word a check alike
    (diagonal and diag_embed) stay two sites."""
    merged: dict[tuple[Any, ...], Template] = {}
    for t in templates:
        key = (tuple(t["pieces"]), t["type"], t["file"], t["function"])
        held = merged.get(key)
        if held is None:
            merged[key] = t
        else:
            held["versions"] = sorted(set(held["versions"]) | set(t["versions"]), key=_vkey)
    return list(merged.values())


def _vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


def tree_version(tree: Path) -> str:
    """The release: from the folder's name (pytorch-1.13.1), else version.txt (2.6.0a0)."""
    named = re.search(r"\d+\.\d+\.\d+", tree.name)
    v = named.group() if named else (tree / "version.txt").read_text().strip()
    return re.match(r"[\d.]+", v).group().rstrip(".")  # type: ignore[union-attr]


def wheel_version_of(torch_dir: Path) -> str:
    vfile = torch_dir / "version.py"
    m = re.search(r"__version__\s*=\s*'([^'+]+)", vfile.read_text()) if vfile.exists() else None
    return m.group(1) if m else "wheel"


def _known_elsewhere(t: Template, known: str) -> bool:
    """A TH string whose words a kept template of a newer release already holds: that site is the
    one to show."""
    words = [p for p in t["pieces"] if p and len(p) >= 8]
    return bool(words) and all(p in known for p in words)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cpp", action="append", default=[], type=Path, help="a C++ release tree")
    ap.add_argument("--wheel", type=Path, help="the installed torch package folder")
    ap.add_argument("--wheel-version", default="")
    ap.add_argument(
        "--old-wheel",
        action="append",
        default=[],
        type=Path,
        help="the torch folder of a TH-era wheel (1.4.0): its Python files and its libraries' "
        "TH/THC printf-style messages",
    )
    ap.add_argument("--out", type=Path, default=ROOT / "diagnoser" / "knowledge")
    ap.add_argument("--strings-cache", type=Path, help="keep the wheel's strings here between runs")
    ap.add_argument(
        "--foreign-cache", type=Path, help="keep Python's and numpy's strings here between runs"
    )
    ap.add_argument(
        "--from-dump",
        type=Path,
        help="only write the index again from a --dump of an earlier run (the format changed)",
    )
    ap.add_argument("--dump", type=Path, help="every template, refused ones too, as JSON")
    args = ap.parse_args(argv)
    if args.from_dump:
        dumped = json.loads(args.from_dump.read_text(encoding="utf-8"))
        kept = [t for t in dumped["templates"] if t["refused"] is None]
        for t in kept:
            t.pop("regex", None)
        data = source_tier.encode(kept, dumped["versions"])
        (args.out / source_tier.INDEX_NAME).write_bytes(data)
        print(f"{args.out / source_tier.INDEX_NAME}: {len(data):,} bytes", file=sys.stderr)
        return 0
    if args.wheel is None:
        ap.error("--wheel is required (the installed torch package folder)")

    stoplist = load_stoplist()
    wheel_version = args.wheel_version or wheel_version_of(args.wheel)
    trees = sorted(args.cpp, key=lambda t: _vkey(tree_version(t)), reverse=True)
    templates: list[Template] = []
    for tree in trees:
        v = tree_version(tree)
        found = cpp_templates(tree, v)
        print(f"{tree}: torch {v}, {len(found)} C++ sites", file=sys.stderr)
        templates += found
    py = python_templates(args.wheel, wheel_version)
    print(f"{args.wheel}: torch {wheel_version}, {len(py)} Python sites", file=sys.stderr)
    gb_ids = graph_breaks(args.wheel)
    for t in py:
        if "gb_type" in t:
            t["gb"] = gb_ids.get(t.pop("gb_type"), "")
    templates += py
    old_versions = []
    for old in args.old_wheel:
        v = wheel_version_of(old)
        old_py, th = python_templates(old, v), th_templates(old, v)
        print(
            f"{old}: torch {v}, {len(old_py)} Python sites, {len(th)} TH strings", file=sys.stderr
        )
        templates += old_py + th
        old_versions.append(v)
    templates = merge(templates)

    kernels = kernel_to_op(trees[0] / "aten/src/ATen/native/native_functions.yaml") if trees else {}
    cache = args.strings_cache
    if cache and cache.exists():
        strings = cache.read_text(encoding="ascii")
    else:
        strings = wheel_strings(args.wheel) if trees else ""
        if cache:
            cache.write_text(strings, encoding="ascii")
    string_set = set(strings.split("\n"))
    foreign = foreign_strings(args.foreign_cache)
    docs: dict[str, str] = {}
    kept = []
    for t in templates:
        t["refused"] = refusal(t["pieces"], stoplist)
        if t["refused"] is None and is_foreign(t["pieces"], foreign):
            t["refused"] = "its words are Python's or numpy's own"
        if t["lang"] == "c++":
            t["op"] = op_of(t["function"], t["file"], kernels)
            raw = t.pop("raw")
            # the CPU wheel holds no CUDA/MPS library: their strings cannot be checked
            gpu = re.search(r"cuda|cudnn|miopen|hip|mps|metal|vulkan|xpu", t["file"], re.I)
            t["current"] = None if gpu else is_current(raw, strings, string_set)
        else:
            t["op"], t["current"] = "", wheel_version in t["versions"]
        if t["op"] and t["op"] not in docs:
            docs[t["op"]] = docs_link(t["op"])
        t["docs"] = docs.get(t["op"], "")
        if t["refused"] is None:
            kept.append(t)
    known = "\n".join(p for t in kept if t["lang"] != "strings" for p in t["pieces"] if p)
    for t in kept:
        if t["lang"] == "strings" and _known_elsewhere(t, known):
            t["refused"] = "a newer release's template holds its words"
    kept = [t for t in kept if t["refused"] is None]
    versions = {"cpp": [tree_version(t) for t in trees], "wheel": wheel_version}
    if old_versions:
        versions["old"] = old_versions
    print(
        f"{len(templates)} templates, {len(kept)} kept, "
        f"{sum(t['current'] is True for t in kept)} current in torch {wheel_version}",
        file=sys.stderr,
    )
    if args.dump:
        for t in templates:
            t["regex"] = source_tier.template_regex(t["pieces"])
        args.dump.write_text(json.dumps({"versions": versions, "templates": templates}, indent=0))
    data = source_tier.encode(kept, versions)
    (args.out / source_tier.INDEX_NAME).write_bytes(data)
    if trees:
        licence = (trees[0] / "LICENSE").read_text(encoding="utf-8")
        (args.out / "PYTORCH_LICENSE.txt").write_text(licence, encoding="utf-8")
    print(f"{args.out / source_tier.INDEX_NAME}: {len(data):,} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
