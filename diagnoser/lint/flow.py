"""A small intra-file dataflow layer that rules query instead of matching one syntactic shape each:
what a name or `self.attr` may be bound to (every binding, across if/else), which constructor
calls built a value (through `.to(device)`, helpers of the same file, conditional expressions),
what a module's call returns last (a Sequential's last layer, the returns of a `forward` of this
file), whether a tensor lives on the GPU, whether it descends from a `requires_grad=True` leaf.

Everything answers "unknown" rather than guess: a parameter, a loop variable, an attribute of
something else, a call of a function from another file. Rules fire only on what is known on every
path, so unknown code stays silent.
"""

from __future__ import annotations

import ast

from .context import CONVENTIONS, FUNCTIONS, Context, keyword, method_call, name_of, receiver

NN, FN = "torch.nn.", "torch.nn.functional."
_DEPTH = 8
# nn layers that compute the same in train() and eval() mode (no dropout, no running statistics)
_MODE_FREE_LAYERS = frozenset(
    ("Linear", "Bilinear", "Identity", "Flatten", "Unflatten", "Embedding", "Conv1d", "Conv2d",
     "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "MaxPool1d", "MaxPool2d",
     "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
     "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "ReLU", "ReLU6", "LeakyReLU",
     "PReLU", "ELU", "SELU", "GELU", "SiLU", "Mish", "Sigmoid", "Tanh", "Softmax", "LogSoftmax",
     "Softplus", "Hardtanh", "Hardswish", "LayerNorm", "GroupNorm", "Upsample", "PixelShuffle",
     "ZeroPad2d", "ConstantPad2d", "ReflectionPad2d", "Parameter", "ParameterList")
)  # fmt: skip
_CONTAINERS = frozenset(("Sequential", "ModuleList", "ModuleDict"))
_RNNS = frozenset(("LSTM", "GRU", "RNN"))
_HARMLESS_BUILTINS = frozenset(
    ("super", "int", "float", "len", "range", "list", "tuple", "dict", "print", "zip", "enumerate",
     "min", "max", "sum", "isinstance", "getattr", "setattr", "round", "abs", "str")
)  # fmt: skip
ACTIVATION_FUNCS = {
    "softmax": "softmax",
    "log_softmax": "log_softmax",
    "sigmoid": "sigmoid",
    "logsigmoid": "log_sigmoid",
}
ACTIVATION_MODULES = {"Softmax": "softmax", "LogSoftmax": "log_softmax", "Sigmoid": "sigmoid"}
LINEAR_MODULES = frozenset(
    ("Linear", "LazyLinear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d")
)
# methods that return the same module, or a tensor with the same last operation and device
_SAME_MODULE = frozenset(("to", "cuda", "cpu", "float", "half", "double", "train", "eval",
                          "requires_grad_", "bfloat16"))  # fmt: skip
_SAME_VALUE = frozenset(
    ("squeeze", "unsqueeze", "view", "reshape", "flatten", "contiguous", "float", "double",
     "half", "clone", "permute", "transpose", "t")
)  # fmt: skip
# tensor methods whose result no longer requires grad
_DETACHING = frozenset(
    ("detach", "item", "tolist", "numpy", "argmax", "argmin", "eq", "ne", "gt", "lt", "ge", "le",
     "long", "int", "bool", "size", "dim", "sign")
)  # fmt: skip
_TORCH_CTORS = frozenset(("tensor", "randn", "rand", "zeros", "ones", "empty", "full", "arange",
                          "linspace", "eye", "randn_like", "zeros_like", "ones_like",
                          "rand_like", "empty_like", "full_like"))  # fmt: skip


def flow(ctx: Context) -> Flow:
    """The file's dataflow, built on first use and kept with the context."""
    found = getattr(ctx, "_flow", None)
    if found is None:
        found = Flow(ctx)
        ctx._flow = found  # type: ignore[attr-defined]
    return found


class Flow:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._classes: dict[str, ast.ClassDef] | None = None
        self._attrs: dict[tuple[ast.ClassDef, str], list[ast.expr] | None] = {}
        self._class_memo: dict[ast.AST, set[str] | None] = {}
        self._assigned: dict[ast.ClassDef, dict[str, list[ast.AST]]] = {}

    # bindings ------------------------------------------------------------------------------

    def values(self, node: ast.AST) -> list[ast.expr] | None:
        """Every expression `node` (a name or `self.attr`) may stand for where it is used: the
        nearest assignment before it in its block, else every binding of its scope (both arms of
        an if/else), else the module's for a global. None when any binding is not a plain
        assignment (a parameter, a loop target, `+=`) or there is none."""
        ctx = self.ctx
        if isinstance(node, ast.Name):
            near = ctx.reaching(node)
            if near is not None:
                return [near]
            scope = ctx.scope_of(node)
            bound = ctx.bindings(scope).get(node.id)
            while bound is None and scope is not ctx.tree:  # a closure's, else a global
                scope = ctx.scope_of(scope)
                bound = ctx.bindings(scope).get(node.id)
            if not bound or any(v is None for v in bound):
                return None
            return list(bound)  # type: ignore[arg-type]
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            cls = next((a for a in ctx.ancestors(node) if isinstance(a, ast.ClassDef)), None)
            if cls is None:
                return None
            key = (cls, node.attr)
            if key not in self._attrs:
                self._attrs[key] = self._self_values(cls, node.attr)
            return self._attrs[key]
        return None

    def _self_values(self, cls: ast.ClassDef, attr: str) -> list[ast.expr] | None:
        """Every `self.<attr> = value` of the class; None if any is not a plain assignment."""
        if cls not in self._assigned:
            per: dict[str, list[ast.AST]] = {}
            for n in ast.walk(cls):
                if isinstance(n, ast.Assign | ast.AnnAssign | ast.AugAssign):
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                    for t in targets:
                        k = name_of(t)
                        if k and k.startswith("self."):
                            per.setdefault(k[5:], []).append(n)
                elif isinstance(n, ast.Call) and _setattr_self(n):
                    per.setdefault("*", []).append(n)
            self._assigned[cls] = per
        per = self._assigned[cls]
        if "*" in per:
            return None  # setattr(self, name, ...): could be anything
        found: list[ast.expr] = []
        for n in per.get(attr, []):
            if isinstance(n, ast.Assign):
                if len(n.targets) != 1 or not isinstance(n.targets[0], ast.Attribute):
                    return None
                found.append(n.value)
            elif isinstance(n, ast.AnnAssign) and n.value is not None:
                found.append(n.value)
            else:
                return None
        return found or None

    def local_class(self, name: str) -> ast.ClassDef | None:
        if self._classes is None:
            from .modules import module_classes

            self._classes = {c.name: c for c in module_classes(self.ctx)}
        return self._classes.get(name)

    # constructors --------------------------------------------------------------------------

    def constructors(self, node: ast.AST, depth: int = 0) -> list[ast.Call] | None:
        """The constructor calls that may have built the object `node` is: `nn.Linear(...)` for
        `model` after `model = nn.Linear(...).to(device)`, both classes of an if/else, what a
        helper of this file returns. None when any path is unknown."""
        if depth > _DEPTH:
            return None
        ctx = self.ctx
        if isinstance(node, ast.IfExp):
            a = self.constructors(node.body, depth + 1)
            b = self.constructors(node.orelse, depth + 1)
            return None if a is None or b is None else a + b
        if isinstance(node, ast.Call):
            if method_call(node, *_SAME_MODULE) is not None:
                return self.constructors(node.func.value, depth + 1)  # type: ignore[attr-defined]
            helper = ctx.helper(node)
            if helper is not None:
                returns = _returns(ctx, helper)
                if not returns:
                    return None
                found: list[ast.Call] = []
                for r in returns:
                    got = self.constructors(r, depth + 1)
                    if got is None:
                        return None
                    found += got
                return found
            return [node] if ctx.qualname(node.func) else None
        values = self.values(node)
        if values is None:
            return None
        if isinstance(node, ast.Name):
            # `model = model.cuda()` in an if: the same object, built by the other bindings
            values = [v for v in values if not _moves_itself(v, node.id)] or values
        found = []
        for v in values:
            got = self.constructors(v, depth + 1)
            if got is None:
                return None
            found += got
        return found

    def classes(self, node: ast.AST) -> set[str] | None:
        """The qualified names of the classes `node` may be an instance of; None if unknown.
        Memoised: every loss rule asks about every call of the file."""
        if node in self._class_memo:
            return self._class_memo[node]
        found = self._class_memo[node] = self._classes_of(node)
        return found

    def _classes_of(self, node: ast.AST) -> set[str] | None:
        built = self.constructors(node)
        if built is None:
            return None
        names = {self.ctx.qualname(c.func) for c in built}
        return None if None in names else names  # type: ignore[return-value]

    def built_as(self, node: ast.AST, classes: frozenset[str]) -> bool:
        """Every path that builds `node` builds one of `classes`."""
        found = self.classes(node)
        return bool(found) and found <= classes  # type: ignore[operator]

    # what a value is the output of --------------------------------------------------------

    def outputs(self, node: ast.AST, depth: int = 0) -> set[str]:
        """What produced the value of `node`, on every path: 'softmax', 'log_softmax',
        'sigmoid', 'linear:<Layer>' (the raw output of a Linear/Conv layer), 'other', or
        'unknown'."""
        if depth > _DEPTH:
            return {"unknown"}
        ctx = self.ctx
        if isinstance(node, ast.IfExp):
            return self.outputs(node.body, depth + 1) | self.outputs(node.orelse, depth + 1)
        if isinstance(node, ast.Name | ast.Attribute) and not isinstance(node, ast.Call):
            values = self.values(node)
            if values is None:
                return {"unknown"}
            out: set[str] = set()
            for v in values:
                out |= self.outputs(v, depth + 1)
            return out
        if not isinstance(node, ast.Call):
            return {"other"}
        func = node.func
        if isinstance(func, ast.Call):  # nn.Softmax(dim=1)(x)
            return self._module_outputs(func, depth + 1)
        q = ctx.qualname(func)
        if q is not None:
            for prefix in ("torch.", FN, "torch.special."):
                if q.startswith(prefix) and q[len(prefix) :] in ACTIVATION_FUNCS:
                    return {ACTIVATION_FUNCS[q[len(prefix) :]]}
        if isinstance(func, ast.Attribute):
            if func.attr in ("softmax", "log_softmax") and not (q or "").startswith("torch"):
                return {func.attr}
            if func.attr == "sigmoid" and not node.args and not (q or "").startswith("torch"):
                return {"sigmoid"}
            if func.attr in _SAME_VALUE and not (q or "").startswith("torch"):
                return self.outputs(func.value, depth + 1)
        if q is not None and q.startswith("torch."):
            return {"other"}
        if isinstance(func, ast.Name) and func.id == "self":  # self(x) in a LightningModule
            cls = next((a for a in ctx.ancestors(node) if isinstance(a, ast.ClassDef)), None)
            return {"unknown"} if cls is None else self._forward_outputs(cls, depth + 1)
        built = self.constructors(func)
        if built is None:
            return {"unknown"}
        out = set()
        for c in built:
            out |= self._module_outputs(c, depth + 1)
        return out

    def _module_outputs(self, ctor: ast.Call, depth: int) -> set[str]:
        """What calling the module `ctor` builds returns last."""
        q = self.ctx.qualname(ctor.func) or ""
        if q.startswith(NN):
            short = q[len(NN) :]
            if short in ACTIVATION_MODULES:
                return {ACTIVATION_MODULES[short]}
            if short in LINEAR_MODULES:
                return {f"linear:{short}"}
            if short == "Sequential" and ctor.args and not ctor.keywords:
                last = ctor.args[-1]
                if isinstance(last, ast.Starred):
                    return {"unknown"}
                built = self.constructors(last, depth + 1)
                if built is None:
                    return {"unknown"}
                out: set[str] = set()
                for c in built:
                    out |= self._module_outputs(c, depth + 1)
                return out
            return {"other"}
        cls = self.local_class(q) if isinstance(ctor.func, ast.Name) else None
        if cls is None:
            return {"unknown"}
        return self._forward_outputs(cls, depth)

    def _forward_outputs(self, cls: ast.ClassDef, depth: int) -> set[str]:
        """What the `forward` of a module class of this file returns last."""
        forward = next(
            (s for s in cls.body if isinstance(s, FUNCTIONS) and s.name == "forward"), None
        )
        if forward is None:
            return {"unknown"}  # inherited from another class
        returns = _returns(self.ctx, forward)
        if not returns:
            return {"unknown"}
        out = set()
        for r in returns:
            if isinstance(r, ast.Tuple | ast.Dict | ast.List):
                return {"other"}
            out |= self.outputs(r, depth + 1)
        return out

    # devices -------------------------------------------------------------------------------

    def on_cuda(self, node: ast.AST, depth: int = 0) -> bool:
        """The tensor (or module) `node` is moved to a CUDA device, on some path of this file that
        the value certainly takes, and not back: `.cuda()`, `.to("cuda")`, `.to(device)` with
        `device = torch.device("cuda")`, the output of a module moved so."""
        if depth > _DEPTH:
            return False
        ctx = self.ctx
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and not (ctx.qualname(f) or "").startswith("torch."):
                if f.attr == "cpu":
                    return False
                if f.attr == "cuda":
                    return True
                if f.attr == "to":
                    dev = node.args[0] if node.args else keyword(node, "device")
                    if dev is not None and self.is_cuda_device(dev, depth + 1):
                        return True
                    if dev is not None and self.is_cpu_device(dev, depth + 1):
                        return False
                    return self.on_cuda(f.value, depth + 1)
                if f.attr in ("numpy", "item", "tolist"):
                    return False
                return self.on_cuda(f.value, depth + 1)
            if self.constructors(f) and self.is_module(f):
                # a module's output lives where the module (or its input) does
                return self.on_cuda(f, depth + 1) or any(
                    self.on_cuda(a, depth + 1) for a in node.args[:1]
                )
            return False
        if isinstance(node, ast.Name | ast.Attribute):
            values = self.values(node)
            if values is None:
                return False
            if all(self.on_cuda(v, depth + 1) for v in values):
                return True
            return self.is_module(node) and self._moved_in_place(node)
        return False

    def is_module(self, node: ast.AST) -> bool:
        """Built by an nn layer or an nn.Module class of this file, on every path."""
        built = self.constructors(node)
        if not built:
            return False
        for c in built:
            q = self.ctx.qualname(c.func) or ""
            if q.startswith(NN) and q[len(NN) : len(NN) + 1].isupper() and q.count(".") == 2:
                continue
            if isinstance(c.func, ast.Name) and self.local_class(c.func.id) is not None:
                continue
            return False
        return True

    def mode_free(self, node: ast.AST) -> bool:
        """Built, on every path, as a model whose train() and eval() compute the same thing: only
        nn layers without dropout or BatchNorm-like state, and classes of this file made of those
        that never read `.training`. False whenever any part is unknown (an imported model)."""
        built = self.constructors(node)
        if not built:
            return False
        return all(self._mode_free_call(c, 0) for c in built)

    def _mode_free_call(self, call: ast.Call, depth: int) -> bool:
        q = self.ctx.qualname(call.func) or ""
        if q.startswith(NN) and q.count(".") == 2 and q[len(NN) : len(NN) + 1].isupper():
            layer = q[len(NN) :]
            if layer in _RNNS:  # dropout between stacked layers only in train mode
                return not any(k.arg == "dropout" for k in call.keywords) and len(call.args) < 6
            if layer in _CONTAINERS:  # mode-free when what it holds is
                return depth < _DEPTH and all(
                    self._mode_free_part(a, depth + 1)
                    for a in [*call.args, *(k.value for k in call.keywords)]
                )
            return layer in _MODE_FREE_LAYERS
        if isinstance(call.func, ast.Name):
            cls = self.local_class(call.func.id)
            if cls is not None:
                return depth < _DEPTH and self._mode_free_class(cls, depth + 1)
            return call.func.id in _HARMLESS_BUILTINS
        if q.startswith("torch.") and not q.startswith(("torch.hub.", NN)):
            return True  # a function (torch.zeros, nn.init, F.relu) builds no layer
        if q.startswith(FN) or q.startswith(NN + "init.") or q.startswith(NN + "utils."):
            return True
        root = call.func
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Call):
            return True  # super().__init__(): the inner call is walked on its own
        # a method of this file's own objects (self.make_layer, layers.append) builds nothing
        # unknown; a call into an imported package (timm.create_model) may
        return (
            isinstance(root, ast.Name)
            and root.id not in self.ctx.aliases
            and (root.id not in CONVENTIONS)
        )

    def _mode_free_part(self, node: ast.expr, depth: int) -> bool:
        """A container's argument: a layer, a list or dict of layers, or a name built as one."""
        if isinstance(node, ast.Call):
            return self._mode_free_call(node, depth)
        if isinstance(node, ast.List | ast.Tuple):
            return all(self._mode_free_part(e, depth + 1) for e in node.elts)
        if isinstance(node, ast.Dict):
            return all(self._mode_free_part(v, depth + 1) for v in node.values)
        if isinstance(node, ast.Starred):
            return self._mode_free_part(node.value, depth + 1)
        built = self.constructors(node)
        if not built:
            return False
        return all(self._mode_free_call(c, depth + 1) for c in built)

    def _mode_free_class(self, cls: ast.ClassDef, depth: int) -> bool:
        if any(
            self.ctx.qualname(b) != NN + "Module"
            and not (isinstance(b, ast.Name) and self.local_class(b.id) is not None)
            for b in cls.bases
        ):
            return False
        for n in ast.walk(cls):
            if isinstance(n, ast.Attribute) and n.attr == "training":
                return False
            if isinstance(n, ast.FunctionDef) and n.name in ("train", "eval"):
                return False
            if isinstance(n, ast.Call) and not self._mode_free_call(n, depth):
                return False
        return all(
            self._mode_free_class(base, depth + 1)
            for b in cls.bases
            if isinstance(b, ast.Name) and (base := self.local_class(b.id)) is not None
        )

    def _moved_in_place(self, node: ast.AST) -> bool:
        """`model.to(device)` / `model.cuda()` as a statement of the module's scope: modules move
        in place."""
        n = name_of(node)
        scope = self.ctx.scope_of(node)
        for stmt in self.ctx.expr_stmts:
            call = method_call(stmt.value, "to", "cuda")
            if (
                call is None
                or name_of(receiver(call)) != n
                or self.ctx.scope_of(stmt) not in (scope, self.ctx.tree)
                or stmt.lineno >= getattr(node, "lineno", 0)
            ):
                continue
            if call.func.attr == "cuda":  # type: ignore[attr-defined]
                return True
            dev = call.args[0] if call.args else keyword(call, "device")
            if dev is not None and self.is_cuda_device(dev, 0):
                return True
        return False

    def is_cuda_device(self, node: ast.AST, depth: int = 0) -> bool:
        """ "cuda", "cuda:0", torch.device("cuda"), a name bound to one of those, or a conditional
        such as `"cuda" if torch.cuda.is_available() else "cpu"` (on any GPU machine, CUDA)."""
        if depth > _DEPTH:
            return False
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str) and node.value.startswith("cuda")
        if isinstance(node, ast.IfExp):
            return self.is_cuda_device(node.body, depth + 1)
        if isinstance(node, ast.Call) and self.ctx.qualname(node.func) == "torch.device":
            return bool(node.args) and self.is_cuda_device(node.args[0], depth + 1)
        if isinstance(node, ast.Name | ast.Attribute):
            values = self.values(node)
            return values is not None and all(self.is_cuda_device(v, depth + 1) for v in values)
        return False

    def is_cpu_device(self, node: ast.AST, depth: int = 0) -> bool:
        if isinstance(node, ast.Constant):
            return node.value == "cpu"
        if isinstance(node, ast.Call) and self.ctx.qualname(node.func) == "torch.device":
            return bool(node.args) and self.is_cpu_device(node.args[0], depth + 1)
        return False

    # autograd ------------------------------------------------------------------------------

    def requires_grad(self, node: ast.AST, depth: int = 0) -> bool:
        """`node` certainly requires grad: a leaf made here with `requires_grad=True` (or an
        `nn.Parameter`), or a computation on one outside `no_grad`, through names bound once."""
        if depth > _DEPTH:
            return False
        ctx = self.ctx
        if isinstance(node, ast.Name):
            values = self.values(node)
            return values is not None and all(self.requires_grad(v, depth + 1) for v in values)
        if ctx.under_no_grad(node):
            return False
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.MatMult | ast.Add | ast.Sub | ast.Mult | ast.Div | ast.Pow):
                return self.requires_grad(node.left, depth + 1) or self.requires_grad(
                    node.right, depth + 1
                )
            return False
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return self.requires_grad(node.operand, depth + 1)
        if not isinstance(node, ast.Call):
            return False
        q = ctx.qualname(node.func) or ""
        if q == NN + "Parameter":
            rg = keyword(node, "requires_grad")
            return not (isinstance(rg, ast.Constant) and rg.value is False)
        if q.startswith("torch.") and q[6:] in _TORCH_CTORS:
            rg = keyword(node, "requires_grad")
            return isinstance(rg, ast.Constant) and rg.value is True
        f = node.func
        if isinstance(f, ast.Attribute) and not q.startswith("torch."):
            if f.attr in _DETACHING:
                return False
            if f.attr == "requires_grad_":
                return not node.args or (
                    isinstance(node.args[0], ast.Constant) and node.args[0].value is True
                )
            return self.requires_grad(f.value, depth + 1)
        if q.startswith("torch.") and q.count(".") == 1 and q[6:] not in _DETACHING:
            return any(self.requires_grad(a, depth + 1) for a in node.args)
        return False


def _moves_itself(value: ast.expr, name: str) -> bool:
    call = method_call(value, *_SAME_MODULE)
    target = call.func.value if call is not None else None  # type: ignore[attr-defined]
    return isinstance(target, ast.Name) and target.id == name


def _returns(ctx: Context, fn: ast.AST) -> list[ast.expr]:
    """The values a function returns (a bare `return` or falling off the end gives nothing)."""
    found = [
        n.value
        for n in ctx.walk_local(fn.body)  # type: ignore[attr-defined]
        if isinstance(n, ast.Return) and n.value is not None
    ]
    if any(isinstance(n, ast.Yield | ast.YieldFrom) for n in ctx.walk_local(fn.body)):  # type: ignore[attr-defined]
        return []
    return found


def _setattr_self(call: ast.Call) -> bool:
    return (
        isinstance(call.func, ast.Name)
        and call.func.id == "setattr"
        and bool(call.args)
        and isinstance(call.args[0], ast.Name)
        and call.args[0].id == "self"
    )
