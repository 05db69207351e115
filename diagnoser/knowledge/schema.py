"""The shape of a knowledge-base entry, validated with pydantic.

Only the index builder imports this module: pydantic is too heavy for the diagnoser's start-up,
which reads the compiled index instead (see index.py).
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from .anchor import upper_case_literals
from .groups import GROUPS
from .vocabulary import SIGNALS

NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
EntryId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
# What a reproduction needs besides a CPU: its script skips (exit 77) where that is missing.
Need = Literal["cpu", "cuda", "mps", "windows", "torchvision", "numpy"]


class KBError(Exception):
    """A knowledge-base file is missing, unreadable or invalid; the message names file and field."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Text(Strict):
    """One text in both languages; neither may be empty."""

    en: NonEmpty
    zh: NonEmpty


def _compile(pattern: str) -> str:
    try:
        re.compile(pattern)
    except re.error as e:
        raise ValueError(f"{e.msg} at position {e.pos}") from None
    return pattern


def _lower_case(pattern: str) -> str:
    """A pattern searched in a sentence, which is lower-cased first (symptoms.normalise): an
    upper-case letter in it would never match ("GPU" where users write "GPU")."""
    upper = upper_case_literals(pattern)
    if upper:
        raise ValueError(
            f"{pattern!r} holds {''.join(upper)!r}: sentences are matched lower-cased, "
            "so write it in lower case"
        )
    return pattern


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


OneLine = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, pattern=r"^.+$")]


class Line(Strict):
    """One line of text in both languages (`.` never matches a line break)."""

    en: OneLine
    zh: OneLine


class Signature(Strict):
    """One wording of the message. `pattern` is searched (case-insensitive) in the message."""

    pattern: NonEmpty
    exceptions: list[NonEmpty] = Field(default_factory=list)
    # The printed exception type must match this (searched, case-sensitive): for exceptions whose
    # qualified type alone names the family, whatever their message (torch._dynamo.exc.*).
    type: NonEmpty | None = None
    unless: NonEmpty | None = None
    # The line of code that failed must match this too (searched in the innermost frame's source
    # line and in the user's own deepest one): for a message that alone names no family,
    # "'NoneType' object has no attribute 'norm'" names gradient-none on `p.grad.norm()`.
    code: NonEmpty | None = None
    # The failing line of code must not match this (where the paste shows one): a plain Python
    # message that is another library's where that library's call failed ("not enough values to
    # unpack" on `_, contours, _ = cv2.findContours(...)`: OpenCV 4 returns two values).
    unless_code: NonEmpty | None = None
    # The rest of the paste must show this too (searched, case-insensitive, anywhere in it): for
    # a message that names the family only beside its context, a CUDA kernel's "index out of
    # bounds" assertion is an embedding's only where the paste shows an embedding lookup.
    beside: NonEmpty | None = None
    # The names the pattern captures, `name` in `module` ("Tensor" for a tensor's attribute;
    # "torch" when it captures none), must be a public PyTorch name that current releases have
    # and torch 1.0 did not (newer_names.py): a torch older than the code, not a missing name
    newer_name: bool = False
    torch: NonEmpty | None = None
    explain: Text | None = None
    # A wording that names a case of its own within the family (host RAM in cuda-oom): its title,
    # cause and fix are shown instead of the entry's, which would lead with what does not apply.
    title: Line | None = None
    cause: Text | None = None
    fix: Text | None = None

    _check_pattern = field_validator("pattern", "unless", "type", "code", "unless_code", "beside")(
        lambda v: v if v is None else _compile(v)
    )

    @model_validator(mode="after")
    def _newer_name_captures_a_name(self) -> Signature:
        if self.newer_name and "name" not in re.compile(self.pattern).groupindex:
            raise ValueError("newer_name: the pattern must capture the name as (?P<name>...)")
        return self

    @model_validator(mode="after")
    def _explain_uses_named_groups(self) -> Signature:
        if self.explain is None:
            return self
        groups = set(re.compile(self.pattern).groupindex)
        for lang in ("en", "zh"):
            unknown = _placeholders(getattr(self.explain, lang)) - groups
            if unknown:
                raise ValueError(
                    f"explain.{lang} uses {sorted(unknown)}, which the pattern does not capture "
                    f"(named groups: {sorted(groups) or 'none'})"
                )
        return self


_CALL = re.compile(r"^(?P<file>[\w.<>-]+(?:/[\w.<>-]+)*\.py):(?P<function>.+)$")


class FrameSignature(Strict):
    """A traceback cut off before its message still shows where it was. `calls` are frames that
    must all appear in it, outermost first: `path/suffix.py:function` with the file a path suffix
    (`/` also matches `\\`) and the function a regular expression. With `source`, the last call
    must be the innermost frame and its source line must match it (a `raise TypeError(...)`).
    With `raised`, an exception of that class raised with no message is recognised by the same
    frames: its frames say what it does not (torch 1.x's bare NotImplementedError from
    `_forward_unimplemented`). With `wraps`, the frames re-raise an error from elsewhere (a
    DataLoader worker's): its class and message are that error's own and say nothing against the
    frames, which then answer whatever the message, when no entry knows the message."""

    calls: list[NonEmpty] = Field(min_length=1)
    source: NonEmpty | None = None
    raised: NonEmpty | None = None
    wraps: bool = False

    @field_validator("calls")
    @classmethod
    def _calls(cls, v: list[str]) -> list[str]:
        for call in v:
            m = _CALL.match(call)
            if m is None:
                raise ValueError(f"{call!r}: expected `path/file.py:function-regex`")
            _compile(m.group("function"))
        return v

    _check_source = field_validator("source")(lambda v: v if v is None else _compile(v))


class Phrases(Strict):
    """How users name or describe the entry in a sentence, in each language ("显存不足",
    "loss oscillates"). A sentence containing one of them finds the entry, so each must be
    specific to it; for a symptom entry they are also sentences its `patterns` must match."""

    en: list[NonEmpty] = Field(min_length=1)
    zh: list[NonEmpty] = Field(min_length=1)


class Symptoms(Strict):
    """How a training behaviour with no exception is recognised: in a sentence, by `patterns`
    (searched in the lower-cased, typo-corrected text), and in a training log by the detector named
    `log_signal`, whose findings fill the `evidence` templates (the first template whose values
    are all known is used). `narrows`: the symptom entries this one is a narrower case of (an
    oscillating loss is a loss that does not converge; training slow with the GPU busy is slow
    training): a sentence that describes both is about this one, which ranks first.
    `contradicted_by`: words that say the entry's precondition is false (host RAM named where the
    entry is about GPU memory); a text one of them matches is not answered with this entry from
    its sentences (a log's numbers still are), unless one of `confirmed_by` matches it too (the
    GPU named as well). `ruled_out_by`: words that say the behaviour is not this entry's
    whatever else the text names (memory that rises and then stays flat is the caching
    allocator, not a leak), so no `confirmed_by` brings it back. An error entry may have these
    three alone, no patterns: then they rule out a sentence that only names it ("内存不足" said
    of host RAM, with "显存没有变化", is no CUDA out-of-memory error). `ruled_out_in_clause_by`:
    words that rule the entry out in their own clause only ("I can overfit a single batch" names
    the usual test, not a model that overfits): the text read without those clauses is answered
    with the entry when it still says it ("..., but the val loss rises while the train loss
    falls")."""

    patterns: list[NonEmpty] = Field(default_factory=list)
    log_signal: NonEmpty | None = None
    evidence: list[Text] = Field(default_factory=list)
    narrows: list[EntryId] = Field(default_factory=list)
    contradicted_by: list[NonEmpty] = Field(default_factory=list)
    confirmed_by: list[NonEmpty] = Field(default_factory=list)
    ruled_out_by: list[NonEmpty] = Field(default_factory=list)
    ruled_out_in_clause_by: list[NonEmpty] = Field(default_factory=list)

    _check_patterns = field_validator(
        "patterns", "contradicted_by", "confirmed_by", "ruled_out_by", "ruled_out_in_clause_by"
    )(lambda v: [_lower_case(_compile(p)) for p in v])

    @model_validator(mode="after")
    def _evidence_uses_signal_values(self) -> Symptoms:
        if self.log_signal is None:
            if self.evidence:
                raise ValueError("evidence needs a log_signal to take its values from")
            return self
        if self.log_signal not in SIGNALS:
            raise ValueError(
                f"log_signal: unknown {self.log_signal!r}; use one of {', '.join(SIGNALS)}"
            )
        if not self.evidence:
            raise ValueError("a log_signal needs at least one evidence template")
        known = SIGNALS[self.log_signal]
        for i, text in enumerate(self.evidence):
            for lang in ("en", "zh"):
                unknown = _placeholders(getattr(text, lang)) - known
                if unknown:
                    raise ValueError(
                        f"evidence[{i}].{lang} uses {sorted(unknown)}; "
                        f"{self.log_signal!r} provides {sorted(known)}"
                    )
        return self


class Glance(Strict):
    """The entry in one line each: what the quick-reference tables and "At a glance" show."""

    cause: Line
    fix: Line


class DocLink(Strict):
    """A page of PyTorch's own documentation about the topic."""

    title: NonEmpty
    url: Annotated[str, StringConstraints(pattern=r"^https://\S+$")]


class Reproduction(Strict):
    script: NonEmpty
    needs: list[Need] = ["cpu"]  # pydantic copies mutable defaults


class Entry(Strict):
    id: EntryId
    kind: Literal["error", "symptom"]
    group: NonEmpty
    title: Text
    cause: Text
    fix: Text
    glance: Glance
    # How often users hit it, 1 = most often: the ranked entries lead the home page's table.
    rank: int | None = Field(default=None, ge=1)
    docs: list[DocLink] = Field(default_factory=list)
    phrases: Phrases
    signatures: list[Signature] = Field(default_factory=list)
    # Scored below any message hit: only for a traceback whose message was not pasted.
    frames: list[FrameSignature] = Field(default_factory=list)
    symptoms: Symptoms | None = None
    examples: list[NonEmpty] = Field(default_factory=list)
    reproduction: Reproduction
    see_also: list[EntryId] = Field(default_factory=list)
    # Other ids this family is known by, each from its own kb/<alias>.yaml (see Alias): load_kb
    # fills this in; `diagnoser show <alias>` and `--json` ("aliases") say so.
    aliases: list[EntryId] = Field(default_factory=list)

    @field_validator("group")
    @classmethod
    def _known_group(cls, v: str) -> str:
        if v not in GROUPS:
            raise ValueError(f"unknown group {v!r}; use one of {', '.join(GROUPS)}")
        return v

    @model_validator(mode="after")
    def _recognisable(self) -> Entry:
        if self.kind == "error" and not (self.signatures and self.examples):
            raise ValueError("an error entry needs signatures and examples")
        if self.kind == "symptom" and not (self.symptoms and self.symptoms.patterns):
            raise ValueError("a symptom entry needs symptoms with patterns")
        said = self.symptoms
        if self.kind == "error" and said and (said.patterns or said.log_signal or said.narrows):
            raise ValueError(
                "an error entry's symptoms only rule sentences out: contradicted_by, confirmed_by,"
                " ruled_out_by"
            )
        return self


def _field_path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "(top level)"


class Alias(Strict):
    """kb/<id>.yaml for an id that names another entry's family: families.yaml lists a few
    messages under two ids (ctc-log-probs-layout is ctc-input-layout's message word for word).
    One file per id, so every family has its file; the answer is the entry it is the same as."""

    id: EntryId
    same_as: EntryId


# libyaml's loader when PyYAML was built with it (14x faster on kb/, the same data), else the
# pure-Python one; both are the safe loaders: no Python object is ever built from a tag.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_entry(path: Path) -> Entry:
    """Read and validate one kb/<id>.yaml; any problem raises KBError naming file and field."""
    entry = _load(path)
    if not isinstance(entry, Entry):
        raise KBError(f"{path}: same_as: an alias file, not an entry ({entry.same_as!r} is)")
    return entry


def _load(path: Path) -> Entry | Alias:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except (OSError, UnicodeDecodeError) as e:
        raise KBError(f"{path}: cannot read: {e}") from None
    except yaml.YAMLError as e:
        where = getattr(e, "problem_mark", None)
        at = f" (line {where.line + 1}, column {where.column + 1})" if where else ""
        raise KBError(f"{path}: not valid YAML{at}: {getattr(e, 'problem', e)}") from None
    if not isinstance(data, dict):
        raise KBError(f"{path}: expected a mapping of fields, got {type(data).__name__}")
    if "aliases" in data:
        raise KBError(f"{path}: aliases: write kb/<alias>.yaml with `same_as: {path.stem}` instead")
    model: type[Entry | Alias] = Alias if "same_as" in data else Entry
    try:
        found = model.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        more = f" (and {e.error_count() - 1} more)" if e.error_count() > 1 else ""
        msg = first["msg"].removeprefix("Value error, ")
        raise KBError(f"{path}: {_field_path(first['loc'])}: {msg}{more}") from None
    if found.id != path.stem:
        raise KBError(f"{path}: id: {found.id!r} must match the file name {path.stem!r}")
    return found


def load_kb(kb_dirs: Path | Sequence[Path]) -> list[Entry]:
    """Every entry in the folder (or folders: the installed kb/, then a team's own), validated
    together: ids unique across them, every see_also resolves.

    Kept for the process while no file changes (their names, sizes and modification times are
    the key): a site build asks for the knowledge base from several hooks."""
    folders = [kb_dirs] if isinstance(kb_dirs, Path) else list(kb_dirs)
    files = []
    for folder in folders:
        found = sorted(folder.glob("*.yaml"))
        if not found:
            raise KBError(f"{folder}: no knowledge-base files (*.yaml) found")
        files += found
    key = tuple((str(f), st.st_size, st.st_mtime_ns) for f in files for st in [f.stat()])
    if key not in _LOADED:
        _LOADED.clear()  # one knowledge base at a time: the tests build from modified copies
        _LOADED[key] = _validated(files)
    return list(_LOADED[key])


_LOADED: dict[tuple[tuple[str, int, int], ...], list[Entry]] = {}


def _validated(files: list[Path]) -> list[Entry]:
    loaded = [_load(f) for f in files]
    seen: dict[str, Path] = {}
    for path, item in zip(files, loaded, strict=True):
        if item.id in seen:
            raise KBError(f"{path}: id: {item.id!r} is already {seen[item.id]}'s")
        seen[item.id] = path
    pairs = [(p, e) for p, e in zip(files, loaded, strict=True) if isinstance(e, Entry)]
    ids = {e.id for _p, e in pairs}
    aliases: dict[str, list[str]] = {}
    for path, item in zip(files, loaded, strict=True):
        if isinstance(item, Alias):
            if item.same_as not in ids:
                raise KBError(f"{path}: same_as: no entry with id {item.same_as!r}")
            aliases.setdefault(item.same_as, []).append(item.id)
    pairs = [
        (p, e.model_copy(update={"aliases": aliases[e.id]}) if e.id in aliases else e)
        for p, e in pairs
    ]
    files = [p for p, _e in pairs]
    entries = [e for _p, e in pairs]
    ranked: dict[int, Path] = {}
    for path, entry in zip(files, entries, strict=True):
        if entry.rank is not None:
            if entry.rank in ranked:
                raise KBError(f"{path}: rank: {entry.rank} is already {ranked[entry.rank].name}'s")
            ranked[entry.rank] = path
    for path, entry in zip(files, entries, strict=True):
        for i, ref in enumerate(entry.see_also):
            if ref not in ids:
                raise KBError(f"{path}: see_also[{i}]: no entry with id {ref!r}")
            if ref == entry.id:
                raise KBError(f"{path}: see_also[{i}]: an entry cannot refer to itself")
        for i, ref in enumerate(entry.symptoms.narrows if entry.symptoms else ()):
            if ref not in ids or ref == entry.id:
                raise KBError(f"{path}: symptoms.narrows[{i}]: no other entry with id {ref!r}")
    return entries
