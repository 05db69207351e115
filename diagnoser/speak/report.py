"""The shape of a diagnosis as data: what `diagnoser --json` prints and `diagnoser.diagnose()`
returns. Keys are only ever added, never renamed or removed: tools depend on them."""

from __future__ import annotations

from typing import TypedDict


class Where(TypedDict):
    """The deepest frame in the user's own code."""

    file: str
    line: int
    function: str
    source: str | None  # the source line, when the traceback printed it


class TensorReport(TypedDict):
    """A tensor of the failing frame, captured in-process (`diagnoser run`, the exception hook)."""

    name: str
    shape: list[int]
    dtype: str
    device: str
    requires_grad: bool
    grad_fn: str | None
    kind: str
    frame: str


class ModuleReport(TypedDict):
    name: str
    type: str
    summary: str
    device: str | None
    dtype: str | None


class CheckReport(TypedDict):
    """A runtime tool that checks the entry on the user's own model and data."""

    tool: str  # "preflight", "watch", "overfit_one_batch" or "lr_find"
    call: str  # what to run: diagnoser.preflight(model, loader, loss_fn, optimizer)
    checks: list[str]  # the ids of its checks that report this entry (none for a helper)


class MatchReport(TypedDict):
    id: str  # the entry: `diagnoser show ID`, and the page entries/ID/ of the guide
    score: int  # 0-100; 100 is a signature hit with the exception type it names
    kind: str  # "error" or "symptom"
    group: str
    title: str  # in the report's language
    # "signature", "fuzzy" (a wording no signature knows), "frames" (a message cut off or never
    # given), "log", "phrase", "guess" (a symptom the text only asks about) or "finding"
    method: str
    message: str | None  # the error the entry explains ("Type: message"); None for a symptom
    values: dict[str, str]  # what the signature captured (shapes, dtypes...) or the log showed
    explanation: str | None  # those values in a sentence, in the report's language
    notes: list[str]  # what the captured tensors say about it (in-process only; else empty)
    where: Where | None
    see_also: list[str]  # ids of related entries
    aliases: list[str]  # other ids of this family (families.yaml lists a few messages twice)
    checks: list[CheckReport]  # the runtime tools that check it next; empty when none does


class ErrorReport(TypedDict):
    type: str | None  # the exception's class as printed; None when none was
    message: str
    relation: str | None  # "cause", "context" (chained tracebacks) or "worker" (DataLoader)
    where: Where | None
    tensors: list[TensorReport]  # captured in-process; empty on the text path
    modules: list[ModuleReport]


class SiteReport(TypedDict):
    """One place in PyTorch's sources that raises the message (the source tier)."""

    type: str  # the exception it raises
    file: str  # in PyTorch's tree: aten/src/ATen/native/Embedding.cpp, torch/nn/functional.py
    line: int
    function: str
    op: str | None  # the ATen op, where known
    condition: str | None  # the check that failed
    versions: list[str]  # the releases whose sources hold it
    current: bool | None  # its wording is in the newest wheel checked; None: not checkable
    docs: str | None  # the op's page in PyTorch's docs
    graph_break: str | None  # dynamo's graph-break id and its page
    named: bool  # the message itself names this file and line (not looked up in the index)


class SourceReport(TypedDict):
    """Where PyTorch raises an error no entry explains. It locates; it never names an entry."""

    count: int  # how many sites print this message (sites holds the first 3)
    sites: list[SiteReport]
    index: dict[str, str]  # the releases the index was built from


class Report(TypedDict):
    matches: list[MatchReport]  # best first; empty when no entry applies
    errors: list[ErrorReport]  # every error found in the text, in order
    lang: str  # "en" or "zh"
    # only when matches is empty: where in PyTorch's own sources the error is raised, or None
    source: SourceReport | None
