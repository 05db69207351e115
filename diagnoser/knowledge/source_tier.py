"""The source tier: where in PyTorch's own sources a message no family explains is raised.

Built offline by tools/build_source_index.py from pinned PyTorch releases (the C++ trees of
Debian's source packages, the wheel's Python files and dynamo's graph-break registry) into
source_index.bin beside this file; PyTorch's licence is PYTORCH_LICENSE.txt beside it.

It only locates: the op that raised the message, the condition that failed, the file and line,
the versions that print it. It never names a family and is read only when none matched: nothing
here is imported or opened by a diagnosis that found its entry.

The index file (native byte order, u32 arrays aligned to 4 bytes):

    magic b"TDSRC1\\0\\0", then u32 n_templates, n_slots, and the offsets of the sections
    meta       versions, as "cpp=2.6,1.13\\x1fwheel=2.13.0"
    slots      n_slots + 1 u32: template ids of slot s are ids[slots[s]:slots[s+1]]
    ids        u32 template ids, grouped by the slot of each template's anchor word
    offsets    n_templates + 1 u32 into records
    records    one per template, UTF-8, fields separated by \\x1f (see _FIELDS); the fields
               of _SHARED are numbers of texts
    text_offsets, texts   the strings records share: pieces (separated by \\x1e, an empty
               piece is a wildcard), files, functions, conditions

A template's anchor is its rarest whole word of 4+ characters; a message is looked up by the
slot of each of its words (_slot), only the templates filed under them are read, and a template
locates the message when its literal pieces occur in it in order (whitespace collapsed).
"""

from __future__ import annotations

import re
import sys

from .records import dataclass
from .regex_cache import compile_cached

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

INDEX_NAME = "source_index.bin"
_MAGIC = b"TDSRC1\0\0"
_HEADER = 8 + 4 * 10
_FIELDS = (
    "pieces",
    "type",
    "file",
    "line",
    "function",
    "op",
    "condition",
    "versions",
    "current",
    "docs",
    "gb",
)
_WORD = compile_cached(r"[A-Za-z_][A-Za-z0-9_]{3,}")
_MAX_MESSAGE = 4000
# a wildcard stands for a value (a shape, a name, a list): never this much text
_MAX_GAP = 400
# a message that ends inside a template's wildcard: what it needs to be that template's start
_CUT_TAIL = 40  # characters after its last literal piece: one value
_CUT_PIECES = 2
_CUT_LITERAL = 40  # more than a whole template needs (25): it gives up its end
MAX_SITES = 3
# the fields records hold as numbers of shared strings: many sites word a check alike
_SHARED = ("pieces", "file", "function", "condition")
_NEAR_TIE = 0.9
DOCS = "https://docs.pytorch.org/docs/stable/generated/{}.{}.html"
_DOCS_MODULES = {"F": "torch.nn.functional", "T": "torch", "M": "torch.Tensor"}
GRAPH_BREAK_URL = "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb{}.html"

# how many times the index file was opened in this process (tests: only on a decline)
loads = 0


@dataclass(frozen=True)
class Site:
    """One place in PyTorch that raises a message."""

    type: str
    file: str
    line: int
    function: str
    op: str
    condition: str
    versions: tuple[str, ...]
    # its wording is in the wheel the index was checked against; None: not checked (a GPU file)
    current: bool | None
    docs: str
    graph_break: str  # dynamo's graph-break id (GB0123) and its page, when it is one
    literal: int  # how many characters of the message the template's own text accounts for
    # the message itself names this file and line ("at /pytorch/aten/src/TH/THTensor.cpp:299",
    # "Exception raised from f at ..."): not looked up, read
    named: bool = False

    @property
    def version(self) -> str:
        """The newest release that holds it, as the reader is told it ("2.6")."""
        return self.versions[-1] if self.versions else ""


@dataclass(frozen=True)
class Location:
    """Where a message is raised: up to MAX_SITES sites, of `count` that print it."""

    message: str
    sites: tuple[Site, ...]
    count: int


def _slot(word: str, n_slots: int) -> int:
    """A word's slot: its bytes as one number, modulo (computed in C, and no hashing module to
    import on the way: zlib costs a decline 0.3 ms)."""
    return int.from_bytes(word.encode(), "little") % n_slots


class _Index:
    def __init__(self, data: memoryview) -> None:
        if bytes(data[:8]) != _MAGIC:
            raise ValueError("not a source index")
        head = data[8:_HEADER].cast("I")
        if sys.byteorder != "little":  # pragma: no cover - written little-endian
            import array

            swapped = array.array("I", head)
            swapped.byteswap()
            head = memoryview(swapped)
        self.n, self.n_slots, meta, slots, ids, offsets, records, text_offsets, texts, end = head
        self.meta = bytes(data[meta:slots]).decode().rstrip("\0")
        self.slots = self._u32(data[slots:ids])
        self.ids = self._u32(data[ids:offsets])
        self.offsets = self._u32(data[offsets:records])
        self.records = data[records:text_offsets]
        self.text_offsets = self._u32(data[text_offsets:texts])
        self.texts = data[texts:end]
        self.data = data

    @staticmethod
    def _u32(view: memoryview) -> memoryview:
        arr = view.cast("I")
        if sys.byteorder != "little":  # pragma: no cover
            import array

            swapped = array.array("I", arr)
            swapped.byteswap()
            return memoryview(swapped)
        return arr

    def versions(self) -> dict[str, str]:
        return dict(part.split("=", 1) for part in self.meta.split("\x1f") if "=" in part)

    def text(self, i: str) -> str:
        """A string records share (pieces, conditions, function names), by its number."""
        k = int(i)
        return bytes(self.texts[self.text_offsets[k] : self.text_offsets[k + 1]]).decode()

    def record(self, i: int) -> list[str]:
        return bytes(self.records[self.offsets[i] : self.offsets[i + 1]]).decode().split("\x1f")

    def candidates(self, message: str) -> list[int]:
        found: list[int] = []
        seen = set()
        for word in set(_WORD.findall(message)):
            slot = _slot(word, self.n_slots)
            for i in self.ids[self.slots[slot] : self.slots[slot + 1]]:
                if i not in seen:
                    seen.add(i)
                    found.append(i)
        return found


_index: _Index | None = None
_missing = False


def _load() -> _Index | None:
    global _index, _missing, loads
    if _index is None and not _missing:
        from pathlib import Path

        path = Path(__file__).with_name(INDEX_NAME)
        try:
            with open(path, "rb") as f:
                try:
                    import mmap

                    data = memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
                except (ImportError, OSError, ValueError):
                    data = memoryview(f.read())
            _index = _Index(data)
            loads += 1
        except (OSError, ValueError):
            _missing = True
    return _index


def count() -> int:
    """How many templates the index holds."""
    index = _load()
    return index.n if index else 0


def versions() -> dict[str, str]:
    """The releases the index was built from: {"cpp": "2.6,1.13", "wheel": "2.13.0"}."""
    index = _load()
    return index.versions() if index else {}


def _in_order(pieces: list[str], text: str) -> tuple[int, int]:
    """How many literal characters of pieces occur in text in their order, a wildcard between
    two of them standing for at most _MAX_GAP characters, or -1 when they do not; then the same
    for the text cut inside the template, or -1: it ends in a wildcard's value (an older release
    printed only the start of today's message, or the post cut it) after _CUT_PIECES pieces of
    _CUT_LITERAL characters. A template that opens with a literal must match at a word's
    start."""
    pos = literal = matched = 0
    first = True
    for k, p in enumerate(pieces):
        if not p:
            continue
        at = text.find(p, pos)
        if at < 0 and len(p) > 1 and p.endswith(".") and not any(pieces[k + 1 :]):
            # a message quoted in a sentence loses its final full stop
            p = p[:-1]
            at = text.find(p, pos)
        if at < 0:
            cut = k > 0 and not pieces[k - 1] and len(text) - pos <= _CUT_TAIL
            if cut and matched >= _CUT_PIECES and literal >= _CUT_LITERAL:
                return -1, literal
            return -1, -1
        if not first and at - pos > _MAX_GAP:
            return -1, -1
        if first and pieces[0] and at and text[at - 1].isalnum() and p[0].isalnum():
            return -1, -1
        pos = at + len(p)
        literal += len(p)
        matched += 1
        first = False
    return literal, -1


def template_regex(pieces: list[str | None]) -> str:
    """The regular expression a template stands for (what _in_order tests, without regex)."""
    return "".join(re.escape(p) if p else "(.*?)" for p in pieces)


def _site(index: _Index, rec: list[str], literal: int) -> Site:
    fields = dict(zip(_FIELDS, rec, strict=False))
    for shared in _SHARED:
        fields[shared] = index.text(fields[shared])
    gb = fields.get("gb", "")
    return Site(
        type=fields["type"],
        file=fields["file"],
        line=int(fields["line"] or 0),
        function=fields["function"],
        op=fields["op"],
        condition=fields["condition"],
        versions=tuple(v for v in fields["versions"].split(",") if v),
        current={"1": True, "0": False}.get(fields["current"]),
        docs=DOCS.format(_DOCS_MODULES[fields["docs"]], fields["op"]) if fields["docs"] else "",
        graph_break=f"{gb} {GRAPH_BREAK_URL.format(gb[2:])}" if gb else "",
        literal=literal,
    )


# the exception classes both sides print by the same name: PyTorch's C++ checks reach Python as
# these (TORCH_CHECK: RuntimeError, TORCH_CHECK_INDEX: IndexError...)
_BUILTIN = frozenset(
    [
        "RuntimeError",
        "ValueError",
        "IndexError",
        "TypeError",
        "NotImplementedError",
        "KeyError",
        "AttributeError",
        "AssertionError",
        "ZeroDivisionError",
        "OverflowError",
        "OSError",
        "ImportError",
    ]
)
# Python that re-implements ATen's checks for tracing: eager raises from ATen
_TRACING = frozenset(
    ["_prims_common", "_prims", "_refs", "_meta_registrations", "_decomp", "_subclasses"]
)
# the parts of a path that mark a special implementation (a backend, a layout, a tracer's copy)
_SPECIAL = (
    frozenset(
        [
            "nested",
            "sparse",
            "quantized",
            "mkldnn",
            "cuda",
            "cudnn",
            "miopen",
            "mps",
            "metal",
            "vulkan",
            "xpu",
            "hip",
            "xnnpack",
            "ao",
            "onnx",
            "jit",
            "lazy",
            "functorch",
            "_inductor",
            "_export",
            "distributed",
        ]
    )
    | _TRACING
)


def _rank(s: Site) -> tuple[bool, bool, bool, str, int]:
    """Among sites that print the same words: the current wording, the general implementation
    (not a nested, sparse, quantized or backend one, nor the Python that re-implements ATen's
    checks for tracing), the one whose op is known, first."""
    special = not _SPECIAL.isdisjoint(s.file.replace(".", "/").split("/"))
    return (s.current is False, special, not s.op, s.file, s.line)


# the classes the typed C++ checks (TORCH_CHECK_INDEX, _VALUE, _TYPE, _NOT_IMPLEMENTED) raise
_RETYPED = frozenset(["IndexError", "ValueError", "TypeError", "NotImplementedError"])


def _in_python(index: _Index, rec: list[str]) -> bool:
    return index.text(rec[_FIELDS.index("file")]).endswith(".py")


def _foreign(exc_type: str | None) -> bool:
    """A class Python prints with its module (numpy.exceptions.AxisError, cv2.error) that is not
    torch's: another library raised it, whatever its words."""
    if not exc_type or "." not in exc_type:
        return False
    return exc_type.partition(".")[0] not in ("torch", "c10", "builtins")


# a path into PyTorch's C/C++ tree and a line, as messages print them: TH's "... at
# /pytorch/aten/src/TH/generic/THTensor.cpp:299", THC's "THCudaCheck FAIL file=... line=265",
# c10's "(getOutput at .../torch/csrc/jit/tracer.cpp:208)" (torch 1.x) and "Exception raised
# from f at .../c10/cuda/CUDAException.cpp:44" (2.x)
_TREE = r"(?:aten/src|torch/csrc|torch/lib|c10|caffe2)/"
# bounded: a long run without spaces after each "at " must not be rescanned to its end
_SOURCE = r"[^\s\"]{0,300}?\.(?:c|cc|cpp|cu|cuh|h|hpp|mm)"
_NAMED = (
    compile_cached(
        rf"Exception raised from (?P<f>\S{{1,300}}) at (?P<path>{_SOURCE}):(?P<line>\d+)"
    ),
    compile_cached(rf"\((?P<f>[\w:~<>]{{1,300}}) at (?P<path>{_SOURCE}):(?P<line>\d+)\)"),
    compile_cached(rf"\bfile=(?P<path>{_SOURCE}) line=(?P<line>\d+)"),
    compile_cached(rf"(?:\bat|\bin) \"?(?P<path>{_SOURCE})\"?:(?P<line>\d+)\b"),
)


def _tree_path(path: str) -> str:
    """The path inside PyTorch's tree ("aten/src/THC/generic/X.cu" of
    "/pytorch/aten/src/THC/generated/../generic/X.cu"), or "" when it is not in it."""
    import posixpath

    path = posixpath.normpath(path.replace("\\", "/"))
    m = re.search(rf"(?:^|/)({_TREE}.*)", path)
    return m.group(1) if m else ""


def named_site(text: str, exc_type: str | None = None) -> Site | None:
    """The PyTorch source file and line a message names itself, or None."""
    for pattern in _NAMED:
        for m in pattern.finditer(text[:_MAX_MESSAGE]):
            rel = _tree_path(m.group("path"))
            if rel:
                return Site(
                    type=(exc_type or "").rsplit(".", 1)[-1],
                    file=rel,
                    line=int(m.group("line")),
                    function=m.groupdict().get("f") or "",
                    op="",
                    condition="",
                    versions=(),
                    current=None,
                    docs="",
                    graph_break="",
                    literal=0,
                    named=True,
                )
    return None


def locate(
    message: str, exc_type: str | None = None, files: tuple[str, ...] = ()
) -> Location | None:
    """The message's own file and line when it names one, then the sites of the index."""
    if not message or _foreign(exc_type):
        return None
    found = _lookup(message, exc_type, files)
    named = named_site(message, exc_type)
    if named is None:
        return found
    if found is None:
        return Location(message=" ".join(message[:_MAX_MESSAGE].split()), sites=(named,), count=1)
    sites = (named, *(s for s in found.sites if (s.file, s.line) != (named.file, named.line)))
    return Location(message=found.message, sites=sites[:MAX_SITES], count=found.count + 1)


def _tracing_copy(index: _Index, rec: list[str]) -> bool:
    """Python that re-implements ATen's checks for tracing (torch/_refs...): eager raises from
    the C++ site."""
    parts = index.text(rec[_FIELDS.index("file")]).replace(".", "/").split("/")
    return not _TRACING.isdisjoint(parts)


def _lookup(
    message: str, exc_type: str | None = None, files: tuple[str, ...] = ()
) -> Location | None:
    """The PyTorch sites that raise this message, best first, or None. `files`: the traceback's
    frames; a site in one of them (torch/optim/sgd.py of the fifteen optimizers that word a bad
    learning rate alike) comes first."""
    index = _load()
    if index is None:
        return None
    text = " ".join(message[:_MAX_MESSAGE].split())
    hits: list[tuple[list[str], int]] = []
    cut: list[tuple[list[str], int]] = []
    for i in index.candidates(text):
        rec = index.record(i)
        whole, start = _in_order(index.text(rec[0]).split("\x1e"), text)
        if whole > 0:
            hits.append((rec, whole))
        elif start > 0:
            cut.append((rec, start))
    hits = hits or cut  # a message that stops inside a template only when none is whole
    if not hits:
        return None
    wanted = (exc_type or "").rsplit(".", 1)[-1]
    if wanted in _BUILTIN:  # Python's own class: a site that raises another cannot be it
        same = [h for h in hits if h[0][1] == wanted or h[0][1] not in _BUILTIN]
        if not same and wanted == "RuntimeError":
            # before torch 1.5 every C++ check raised RuntimeError: a TORCH_CHECK_INDEX (IndexError
            # today) printed by an older release still names its site
            same = [h for h in hits if h[0][1] in _RETYPED and not _in_python(index, h[0])]
        hits = same
    else:
        hits = [h for h in hits if h[0][1] == wanted] or hits
    if not hits:
        return None
    # the templates that account for most of the message: one that words a value as a literal
    # (a Python copy of a check that spells "A" where the C++ passes the name) is no better; a
    # tracing copy sets no bar for the C++ it copies (its f-string spells more of the message
    # than the C++ that builds it in pieces)
    eager = [literal for rec, literal in hits if not _tracing_copy(index, rec)]
    most = max(eager or [literal for _, literal in hits])
    near = most * _NEAR_TIE
    best = [_site(index, rec, literal) for rec, literal in hits if literal >= near]
    best.sort(key=_rank)
    if files:
        seen = tuple(f.replace("\\", "/") for f in files)
        best.sort(key=lambda s: not any(f.endswith("/" + s.file) for f in seen))
    return Location(message=text, sites=tuple(best[:MAX_SITES]), count=len(best))


# ---------------------------------------------------------------- writing (the build script)


def anchor_words(pieces: list[str | None], head: int = 0) -> list[str]:
    """The whole words of a template's literal pieces: not those a wildcard could extend.
    `head`: of its first `head` literal pieces only."""
    words = []
    last = len(pieces) - 1
    seen = 0
    for k, p in enumerate(pieces):
        if not p:
            continue
        seen += 1
        if head and seen > head:
            break
        for m in _WORD.finditer(p):
            if m.start() == 0 and k > 0 and pieces[k - 1] is None:
                continue
            if m.end() == len(p) and k < last and pieces[k + 1] is None:
                continue
            words.append(m.group())
    return words


def encode(templates: list[dict[str, Any]], versions: dict[str, object]) -> bytes:
    """The index file for these templates (each with the keys of _FIELDS)."""
    import array
    from collections import Counter

    # the anchor is a word of the first pieces when they have one: a message cut inside the
    # template (_in_order's `cut`) still holds them
    words = [
        set(anchor_words(t["pieces"], _CUT_PIECES) or anchor_words(t["pieces"])) for t in templates
    ]
    freq = Counter(w for ws in words for w in ws)
    n = len(templates)
    n_slots = max(1, n | 1)  # about one slot a template: few words share one
    buckets: list[list[int]] = [[] for _ in range(n_slots)]
    for i, ws in enumerate(words):
        if ws:
            anchor = min(ws, key=lambda w: (freq[w], -len(w), w))
            buckets[_slot(anchor, n_slots)].append(i)
    texts: dict[str, int] = {}

    def shared(text: str) -> str:
        return str(texts.setdefault(text, len(texts)))

    records = []
    for t in templates:
        gb = t.get("gb", "")
        fields = {
            **t,
            "pieces": shared("\x1e".join(p or "" for p in t["pieces"])),
            "function": shared(t["function"]),
            "condition": shared(t["condition"]),
            "file": shared(t["file"]),
            "line": str(t["line"]),
            "versions": ",".join(t["versions"]),
            "current": {True: "1", False: "0"}.get(t["current"], ""),
            "gb": gb,
        }
        rec = "\x1f".join(str(fields.get(k) or "").replace("\x1f", " ") for k in _FIELDS)
        records.append(rec.encode())
    meta = "\x1f".join(
        f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in versions.items()
    ).encode()

    def pad(b: bytes) -> bytes:
        return b + b"\0" * (-len(b) % 4)

    slots = array.array("I", [0])
    ids = array.array("I")
    for b in buckets:
        ids.extend(b)
        slots.append(len(ids))
    offsets = array.array("I", [0])
    for r in records:
        offsets.append(offsets[-1] + len(r))
    text_bytes = [t.encode() for t in texts]
    text_offsets = array.array("I", [0])
    for tb in text_bytes:
        text_offsets.append(text_offsets[-1] + len(tb))
    if sys.byteorder != "little":  # pragma: no cover
        for a in (slots, ids, offsets, text_offsets):
            a.byteswap()
    sections = [
        pad(meta),
        slots.tobytes(),
        ids.tobytes(),
        offsets.tobytes(),
        pad(b"".join(records)),
        text_offsets.tobytes(),
        b"".join(text_bytes),
    ]
    starts = []
    at = _HEADER
    for s in sections:
        starts.append(at)
        at += len(s)
    head = array.array("I", [n, n_slots, *starts, at])
    if sys.byteorder != "little":  # pragma: no cover
        head.byteswap()
    return _MAGIC + head.tobytes() + b"".join(sections)
