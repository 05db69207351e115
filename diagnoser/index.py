"""The compiled knowledge base the diagnoser reads at start-up.

kb/*.yaml is validated with pydantic (schema.py) once and written as one JSON file in the user's
cache directory, named after a hash of the YAML files and of the code that compiles them; a
changed kb/ therefore gets a new name, so a stale index can never be read. Start-up then costs
one small json.load: no YAML parsing, no pydantic.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from . import __version__

_HERE = Path(__file__).resolve().parent


def kb_dir() -> Path:
    """kb/ as shipped in the wheel (diagnoser/kb), else the source checkout's top-level kb/."""
    packaged = _HERE / "kb"
    return packaged if packaged.is_dir() else _HERE.parent / "kb"


def reproductions_dir() -> Path:
    packaged = _HERE / "reproductions"
    return packaged if packaged.is_dir() else _HERE.parent / "reproductions"


@dataclass(frozen=True)
class Signature:
    pattern: str
    exceptions: tuple[str, ...] = ()
    type: str | None = None
    unless: str | None = None
    torch: str | None = None
    explain: dict[str, str] | None = None
    # Lower-cased text every match contains (anchor.py); None when the pattern has none.
    anchor: str | None = None

    @cached_property
    def regex(self) -> re.Pattern[str]:
        return re.compile(self.pattern, re.IGNORECASE)

    @cached_property
    def type_regex(self) -> re.Pattern[str] | None:
        return re.compile(self.type) if self.type else None

    @cached_property
    def unless_regex(self) -> re.Pattern[str] | None:
        return re.compile(self.unless, re.IGNORECASE) if self.unless else None


@dataclass(frozen=True)
class FrameSignature:
    calls: tuple[str, ...]
    source: str | None = None

    @cached_property
    def call_patterns(self) -> tuple[tuple[str, re.Pattern[str]], ...]:
        """(path suffix, function regex) for each call; the schema checked the `file:function`."""
        pairs = (call.split(":", 1) for call in self.calls)
        return tuple(("/" + file, re.compile(function)) for file, function in pairs)

    @cached_property
    def source_regex(self) -> re.Pattern[str] | None:
        return re.compile(self.source) if self.source else None


@dataclass(frozen=True)
class Entry:
    id: str
    kind: str
    group: str
    title: dict[str, str]
    cause: dict[str, str]
    fix: dict[str, str]
    reproduction: dict[str, Any]
    signatures: tuple[Signature, ...] = ()
    frames: tuple[FrameSignature, ...] = ()
    symptoms: dict[str, Any] | None = None
    examples: tuple[str, ...] = ()
    see_also: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Entry:
        return cls(
            **{
                **d,
                "signatures": tuple(
                    Signature(**{**s, "exceptions": tuple(s["exceptions"])})
                    for s in d["signatures"]
                ),
                "frames": tuple(
                    FrameSignature(tuple(f["calls"]), f["source"]) for f in d.get("frames", ())
                ),
                "examples": tuple(d["examples"]),
                "see_also": tuple(d["see_also"]),
            }
        )


@dataclass(frozen=True, eq=False)  # hashed by identity: caches key on the loaded index
class Index:
    entries: tuple[Entry, ...]
    by_id: dict[str, Entry] = field(repr=False)
    # The English words of the symptom phrases, which typos in a sentence are corrected towards.
    vocabulary: frozenset[str] = field(default=frozenset(), repr=False)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Index:
        entries = [Entry.from_dict(d) for d in data["entries"]]
        return cls(tuple(entries), {e.id: e for e in entries}, frozenset(data["vocabulary"]))


def _fingerprint(kb: Path) -> str:
    h = hashlib.sha256(f"{__version__}\0".encode())
    for code in (
        "schema.py",
        "index.py",
        "groups.py",
        "symptoms.py",
    ):  # the code that decides the index's shape
        h.update((_HERE / code).read_bytes())
    for path in sorted(kb.glob("*.yaml")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def cache_dir() -> Path:
    explicit = os.environ.get("DIAGNOSER_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "torch-diagnoser"


def compile_kb(kb: Path) -> dict[str, Any]:
    """Validate kb/ (raises schema.KBError) and return the index as plain JSON data."""
    from .anchor import required_literal
    from .schema import load_kb  # pydantic, YAML and rapidfuzz only when the index is (re)built
    from .symptoms import clean_vocabulary

    entries = load_kb(kb)
    words = [
        word
        for e in entries
        if e.symptoms
        for phrase in e.symptoms.phrases.en + e.symptoms.phrases.zh
        for word in re.findall(r"[a-z]{4,}", phrase.lower())
    ]
    # What only the guide shows stays out of the index the diagnoser loads on every start.
    dumped = [e.model_dump(mode="json", exclude={"glance", "rank", "docs"}) for e in entries]
    for entry in dumped:
        for sig in entry["signatures"]:
            sig["anchor"] = required_literal(sig["pattern"])
    return {
        "entries": dumped,
        "vocabulary": sorted(clean_vocabulary(words)),
    }


def load_index(kb: Path | None = None) -> Index:
    kb = kb or kb_dir()
    key = _fingerprint(kb)
    cached = cache_dir() / f"index-{key}.json"
    try:
        data = json.loads(cached.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = compile_kb(kb)
        _write_cache(cached, data)
    return Index.from_data(data)


def _write_cache(path: Path, data: dict[str, Any]) -> None:
    """Best effort: an unwritable cache only costs speed, never a diagnosis."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob("index-*.json"):
            old.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
        os.replace(tmp, path)
    except OSError:
        pass
