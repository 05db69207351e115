"""What the process knew when it failed: the tensors and modules of the failing frames, the
environment and the user's code. Plain data, filled by diagnoser/live and read by the renderers;
the text path leaves it empty."""

from __future__ import annotations

# The text path imports this module (render.py): records, not dataclasses, keeps its start fast.
from ..knowledge.records import dataclass


@dataclass(frozen=True)
class TensorFact:
    name: str  # as the code spells it: `x`, `self.fc.weight`
    shape: tuple[int, ...]
    dtype: str  # "float32", numpy's own name for an array
    device: str  # "cpu", "cuda:0", "meta"; "cpu" for a numpy array
    requires_grad: bool = False
    grad_fn: str | None = None
    kind: str = "tensor"  # "tensor" or "ndarray"
    frame: str = ""  # the function it was found in
    internal: bool = False  # a local of torch's own code, under a name the user never wrote

    @property
    def short(self) -> str:
        """TorchSnooper's way: `tensor<(32, 64), float32, cpu>`, never the values."""
        shape = "(" + ", ".join(map(str, self.shape)) + ("," if len(self.shape) == 1 else "") + ")"
        extra = ", requires_grad" if self.requires_grad else ""
        return f"{self.kind}<{shape}, {self.dtype}, {self.device}{extra}>"


@dataclass(frozen=True)
class ModuleFact:
    name: str
    type: str  # the class name: "Linear"
    summary: str  # "Linear(in=128, out=10)"
    device: str | None = None  # of its first parameter, when it has one
    dtype: str | None = None
    frame: str = ""
    # what its input must have: in_size at dimension in_dim, counted from the end
    in_size: int | None = None
    in_dim: int | None = None


@dataclass(frozen=True)
class Facts:
    """The tensors and modules in sight of one error, the failing line's own first."""

    tensors: tuple[TensorFact, ...] = ()
    modules: tuple[ModuleFact, ...] = ()
    # names that appear in the failing line (of the user's frame or torch's)
    in_line: frozenset[str] = frozenset()
    # (module, tensor): the failing line called that module on that tensor
    calls: tuple[tuple[str, str], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.tensors or self.modules)


@dataclass(frozen=True)
class Snippet:
    """The user's code around the failing line."""

    filename: str
    first: int  # line number of lines[0]
    lines: tuple[str, ...]
    failing: int


@dataclass(frozen=True)
class Context:
    """Everything beyond the text that a renderer may show. `facts` lines up with
    Trace.errors (one Facts per error) when the errors came from a live exception."""

    facts: tuple[Facts, ...] = ()
    environment: tuple[tuple[str, str], ...] = ()
    snippet: Snippet | None = None
    traceback: str | None = None  # the exact text Python printed, in-process

    def facts_for(self, i: int) -> Facts:
        return self.facts[i] if i < len(self.facts) else Facts()
