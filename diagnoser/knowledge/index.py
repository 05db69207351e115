"""The compiled knowledge base the diagnoser reads at start-up.

kb/*.yaml is validated with pydantic (schema.py) once and written to the user's cache directory,
so that start-up reads only what matching needs, in marshal's format (several times faster to
read than JSON; the key names the Python version, whose format it is):

- `index-KEY.marshal`: the entries' ids, where each entry's records are, the table of the
  signatures' anchors (anchor_table.py) and the typo vocabulary. What grows with the entries is
  kept as flat bytes that loading views rather than copies (_to_file), not as one object per
  entry or anchor, so that loading it costs about the same with 90 entries or 900;
- `index-KEY.records`: per entry one record with its matching data (kind, group, signatures,
  frames, symptom patterns), read when the entry is first used, and one with its texts (title,
  cause, fix, explanations, examples, reproduction...), read only for the entries that are
  shown. A diagnosis that one signature settles reads a few records, so its start-up costs
  about the same with 90 entries or 900;
- `index-KEY.<name>`: what other modules derive from the whole knowledge base (Index.derived).

KEY comes from the size and modification time of every kb/*.yaml file and of the code that
compiles them (as Python's own .pyc files do; the kb/ installed with the package, by its folder:
see _stamp), so a changed kb/ gets a new key and a stale index is never read, and start-up reads
no YAML and hashes no file contents. Nothing here imports pathlib, hashlib, typing or
dataclasses: each costs milliseconds a start-up cannot afford.
"""

from __future__ import annotations

import marshal
import os
import re
import sys
import zlib
from functools import cached_property

from . import __version__
from .anchor_table import AnchorTable
from .records import dataclass
from .regex_cache import compile_cached
from .user_cache import cache_dir, mark_used, write_atomically

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path
    from typing import Any

# diagnoser/, the package: kb/ and reproductions/ are shipped inside it (or beside it in a checkout)
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Index.candidates looks this many texts up in the anchor table before it builds its automaton.
AUTOMATON_AFTER = 8
# The code that decides the index's shape, and that of the data other modules derive from it
# (Index.derived): a change to it recompiles the index. Paths are relative to the package.
_COMPILER = (
    "knowledge/schema.py",
    "knowledge/index.py",
    "knowledge/groups.py",
    "text/symptoms.py",
    "knowledge/vocabulary.py",
    "knowledge/anchor.py",
    "knowledge/anchor_table.py",
    # which runtime tools check which entry (generated from runtime/catalog.py): "Check it"
    "knowledge/checks.json",
    # Index.derived: the fuzzy stage's masked examples, the sentences' phrases and literals
    "text/match.py",
    "text/sentence.py",
    "text/paraphrase.py",
    "text/mask.py",
    "text/parse.py",
    "text/cleanup.py",
)


_PACKAGED_KB = os.path.join(_PACKAGE, "kb")  # kb/ as shipped in the wheel


def _default_kb() -> str:
    """kb/ as shipped in the wheel (diagnoser/kb), else the source checkout's top-level kb/."""
    if os.path.isdir(_PACKAGED_KB):
        return _PACKAGED_KB
    return os.path.join(os.path.dirname(_PACKAGE), "kb")


def kb_dir() -> Path:
    from pathlib import Path

    return Path(_default_kb())


def reproductions_dir() -> Path:
    from pathlib import Path

    packaged = Path(_PACKAGE) / "reproductions"
    return packaged if packaged.is_dir() else Path(_PACKAGE).parent / "reproductions"


class Signature:
    """One wording of an entry's error, as matching needs it. Its explanation templates are text,
    read with the entry's other texts (Entry.explain_templates)."""

    __slots__ = (
        "_beside_regex",
        "_code_regex",
        "_regex",
        "_type_regex",
        "_unless_code_regex",
        "_unless_regex",
        "anchor",
        "beside",
        "code",
        "exceptions",
        "newer_name",
        "pattern",
        "torch",
        "type",
        "unless",
        "unless_code",
    )

    def __init__(
        self,
        pattern: str,
        exceptions: tuple[str, ...] = (),
        unless: str | None = None,
        torch: str | None = None,
        anchor: str | None = None,
        type: str | None = None,
        code: str | None = None,
        beside: str | None = None,
        unless_code: str | None = None,
        newer_name: bool = False,
    ) -> None:
        self.pattern = pattern
        self.exceptions = exceptions
        self.unless = unless
        self.torch = torch
        # Lower-cased text every match contains (anchor.py); None when the pattern has none.
        self.anchor = anchor
        self.type = type
        self.code = code
        self.beside = beside
        self.unless_code = unless_code
        # `name` (in `module`) must be newer than torch 1.4 (schema's `newer_name`, newer_names.py)
        self.newer_name = newer_name
        self._regex: re.Pattern[str] | None = None
        self._code_regex: re.Pattern[str] | None = None
        self._type_regex: re.Pattern[str] | None = None
        self._unless_regex: re.Pattern[str] | None = None
        self._beside_regex: re.Pattern[str] | None = None
        self._unless_code_regex: re.Pattern[str] | None = None

    @property
    def regex(self) -> re.Pattern[str]:
        if self._regex is None:  # compiled on first use: most signatures never are
            self._regex = compile_cached(self.pattern, re.IGNORECASE)
        return self._regex

    @property
    def type_regex(self) -> re.Pattern[str] | None:
        """Which exception types the signature is for (issue 10's `type`), as a regex."""
        if self.type and self._type_regex is None:
            self._type_regex = compile_cached(self.type)
        return self._type_regex

    @property
    def unless_regex(self) -> re.Pattern[str] | None:
        if self.unless and self._unless_regex is None:
            self._unless_regex = compile_cached(self.unless, re.IGNORECASE)
        return self._unless_regex

    @property
    def code_regex(self) -> re.Pattern[str] | None:
        """What the failing line of code must contain (the schema's `code`), as a regex."""
        if self.code and self._code_regex is None:
            self._code_regex = compile_cached(self.code)
        return self._code_regex

    @property
    def unless_code_regex(self) -> re.Pattern[str] | None:
        """What the failing line of code must not contain (the schema's `unless_code`)."""
        if self.unless_code and self._unless_code_regex is None:
            self._unless_code_regex = compile_cached(self.unless_code)
        return self._unless_code_regex

    @property
    def beside_regex(self) -> re.Pattern[str] | None:
        """What the rest of the paste must show too (the schema's `beside`), as a regex."""
        if self.beside and self._beside_regex is None:
            self._beside_regex = compile_cached(self.beside, re.IGNORECASE)
        return self._beside_regex

    def __repr__(self) -> str:
        return f"Signature({self.pattern!r})"


@dataclass(frozen=True)
class FrameSignature:
    calls: tuple[str, ...]
    source: str | None = None
    raised: str | None = None  # the class of a bare exception these frames name (schema.py)
    wraps: bool = False  # they re-raise another error, whatever its message (schema.py)

    @cached_property
    def call_patterns(self) -> tuple[tuple[str, re.Pattern[str]], ...]:
        """(path suffix, function regex) for each call; the schema checked the `file:function`."""
        pairs = (call.split(":", 1) for call in self.calls)
        return tuple(("/" + file, compile_cached(function)) for file, function in pairs)

    @cached_property
    def source_regex(self) -> re.Pattern[str] | None:
        return compile_cached(self.source) if self.source else None


class Entry:
    """An entry as matching needs it; its texts are read from the cache when first asked for,
    its signatures made when first asked for (a start-up asks for those of a few entries)."""

    __slots__ = (
        "_position",
        "_raw_signatures",
        "_signatures",
        "_span",
        "_store",
        "_texts",
        "frames",
        "group",
        "id",
        "kind",
        "symptoms",
    )

    def __init__(
        self,
        id: str,
        kind: str,
        group: str,
        # [pattern, exceptions, unless, torch, anchor, type, code, beside, unless_code, newer_name]
        signatures: list[list[Any]],
        frames: tuple[FrameSignature, ...],
        symptoms: dict[str, Any] | None,
        store: _Records,
        position: int,
        span: tuple[int, int],
    ) -> None:
        self.id, self.kind, self.group = id, kind, group
        self._raw_signatures = signatures
        # A traceback cut off before its message, recognised by the library frames it went through.
        self.frames = frames
        self._signatures: tuple[Signature, ...] | None = None
        # {"patterns": [...], "log_signal": name or None} for a symptom entry
        self.symptoms = symptoms
        # where its texts are: its position in the knowledge base, its span in the records file
        self._store, self._position, self._span = store, position, span
        self._texts: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"Entry({self.id!r})"

    @property
    def signatures(self) -> tuple[Signature, ...]:
        if self._signatures is None:
            self._signatures = tuple(
                Signature(pattern, tuple(exceptions), *rest)
                for pattern, exceptions, *rest in self._raw_signatures
            )
        return self._signatures

    @property
    def texts(self) -> dict[str, Any]:
        if self._texts is None:
            self._texts = self._store.read("texts", self._position, self._span)
        return self._texts

    @property
    def title(self) -> dict[str, str]:
        return self.texts["title"]  # type: ignore[no-any-return]

    @property
    def cause(self) -> dict[str, str]:
        return self.texts["cause"]  # type: ignore[no-any-return]

    @property
    def fix(self) -> dict[str, str]:
        return self.texts["fix"]  # type: ignore[no-any-return]

    @property
    def reproduction(self) -> dict[str, Any]:
        return self.texts["reproduction"]  # type: ignore[no-any-return]

    @property
    def examples(self) -> tuple[str, ...]:
        return tuple(self.texts["examples"])

    @property
    def see_also(self) -> tuple[str, ...]:
        return tuple(self.texts["see_also"])

    @property
    def aliases(self) -> tuple[str, ...]:
        return tuple(self.texts["aliases"])

    @property
    def glance(self) -> dict[str, dict[str, str]]:
        """The cause and the fix in one line each: {"cause": {"en", "zh"}, "fix": {...}}."""
        return self.texts["glance"]  # type: ignore[no-any-return]

    @property
    def docs(self) -> list[dict[str, str]]:
        """PyTorch's own pages on the topic, each {"title", "url"}."""
        return self.texts["docs"]  # type: ignore[no-any-return]

    @property
    def phrases(self) -> dict[str, list[str]]:
        """How users name the entry in a sentence, {"en": [...], "zh": [...]}."""
        return self.texts["phrases"]  # type: ignore[no-any-return]

    @property
    def checks(self) -> list[dict[str, Any]]:
        """The runtime tools that check this entry, each {"tool", "call", "does": {"en", "zh"},
        "checks": [{"id", "title": {"en", "zh"}}]} (knowledge/checks.json); empty for most."""
        found: list[dict[str, Any]] = self.texts.get("checks") or []
        return found

    @property
    def evidence(self) -> list[dict[str, str]]:
        """A symptom's templates that quote the values read from the log."""
        return self.texts["evidence"]  # type: ignore[no-any-return]

    def explain_templates(self, signature: Signature) -> dict[str, str] | None:
        """The explanation of one of this entry's signatures, in both languages, if it has one."""
        return self.texts["explain"][self._nth(signature)]  # type: ignore[no-any-return]

    def case(self, signature: Signature) -> dict[str, dict[str, str] | None]:
        """The title, cause and fix of a signature that names a case of its own (Signature in
        schema.py), each None where the entry's own apply."""
        found = self.texts["cases"][self._nth(signature)]
        return found or dict.fromkeys(_CASE)

    def _nth(self, signature: Signature) -> int:
        return next(i for i, s in enumerate(self.signatures) if s is signature)


class Index:
    """The knowledge base as matching reads it. Each entry is decoded from the cache when first
    used, so a start-up that looks at a few entries costs the same with 90 entries or 900.
    Hashed by identity (object's default): caches key on the loaded index."""

    def __init__(self, data: dict[str, Any], store: _Records) -> None:
        self._stamp: str = data["stamp"]
        # Where each entry's matching data is in the records file: start, length and CRC-32, flat.
        self._spans = memoryview(data["entry_spans"]).cast("I")
        self._decoded: list[Entry | None] = [None] * (len(self._spans) // 3)
        self._store = store
        # The signatures' anchors (anchor.py), each with the signatures that have it: an entry's
        # position and the signature's, packed into one int (_pack).
        self._anchors = AnchorTable(data["anchors"])
        self._unanchored: list[int] = data["unanchored"]
        self._searches = 0
        self.symptomatic: list[int] = data["symptomatic"]  # the symptom entries' positions
        self._framed: list[int] = data["framed"]
        self._vocabulary: list[str] = data["vocabulary"]

    @property
    def ids(self) -> list[str]:
        return self._store.ids

    @cached_property
    def positions(self) -> dict[str, int]:
        """Each entry's position by its id: for what finds a few entries by id without reading
        them all (Index.by_id does)."""
        return {entry_id: p for p, entry_id in enumerate(self.ids)}

    def entry(self, position: int) -> Entry:
        made = self._decoded[position]
        if made is None:
            span = tuple(self._spans[3 * position : 3 * position + 3])
            made = self._make(self._store.read("entry", position, span))
            self._decoded[position] = made
        return made

    def _make(self, e: dict[str, Any]) -> Entry:
        return Entry(
            e["id"],
            e["kind"],
            e["group"],
            e["signatures"],
            tuple(
                FrameSignature(tuple(calls), source, raised, wraps)
                for calls, source, raised, wraps in e["frames"]
            ),
            e["symptoms"],
            self._store,
            e["position"],
            tuple(e["span"]),
        )

    @cached_property
    def entries(self) -> tuple[Entry, ...]:
        """Every entry, in the knowledge base's order: for what reads them all (the fuzzy stage,
        `diagnoser list`, triage), never for a diagnosis that a signature settles. Read in one
        go, not entry by entry."""
        spans = list(zip(self._spans[::3], self._spans[1::3], self._spans[2::3], strict=True))
        for position, record in enumerate(self._store.read_all("entry", spans)):
            if self._decoded[position] is None:
                self._decoded[position] = self._make(record)
        return tuple(e for e in self._decoded if e is not None)

    @cached_property
    def by_id(self) -> dict[str, Entry]:
        """Each entry by its id and by its aliases."""
        found = {alias: e for e in self.entries for alias in e.aliases}
        return found | {e.id: e for e in self.entries}

    @cached_property
    def symptom_entries(self) -> tuple[Entry, ...]:
        return tuple(map(self.entry, self.symptomatic))

    @cached_property
    def framed_entries(self) -> tuple[Entry, ...]:
        """The entries with frame signatures (a traceback cut off before its message)."""
        return tuple(map(self.entry, self._framed))

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """The English words of the symptom phrases, which typos in a sentence are corrected
        towards."""
        return frozenset(self._vocabulary)

    def derived(self, name: str, compute: Callable[[], Any]) -> Any:
        """What another module computes from the whole knowledge base (the fuzzy stage's masked
        examples, the phrases sentences are searched for): kept beside the index, so that it is
        computed once per compiled index rather than once per process. `compute` returns data
        marshal can write; the index's stamp covers the code that computes it (_COMPILER)."""
        path = f"{self._store.path.removesuffix('.records')}.{name}"
        try:
            with open(path, "rb") as f:
                stamp, value = marshal.loads(f.read())
            if stamp == self._stamp:
                return value
        except (OSError, ValueError, EOFError, TypeError):
            pass
        import contextlib

        value = compute()
        with contextlib.suppress(OSError, ValueError):  # unwritable: computed again next time
            write_atomically(path, marshal.dumps((self._stamp, value)))
        return value

    def candidates(self, lowered: str) -> list[tuple[Entry, Signature]]:
        """The signatures whose anchor occurs in `lowered` (lower-cased text), or that have none,
        in the knowledge base's order.

        The first texts are looked up in the anchor table (anchor_table.py), which needs no
        set-up. From the AUTOMATON_AFTER-th text on, one Aho-Corasick pass over all anchors,
        built once (~1 ms for hundreds of anchors), finds them in a few times less (without
        pyahocorasick, the table serves every text). Either way the cost grows with the text,
        not with the number of signatures."""
        self._searches += 1
        if self._searches < AUTOMATON_AFTER or self._automaton is None:
            targets = self._anchors.search(lowered)
        else:
            targets = [t for _end, sigs in self._automaton.iter(lowered) for t in sigs]
        found = set(self._unanchored)
        found.update(targets)
        return [(self.entry(p >> _SIGNATURE_BITS), self._signature(p)) for p in sorted(found)]

    def _signature(self, packed: int) -> Signature:
        return self.entry(packed >> _SIGNATURE_BITS).signatures[packed & _SIGNATURE_MASK]

    @cached_property
    def _automaton(self) -> Any:
        """Each anchor, with the signatures that have it (a tuple of _pack's ints); None without
        anchors or without pyahocorasick, where the anchor table serves every text."""
        from .substrings import automaton

        anchors = self._anchors
        words = {word: tuple(anchors.targets(n)) for n, word in enumerate(anchors.words())}
        return automaton(words, or_scan=False)


class _Records:
    """The records file of one index: each entry's texts ("texts") and its matching data
    ("entry"), each record read alone by its byte span, or all records of a kind in one read.
    A record names its kind and its entry's position, which a read checks."""

    def __init__(
        self,
        path: str,
        kb: tuple[str, ...],  # the folders it was compiled from
        ids: bytes | memoryview,
        compiled: dict[str, dict[str, dict[str, Any]]] | None = None,
    ) -> None:
        self.path, self.kb = path, kb
        self._ids = ids  # one per line, in UTF-8, as the index file holds them
        # {kind: {entry id: record}}, in memory when the file could not be written or read back
        self._compiled = compiled
        # Opened now and kept: another process that recompiles the knowledge base (an edit, an
        # upgrade) deletes or replaces this file, and this process must go on reading the index
        # it loaded, not a newer one's records.
        self._fd: int | None = None
        if compiled is None:
            try:
                self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
            except OSError:  # gone already: read() compiles the knowledge base again
                self._fd = None

    def __del__(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:  # closed already, or at interpreter exit
                self._fd = None

    def _bytes(self, start: int, size: int) -> bytes:
        if self._fd is None:
            raise OSError("the records file could not be opened")
        if hasattr(os, "pread"):
            return os.pread(self._fd, size, start)
        os.lseek(self._fd, start, os.SEEK_SET)  # Windows: one reader per process at a time
        return os.read(self._fd, size)

    @cached_property
    def ids(self) -> list[str]:
        """The entries' ids, in the knowledge base's order."""
        return str(self._ids, "utf-8").split("\n") if self._ids else []

    def read(self, kind: str, position: int, span: tuple[int, ...]) -> dict[str, Any]:
        if self._compiled is None:
            try:
                record = _checked(self._bytes(span[0], span[1]), span[2], kind, position)
                if record is not None:
                    return record
            except (OSError, ValueError, EOFError, TypeError):  # marshal's ways of refusing
                pass
            self._damaged()
        return self._of(kind)[self.ids[position]]

    def read_all(self, kind: str, spans: list[tuple[int, int, int]]) -> list[dict[str, Any]]:
        """The records of every entry, written one after the other (as _records_file writes
        them)."""
        if self._compiled is None and spans:
            start, end = spans[0][0], spans[-1][0] + spans[-1][1]
            try:
                region = self._bytes(start, end - start)
                records = [
                    _checked(region[s - start : s - start + n], crc, kind, p)
                    for p, (s, n, crc) in enumerate(spans)
                ]
                if all(r is not None for r in records):
                    return records  # type: ignore[return-value]
            except (OSError, ValueError, EOFError, TypeError):
                pass
            self._damaged()
        return [self._of(kind)[entry_id] for entry_id in self.ids]

    def _damaged(self) -> None:
        """The records file is damaged (or was never there): this process compiles the knowledge
        base again, and the next one finds no index and writes a sound one (best effort)."""
        import contextlib

        for path in (self.path, self.path.removesuffix(".records") + ".marshal"):
            with contextlib.suppress(OSError):
                os.unlink(path)
        self._recompile()

    def _recompile(self) -> None:
        compiled = _records(*_split(compile_kb(self.kb)))
        if list(compiled["entry"]) != self.ids:
            raise RuntimeError(
                "the knowledge base changed while this process was running and its cached index "
                "was damaged: run the command again"
            )
        self._compiled = compiled

    def _of(self, kind: str) -> dict[str, dict[str, Any]]:
        if self._compiled is None:
            self._recompile()
        return self._compiled[kind]  # type: ignore[index]


def _checked(raw: bytes, crc: int, kind: str, position: int) -> dict[str, Any] | None:
    """A record read back, if its bytes are the ones written (their CRC-32) and it is the record
    asked for."""
    if zlib.crc32(raw) != crc:
        return None
    record = marshal.loads(raw)
    if not isinstance(record, dict):
        return None
    return record if (record.get("record"), record.get("position")) == (kind, position) else None


def _records(
    matching: dict[str, Any], texts: dict[str, dict[str, Any]]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Both kinds of record of every entry, by id, as the records file holds them."""
    return {
        "texts": {
            e["id"]: {**texts[e["id"]], "record": "texts", "position": p}
            for p, e in enumerate(matching["entries"])
        },
        "entry": {
            e["id"]: {**e, "record": "entry", "position": p, "span": [0, 0, 0]}
            for p, e in enumerate(matching["entries"])
        },
    }


def _stamp(kb: str) -> str:
    """What the index is compiled from: the version, then name, size and modification time of
    the compiling code and of each kb/*.yaml, and kb/'s own path.

    The knowledge base installed with the package is stamped by its folder alone, as an
    installed package's .pyc files are trusted without reading their sources ("unchecked"
    pycs, PEP 552): installing, upgrading or removing the package removes and writes its files,
    which changes the folder's own modification time, and nothing else writes there. So a
    start-up costs the same with 90 entries or 900; a kb/ being edited is checked file by file."""
    parts = [__version__, sys.version, os.path.abspath(kb)]
    for name in _COMPILER:
        st = os.stat(os.path.join(_PACKAGE, name))
        parts.append(f"{name} {st.st_size} {st.st_mtime_ns}")
    if kb == _PACKAGED_KB:
        parts.append(f"installed {os.stat(kb).st_mtime_ns}")
        return "\n".join(parts)
    with os.scandir(kb) as found:
        files = sorted((e.name, e.stat()) for e in found if e.name.endswith(".yaml"))
    parts += (f"{name} {st.st_size} {st.st_mtime_ns}" for name, st in files)
    return "\n".join(parts)


def compile_kb(kb: Path | str | Sequence[str]) -> dict[str, Any]:
    """Validate kb/ (or kb/ and a team's own folders: raises schema.KBError) and return the index
    as plain JSON data."""
    from pathlib import Path

    from .anchor import rarest_windows, required_literal
    from .schema import load_kb  # pydantic, YAML and rapidfuzz only when the index is (re)built
    from .vocabulary import clean_vocabulary

    folders = [kb] if isinstance(kb, (str, os.PathLike)) else kb
    entries = load_kb([Path(folder) for folder in folders])
    words = [
        word
        for e in entries
        if e.kind == "symptom"  # error entries' words are names; correcting towards them mangles
        for phrase in e.phrases.en + e.phrases.zh
        for word in re.findall(r"[a-z]{4,}", phrase.lower())
    ]
    # What only the guide uses stays out of the index; the glance lines and the docs links that
    # `diagnoser show` prints are among the entry's texts, read only for the entry shown.
    dumped = [e.model_dump(mode="json", exclude={"rank"}) for e in entries]
    checks = _runtime_checks()
    for entry in dumped:
        entry["checks"] = checks.get(entry["id"], [])
    signatures = [sig for entry in dumped for sig in entry["signatures"]]
    anchors = rarest_windows([required_literal(sig["pattern"]) for sig in signatures])
    for sig, anchor in zip(signatures, anchors, strict=True):
        sig["anchor"] = anchor
    return {
        "entries": dumped,
        "vocabulary": sorted(clean_vocabulary(words)),
    }


def _runtime_checks() -> dict[str, list[dict[str, Any]]]:
    """Per entry id, the runtime tools that check it: knowledge/checks.json, which
    runtime/checkdata.py generates from the runtime checks' catalogue."""
    import json

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "checks.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)["entries"]  # type: ignore[no-any-return]


_CASE = ("title", "cause", "fix")  # what a signature may say instead of its entry (schema.py)


def _split(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Compiled data -> (what matching reads at start-up, each entry's texts by id)."""
    entries, texts = [], {}
    for e in data["entries"]:
        symptoms = e["symptoms"]
        texts[e["id"]] = {
            "id": e["id"],
            "title": e["title"],
            "cause": e["cause"],
            "fix": e["fix"],
            "reproduction": e["reproduction"],
            "examples": e["examples"],
            "see_also": e["see_also"],
            "aliases": e.get("aliases") or [],
            "glance": e["glance"],
            "docs": e["docs"],
            "phrases": e["phrases"],
            "explain": [s["explain"] for s in e["signatures"]],
            "cases": [
                {k: s.get(k) for k in _CASE} if any(s.get(k) for k in _CASE) else None
                for s in e["signatures"]
            ],
            "evidence": symptoms["evidence"] if symptoms else [],
            "checks": e.get("checks") or [],
        }
        entries.append(
            {
                "id": e["id"],
                "kind": e["kind"],
                "group": e["group"],
                "signatures": [
                    [
                        s.get(k)
                        for k in (
                            "pattern",
                            "exceptions",
                            "unless",
                            "torch",
                            "anchor",
                            "type",
                            "code",
                            "beside",
                            "unless_code",
                            "newer_name",
                        )
                    ]
                    for s in e["signatures"]
                ],
                "frames": [
                    [f["calls"], f["source"], f.get("raised"), f.get("wraps", False)]
                    for f in e.get("frames") or ()
                ],
                "symptoms": symptoms
                and {
                    "patterns": symptoms["patterns"],
                    "log_signal": symptoms["log_signal"],
                    "narrows": symptoms.get("narrows") or [],
                    "contradicted_by": symptoms.get("contradicted_by") or [],
                    "confirmed_by": symptoms.get("confirmed_by") or [],
                    "ruled_out_by": symptoms.get("ruled_out_by") or [],
                    "ruled_out_in_clause_by": symptoms.get("ruled_out_in_clause_by") or [],
                },
            }
        )
    return {"entries": entries, "vocabulary": data["vocabulary"]}, texts


_SIGNATURE_BITS = 10
_SIGNATURE_MASK = (1 << _SIGNATURE_BITS) - 1


def _pack(entry: int, signature: int) -> int:
    """An entry's position and one of its signatures' in one int, in the same order as the pair."""
    if signature > _SIGNATURE_MASK:
        raise ValueError(f"an entry has more than {_SIGNATURE_MASK + 1} signatures")
    return entry << _SIGNATURE_BITS | signature


def _stored(data: dict[str, Any], spans: list[int], stamp: str) -> dict[str, Any]:
    """What the index file holds: where each entry's matching data is in the records file
    (Index.entry reads it when used), and what finds the entries a text may concern without
    reading the others."""
    from array import array

    from . import anchor_table
    from .anchor import WINDOW, literal_choices

    anchors: dict[str, list[int]] = {}
    unanchored = []
    for e, entry in enumerate(data["entries"]):
        for s, signature in enumerate(entry["signatures"]):
            # Without an anchor, one literal of each alternative ("CUDA error: out of memory|
            # cuda runtime error (2)...") still rules the signature out of most texts; one known
            # by its exception's class alone (`pattern: '^'` with `type`) by its class's name,
            # which the text searched holds after the message (match._signature_matches).
            words = [signature[4]] if signature[4] else literal_choices(signature[0])
            if not words and signature[5]:
                words = literal_choices(signature[5])
            for word in sorted({w[:WINDOW] for w in words}):
                anchors.setdefault(word, []).append(_pack(e, s))
            if not words:
                unanchored.append(_pack(e, s))
    entries = data["entries"]
    return {
        "stamp": stamp,
        # One bytes object each, whatever the number of entries (_to_file): split or read only
        # where used.
        "ids": "\n".join(e["id"] for e in entries).encode(),
        "entry_spans": array("I", spans).tobytes(),
        "anchors": anchor_table.build(anchors),
        "unanchored": unanchored,
        # an error entry's symptoms only rule out sentences naming it: no pattern to look for
        "symptomatic": [i for i, e in enumerate(entries) if e["kind"] == "symptom"],
        "framed": [i for i, e in enumerate(entries) if e["frames"]],
        "vocabulary": data["vocabulary"],
    }


def _to_file(data: dict[str, Any]) -> bytes:
    """The index file: the CRC-32 of the rest (4 bytes), the size of a tail of raw bytes (8
    bytes), the tail, then `data` marshalled, with each bytes value in it (the ids, the spans,
    the anchor table's arrays) moved to the tail and replaced by its place there, a (start, end)
    tuple: loading the file then makes a handful of objects and copies those bytes once, whatever
    the kb's size."""
    tail = bytearray()

    def detach(value: Any) -> Any:
        if isinstance(value, bytes):
            tail.extend(value)
            return (len(tail) - len(value), len(tail))  # the only tuples in the index file
        if isinstance(value, dict):
            return {k: detach(v) for k, v in value.items()}
        return value

    head = marshal.dumps(detach(data))
    rest = len(tail).to_bytes(8, "little") + tail + head
    return zlib.crc32(rest).to_bytes(4, "little") + rest


def _from_file(raw: bytes) -> dict[str, Any]:
    """_to_file's data again, its bytes values as views of `raw` (not copies); ValueError for a
    damaged file."""
    if len(raw) < 12 or zlib.crc32(memoryview(raw)[4:]) != int.from_bytes(raw[:4], "little"):
        raise ValueError("a damaged index file")
    body = memoryview(raw)[4:]
    size = int.from_bytes(body[:8], "little")
    tail = body[8 : 8 + size]

    def attach(value: Any) -> Any:
        if isinstance(value, tuple):
            return tail[value[0] : value[1]]
        if isinstance(value, dict):
            return {k: attach(v) for k, v in value.items()}
        return value

    return attach(marshal.loads(body[8 + size :]))  # type: ignore[no-any-return]


def load_index(kb: Path | str | None = None) -> Index:
    """The index of `kb`, or of the installed kb/ and the team's own folders (plugins.py)."""
    folders: tuple[str, ...]
    if kb is not None:
        folders = (os.fspath(kb),)
    else:
        from .plugins import extra_kb_dirs

        folders = (_default_kb(), *extra_kb_dirs())
    stamp = "\n\n".join(map(_stamp, folders))
    # Named after the folders' paths, then its stamp: each set of folders keeps one index.
    kb_key = zlib.crc32("\0".join(map(os.path.abspath, folders)).encode())
    base = os.path.join(cache_dir(), f"index-{kb_key:08x}-{zlib.crc32(stamp.encode()):08x}")
    try:
        with open(base + ".marshal", "rb") as f:
            mark_used(f.fileno(), base + ".marshal")
            data = _from_file(f.read())  # marshal.load(f) reads the file in many small pieces
        if data["stamp"] == stamp:  # the short key could collide; the stamp cannot
            return Index(data, _Records(base + ".records", folders, data["ids"]))
    except (OSError, ValueError, EOFError, TypeError, KeyError):
        pass
    matching, texts = _split(compile_kb(folders))
    compiled = _records(matching, texts)
    records, entry_spans = _records_file(matching["entries"], compiled)
    stored = _stored(matching, entry_spans, stamp)
    _write_cache(base, stored, records)
    return Index(stored, _Records(base + ".records", folders, stored["ids"], compiled))


def _records_file(
    entries: list[dict[str, Any]], compiled: dict[str, dict[str, dict[str, Any]]]
) -> tuple[bytes, list[int]]:
    """The records file: every entry's texts, then every entry's matching data (in the
    knowledge base's order, so that _Records.read_all reads them in one piece), each pointing
    at its texts; and where each matching record is (start, length and CRC-32, flat)."""
    texts = [marshal.dumps(compiled["texts"][e["id"]]) for e in entries]
    start, matching, spans = sum(map(len, texts)), [], []
    position = 0
    for e, text in zip(entries, texts, strict=True):
        span = [position, len(text), zlib.crc32(text)]
        record = marshal.dumps({**compiled["entry"][e["id"]], "span": span})
        position += len(text)
        matching.append(record)
        spans += [start, len(record), zlib.crc32(record)]
        start += len(record)
    return b"".join(texts + matching), spans


def _write_cache(base: str, data: dict[str, Any], records: bytes) -> None:
    """Best effort: an unwritable cache only costs speed, never a diagnosis. The records are
    written first: an index file is only ever found beside its records."""
    import contextlib

    folder, ours = os.path.split(base)
    same_kb = ours.rsplit("-", 1)[0] + "-"
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)  # private: what the user diagnosed
        with os.scandir(folder) as found:
            stale = [e.path for e in found if e.name.startswith(same_kb)]
        for old in stale:
            if not os.path.basename(old).startswith(ours + "."):
                with contextlib.suppress(OSError):  # in use (Windows) or already gone
                    os.unlink(old)
        write_atomically(base + ".records", records)
        write_atomically(base + ".marshal", _to_file(data))
    except OSError:
        pass


# -- a prebuilt index, for where kb/ is not (the guide's paste box runs the engine in a browser) --

# What a prebuilt index's stamp says in place of kb/'s files: nothing checks it against kb/.
_PREBUILT = "prebuilt"


def write_index_files(base: str, kb: Path | str | None = None) -> list[str]:
    """Compile `kb` (the installed kb/ by default) into `base`.marshal and `base`.records, the
    two files load_index_file reads; returns them. What the text layer derives from the index
    (Index.derived) goes beside them, as `base`.<name>, when the loaded index is first used.
    Raises schema.KBError for an invalid kb/ and OSError."""
    folders = (os.fspath(kb) if kb is not None else _default_kb(),)
    matching, texts = _split(compile_kb(folders))
    records, entry_spans = _records_file(matching["entries"], _records(matching, texts))
    stored = _stored(matching, entry_spans, f"{_PREBUILT} {__version__}")
    os.makedirs(os.path.dirname(os.path.abspath(base)), exist_ok=True)
    write_atomically(base + ".records", records)
    write_atomically(base + ".marshal", _to_file(stored))
    return [base + ".marshal", base + ".records"]


def load_index_file(path: str) -> Index:
    """The index in `path` (a .marshal file written by write_index_files, its .records beside
    it), read as it is: no kb/ folder is looked at and no stamp checked, since the files are all
    there is (the browser's engine). ValueError for a damaged file."""
    with open(path, "rb") as f:
        data = _from_file(f.read())
    base = path.removesuffix(".marshal")
    return Index(data, _Records(base + ".records", (), data["ids"]))
