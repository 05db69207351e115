"""The tensors, arrays and modules in sight of a live exception, read without running user code.

Two frames are looked at: the innermost frame of the user's own code and, when torch raised from
Python (an `nn.Module.forward`, `torch.nn.functional`), the innermost torch frame. The names in the
failing line come first (`self.fc`, `x`), then the frame's other locals.

Safety and cost: a value is recognised by `type(value)` only (no `isinstance`, which may call a
user's `__class__` property); attributes are read from instance dictionaries and `nn.Module`'s own
registries, never through `getattr`, so no property or `__getattr__` of the user's runs; tensor
data is never read (shape, dtype, device, requires_grad and grad_fn are metadata); no `__repr__` is
called. torch and numpy are never imported here: a value can only be a tensor if torch is already
in `sys.modules`. At most _MAX_LOCALS locals per frame are looked at.
"""

from __future__ import annotations

import ast
import linecache
import os
import re
import runpy
import sys
from collections.abc import Iterator
from itertools import islice
from types import FrameType, TracebackType
from typing import Any

from ..knowledge.records import replace  # TensorFact is a record (facts.py)
from ..text.facts import Facts, ModuleFact, TensorFact
from ..text.parse import Frame

_MAX_LOCALS = 2000
_MAX_TENSORS = 16
_MAX_MODULES = 8
_MAX_LINE = 400  # a longer "line" is generated code; not worth parsing
# Frames of these files are ours or Python's own machinery, never "the user's code".
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_OWN = ("<frozen runpy>", os.path.abspath(runpy.__file__))
_TORCH = ("/torch/", "\\torch\\")
# IPython's output and input history in a notebook's namespace (`_`, `_3`, `_i3`, `Out`): earlier
# cells' results, not the failing cell's variables.
_IPYTHON_CACHE = re.compile(r"_+\d*|_i+\d*|_[oid]h|In|Out|exit|quit|get_ipython")


def frames_of(tb: TracebackType | None) -> list[tuple[FrameType, int, int]]:
    """(frame, line, instruction offset) of each traceback entry, outermost first."""
    out = []
    while tb is not None:
        out.append((tb.tb_frame, tb.tb_lineno, tb.tb_lasti))
        tb = tb.tb_next
    return out


def _is_user(filename: str) -> bool:
    if filename.startswith(_PACKAGE) or filename in _OWN:
        return False
    return Frame(filename, 0, "").is_user_code


def failing_frames(exc: BaseException) -> list[tuple[FrameType, int, int]]:
    """The user's innermost frame, then the torch frame below it where the failing layer ran: the
    innermost `forward` of a torch module (its `self` is the layer, its argument the operand), or
    else the innermost torch frame in Python (a `torch.nn.functional` call)."""
    frames = frames_of(exc.__traceback__)
    user = [i for i, (f, _, _) in enumerate(frames) if _is_user(f.f_code.co_filename)]
    if not user:
        return []
    chosen = [frames[user[-1]]]
    below = frames[user[-1] + 1 :]
    torch_frames = [fl for fl in below if any(p in fl[0].f_code.co_filename for p in _TORCH)]
    forwards = [fl for fl in torch_frames if fl[0].f_code.co_name == "forward"]
    if forwards or torch_frames:
        chosen.append((forwards or torch_frames)[-1])
    return chosen


def capture(exc: BaseException) -> Facts:
    """The facts of one exception; empty when torch and numpy are not loaded or nothing is found."""
    torch = sys.modules.get("torch")
    numpy = sys.modules.get("numpy")
    if torch is None and numpy is None:
        return Facts()
    kinds = _Kinds(torch, numpy)
    tensors: list[TensorFact] = []
    modules: list[ModuleFact] = []
    recorded: dict[int, str] = {}  # id of a value -> the name it is shown under
    in_line: set[str] = set()
    call_values: list[tuple[Any, Any]] = []
    named_modules: list[tuple[str, Any]] = []
    frames = failing_frames(exc)
    user_frame = frames[0][0] if frames else None
    for frame, lineno, lasti in frames:
        where = frame.f_code.co_name
        tree = _expression_tree(frame, lasti) or _line_tree(frame, lineno)
        named = _line_names(tree)
        in_line.update(named)
        call_values += _calls(tree, frame)
        # In torch's frame, `self.weight` reads better as `self.fc.weight` (or `model.2.weight`
        # for a layer inside the user's Sequential): the user's own names.
        own = frame.f_locals.get("self") if frame.f_code.co_varnames[:1] == ("self",) else None
        alias = _user_name(own, recorded, named_modules) if own is not None else None
        owner = alias or (type(own).__name__ if own is not None else None)
        for name, value in _candidates(frame, named):
            kind = kinds.kind(value)
            full = (
                len(modules) >= _MAX_MODULES if kind == "module" else len(tensors) >= _MAX_TENSORS
            )
            if kind is None or full or id(value) in recorded:
                continue
            internal = frame is not user_frame
            if internal and alias and (name == "self" or name.startswith("self.")):
                name, internal = alias + name[4:], False
            elif internal:  # torch's local: say whose, `model.2.forward(input)`
                name = f"{owner}.{where}({name})" if owner else f"{where}({name})"
            fact = kinds.describe(kind, name, value, where)
            if isinstance(fact, TensorFact):
                tensors.append(replace(fact, internal=True) if internal else fact)
            elif isinstance(fact, ModuleFact):
                modules.append(fact)
                named_modules.append((name, value))
            else:
                continue
            recorded[id(value)] = name
    calls = tuple(
        (recorded[id(m)], recorded[id(t)])
        for m, t in call_values
        if id(m) in recorded and id(t) in recorded
    )
    return Facts(tuple(tensors), tuple(modules), frozenset(in_line), calls)


def _user_name(
    module: Any, recorded: dict[int, str], named_modules: list[tuple[str, Any]]
) -> str | None:
    """The name the user knows a module by: recorded as is, or a path inside a recorded module
    (`model.2`, `self.encoder.fc`), searched through at most 256 sub-modules."""
    if id(module) in recorded:
        return recorded[id(module)]
    queue = list(named_modules)
    seen = 0
    while queue and seen < 256:
        path, m = queue.pop(0)
        seen += 1
        children = _attribute(m, "_modules")
        if type(children) is not dict:
            continue
        for key, child in children.items():
            if child is module:
                return f"{path}.{key}"
            if child is not None:
                queue.append((f"{path}.{key}", child))
    return None


def _calls(tree: ast.AST | None, frame: FrameType) -> list[tuple[Any, Any]]:
    """(callee, first argument) of each call in the failing line; inside a `forward`, the module
    itself with its first argument, since that is the call that is failing."""
    out = []
    code = frame.f_code
    if code.co_name == "forward" and code.co_argcount >= 2:
        found, module = _resolve(code.co_varnames[0], frame.f_locals, {})
        found_arg, arg = _resolve(code.co_varnames[1], frame.f_locals, {})
        if found and found_arg:
            out.append((module, arg))
    if tree is None:
        return out
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            callee, arg = _dotted(node.func), _dotted(node.args[0])
            if callee and arg:
                found, m = _resolve(callee, frame.f_locals, frame.f_globals)
                found_arg, t = _resolve(arg, frame.f_locals, frame.f_globals)
                if found and found_arg:
                    out.append((m, t))
    return out


def _candidates(frame: FrameType, named: list[str]) -> Iterator[tuple[str, Any]]:
    """The failing line's names and attribute chains, then the other locals (bounded)."""
    f_locals = frame.f_locals
    for name in named:
        found, value = _resolve(name, f_locals, frame.f_globals)
        if found:
            yield name, value
    for i, (name, value) in enumerate(f_locals.items()):
        if i >= _MAX_LOCALS:
            break
        if name not in named and not _IPYTHON_CACHE.fullmatch(name):
            yield name, value


def _expression_tree(frame: FrameType, lasti: int) -> ast.AST | None:
    """The failing expression itself, across lines if it spans several (Python 3.11+ records
    each instruction's source span; its columns count UTF-8 bytes)."""
    code = frame.f_code
    positions = getattr(code, "co_positions", None)
    if positions is None or lasti < 0:
        return None
    span = next(islice(positions(), lasti // 2, None), None)  # one entry per 2-byte code unit
    if span is None:
        return None
    start, end, col, end_col = span
    if not start or not end or col is None or end_col is None or end - start > 20:
        return None
    lines = [
        linecache.getline(code.co_filename, n, frame.f_globals).encode()
        for n in range(start, end + 1)
    ]
    if not all(lines):
        return None
    if start == end:
        source = lines[0][col:end_col]
    else:
        source = lines[0][col:] + b"".join(lines[1:-1]) + lines[-1][:end_col]
    if len(source) > 4 * _MAX_LINE:
        return None
    try:
        return ast.parse("(" + source.decode("utf-8", "replace") + "\n)", mode="eval")
    except SyntaxError:
        return None


def _line_tree(frame: FrameType, lineno: int) -> ast.AST | None:
    """The failing line parsed, also when it is the head of a block or of a longer statement."""
    line = linecache.getline(frame.f_code.co_filename, lineno, frame.f_globals).strip()
    if not line or len(line) > _MAX_LINE:
        return None
    for text in (line, line.rstrip(":") + ": pass", "(" + line.rstrip("\\(,[{") + ")"):
        try:
            return ast.parse(text)
        except SyntaxError:
            continue
    return None


def _line_names(tree: ast.AST | None) -> list[str]:
    """`a`, `self.fc`, `batch.x` as they appear in the failing statement, in order."""
    if tree is None:
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        dotted = _dotted(node)
        if dotted and dotted not in names:
            names.append(dotted)
    return names


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


_MISSING = object()


def _resolve(dotted: str, f_locals: Any, f_globals: dict[str, Any]) -> tuple[bool, Any]:
    head, *rest = dotted.split(".")
    value = f_locals.get(head, _MISSING)
    if value is _MISSING:
        value = f_globals.get(head, _MISSING)
    for attr in rest:
        if value is _MISSING:
            break
        value = _attribute(value, attr)
    return value is not _MISSING, value


def _attribute(obj: Any, attr: str) -> Any:
    """An attribute without running code: the instance dictionary, and for a module its
    parameters, buffers and sub-modules (what nn.Module.__getattr__ itself looks in)."""
    try:
        d = object.__getattribute__(obj, "__dict__")
    except (AttributeError, TypeError):
        return _MISSING
    if not isinstance(d, dict):
        return _MISSING
    if attr in d:
        return d[attr]
    for registry in ("_parameters", "_buffers", "_modules"):
        reg = d.get(registry)
        if type(reg) is dict and attr in reg:
            return reg[attr]
    return _MISSING


class _Kinds:
    """Recognises tensors, arrays and modules by exact type lookups against loaded classes."""

    def __init__(self, torch: Any, numpy: Any) -> None:
        self.tensor = getattr(torch, "Tensor", None) if torch is not None else None
        nn = sys.modules.get("torch.nn.modules.module")
        self.module = getattr(nn, "Module", None) if nn is not None else None
        self.ndarray = getattr(numpy, "ndarray", None) if numpy is not None else None

    def kind(self, value: Any) -> str | None:
        t = type(value)
        if self.tensor is not None and issubclass(t, self.tensor):
            return "tensor"
        if self.module is not None and issubclass(t, self.module):
            return "module"
        if self.ndarray is not None and issubclass(t, self.ndarray):
            return "ndarray"
        return None

    def describe(
        self, kind: str, name: str, value: Any, where: str
    ) -> TensorFact | ModuleFact | None:
        try:
            if kind == "tensor":
                return _tensor_fact(name, value, where)
            if kind == "module":
                return _module_fact(name, value, where, self.tensor)
            return TensorFact(
                name, tuple(value.shape), str(value.dtype), "cpu", kind="ndarray", frame=where
            )
        except Exception:  # a tensor subclass whose metadata cannot be read: leave it out
            return None


def dtype_name(dtype: Any) -> str:
    return str(dtype).removeprefix("torch.")


def _tensor_fact(name: str, t: Any, where: str) -> TensorFact:
    grad_fn = t.grad_fn
    return TensorFact(
        name,
        tuple(int(s) for s in t.shape),
        dtype_name(t.dtype),
        str(t.device),
        bool(t.requires_grad),
        type(grad_fn).__name__ if grad_fn is not None else None,
        frame=where,
    )


def _first_parameter(module: Any, tensor_type: Any) -> Any:
    """The first parameter of a module or its children, looked for in at most 64 modules."""
    stack, visited = [module], 0
    while stack and visited < 64:
        m = stack.pop(0)
        visited += 1
        d = object.__getattribute__(m, "__dict__")
        for p in (d.get("_parameters") or {}).values():
            if p is not None and tensor_type is not None and issubclass(type(p), tensor_type):
                return p
        stack.extend(c for c in (d.get("_modules") or {}).values() if c is not None)
    return None


def _module_fact(name: str, m: Any, where: str, tensor_type: Any) -> ModuleFact:
    d = object.__getattribute__(m, "__dict__")
    kind = type(m).__name__
    p = _first_parameter(m, tensor_type)
    in_size, in_dim = _input_size(d)
    return ModuleFact(
        name,
        kind,
        module_summary(kind, d),
        str(p.device) if p is not None else None,
        dtype_name(p.dtype) if p is not None else None,
        frame=where,
        in_size=in_size,
        in_dim=in_dim,
    )


def _input_size(d: dict[str, Any]) -> tuple[int | None, int | None]:
    """The size the layer's input must have, and in which dimension counted from the end (a
    convolution's channels come before its spatial dimensions, batched or not)."""
    for attr in ("in_features", "input_size"):
        if type(d.get(attr)) is int:
            return d[attr], -1
    kernel = d.get("kernel_size")
    if type(d.get("in_channels")) is int and type(kernel) is tuple:
        return d["in_channels"], -(len(kernel) + 1)
    return None, None


def _k(v: Any) -> str:
    """A kernel size (3, 3) reads as 3; (3, 5) as 3x5."""
    if isinstance(v, tuple) and v and all(x == v[0] for x in v):
        return str(v[0])
    if isinstance(v, tuple):
        return "x".join(map(str, v))
    return str(v)


def module_summary(kind: str, d: dict[str, Any]) -> str:
    """One line from the module's own configuration attributes (plain values in its __dict__)."""
    g = d.get
    if "in_features" in d and "out_features" in d:
        return f"{kind}(in={g('in_features')}, out={g('out_features')})"
    if "in_channels" in d and "out_channels" in d:
        out = f"{kind}({g('in_channels')}→{g('out_channels')}, k={_k(g('kernel_size'))}"
        if g("stride") not in (None, 1, (1,), (1, 1), (1, 1, 1)):
            out += f", stride={_k(g('stride'))}"
        return out + ")"
    if "input_size" in d and "hidden_size" in d:
        out = f"{kind}(input={g('input_size')}, hidden={g('hidden_size')}"
        if g("num_layers", 1) != 1:
            out += f", layers={g('num_layers')}"
        return out + f", batch_first={g('batch_first')})"
    if "num_embeddings" in d:
        return f"{kind}({g('num_embeddings')}, dim={g('embedding_dim')})"
    if "num_features" in d:
        return f"{kind}({g('num_features')})"
    if "normalized_shape" in d:
        return f"{kind}({_k(g('normalized_shape'))})"
    if "p" in d and isinstance(g("p"), float):
        return f"{kind}(p={g('p')})"
    children = g("_modules") or {}
    return f"{kind}({len(children)} sub-modules)" if children else f"{kind}()"
