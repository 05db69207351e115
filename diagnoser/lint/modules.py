"""Rules on nn.Module subclasses: a misspelt or misplaced forward / __init__, layers nn.Module
cannot see, parameters updated in place while autograd records."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .context import FUNCTIONS, Context, method_call, name_of
from .rule import Hit, rule

MODULE = "torch.nn.Module"


def module_classes(ctx: Context) -> list[ast.ClassDef]:
    """Classes of this file that derive from nn.Module directly or through another of them."""
    found: list[ast.ClassDef] = []
    names: set[str] = set()
    for cls in sorted(ctx.classes, key=lambda c: c.lineno):
        for base in cls.bases:
            q = ctx.qualname(base)
            if q == MODULE or (isinstance(base, ast.Name) and base.id in names):
                found.append(cls)
                names.add(cls.name)
                break
    return found


def _direct_module(ctx: Context, cls: ast.ClassDef) -> bool:
    """nn.Module is a direct base: no other base could supply forward or __init__."""
    return all(ctx.qualname(b) == MODULE for b in cls.bases)


def _methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {s.name: s for s in cls.body if isinstance(s, FUNCTIONS)}


def _distance(a: str, b: str) -> int:
    """Levenshtein distance, for names a few letters long."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _near(name: str, target: str) -> bool:
    return name != target and (
        name.lower() == target or _distance(name.lower(), target) <= (2 if len(target) > 6 else 1)
    )


@rule(
    "TD040",
    "misspelt-forward",
    "module-missing-forward",
    message={
        "en": "`{code}`: {cls} has no `forward`; this method looks like a misspelling of it, so "
        "calling the model raises NotImplementedError",
        "zh": "`{code}`：{cls} 没有 `forward`，这个方法像是 forward 拼错了，调用模型时会报 "
        "NotImplementedError",
    },
    why={
        "en": "`model(x)` runs `nn.Module.__call__`, which calls the method named exactly "
        "`forward`. A class that defines `foward` or `Forward` instead inherits the default, which "
        'raises "Module [Net] is missing the required "forward" function".',
        "zh": "`model(x)` 执行的是 `nn.Module.__call__`，它调用的是名字恰好叫 `forward` 的方法。"
        "类里写的是 "
        '`foward` 或 `Forward` 的话，继承到的是默认实现，会报 "Module [Net] is missing the '
        'required "forward" function"。',
    },
    fix={"en": "Name the method `forward`.", "zh": "把方法名改成 `forward`。"},
    bad="""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def foward(self, x):
        return self.fc(x)
""",
    good="""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)
""",
)
def misspelt_forward(ctx: Context) -> Iterator[Hit]:
    bases = {b.id for c in ctx.classes for b in c.bases if isinstance(b, ast.Name)}
    for cls in module_classes(ctx):
        methods = _methods(cls)
        if not _direct_module(ctx, cls) or "forward" in methods or "__call__" in methods:
            continue
        if cls.name in bases:
            continue  # a base class: its subclasses may define forward
        for name, fn in methods.items():
            if _near(name, "forward") and name[:1].lower() == "f":
                yield Hit(_name_node(ctx, fn), {"cls": cls.name})


def _name_node(ctx: Context, fn: ast.AST) -> ast.AST:
    """Point at the `def` line's name rather than its decorators."""
    node = ast.Name(id=getattr(fn, "name", ""))
    node.lineno = fn.lineno  # type: ignore[attr-defined]
    line = ctx.lines[fn.lineno - 1] if fn.lineno <= len(ctx.lines) else ""  # type: ignore[attr-defined]
    col = line.find("def ")
    node.col_offset = col + 4 if col >= 0 else fn.col_offset  # type: ignore[attr-defined]
    node.end_lineno = fn.lineno  # type: ignore[attr-defined]
    node.end_col_offset = node.col_offset + len(node.id)
    return node


@rule(
    "TD041",
    "forward-inside-init",
    "module-missing-forward",
    message={
        "en": "`{code}` is defined inside __init__ (indentation), so {cls} has no forward method",
        "zh": "`{code}` 定义在了 __init__ 里面（缩进错了），所以 {cls} 没有 forward 方法",
    },
    why={
        "en": "A `def forward` indented one level too far is a local function of `__init__`, "
        "thrown away when `__init__` returns. The class has no `forward`, and calling the model "
        'raises "Module [Net] is missing the required "forward" function".',
        "zh": "多缩进了一级的 `def forward` 只是 `__init__` 里的局部函数，`__init__` 返回后就没了。"
        '类里没有 `forward`，调用模型时报 "Module [Net] is missing the required "forward" '
        'function"。',
    },
    fix={
        "en": "Dedent `forward` to the level of `__init__`.",
        "zh": "把 `forward` 的缩进改成和 `__init__` 一样。",
    },
    bad="""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

        def forward(self, x):
            return self.fc(x)
""",
    good="""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)
""",
)
def forward_inside_init(ctx: Context) -> Iterator[Hit]:
    for cls in module_classes(ctx):
        methods = _methods(cls)
        init = methods.get("__init__")
        if init is None or "forward" in methods or not _direct_module(ctx, cls):
            continue
        for stmt in init.body:
            if isinstance(stmt, FUNCTIONS) and stmt.name == "forward":
                yield Hit(_name_node(ctx, stmt), {"cls": cls.name})


@rule(
    "TD042",
    "misspelt-init",
    "optimizer-empty-params",
    message={
        "en": "`{code}`: {cls} has no `__init__`; this looks like a misspelling of it, so it never "
        "runs and none of its layers are created",
        "zh": "`{code}`：{cls} 没有 `__init__`，这个方法像是 `__init__` 拼错了，所以它从不执行，"
        "里面的层一个都没有创建",
    },
    why={
        "en": "Python calls the method named exactly `__init__` when it creates the object. "
        "`_init_`, `__int__` or `__init` are ordinary methods that nobody calls: the layers they "
        'assign never exist, and the optimizer fails with "optimizer got an empty parameter '
        'list" (or the model with an AttributeError).',
        "zh": "Python 创建对象时调用的是名字恰好叫 `__init__` 的方法。`_init_`、`__int__`"
        "、`__init` 都只是"
        '没人调用的普通方法：里面赋值的层根本不存在，optimizer 报 "optimizer got an empty '
        'parameter list"（或者模型报 AttributeError）。',
    },
    fix={
        "en": "Name it `__init__`: two underscores on each side.",
        "zh": "改名为 `__init__`：前后各两个下划线。",
    },
    bad="""
class Net(nn.Module):
    def _init_(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
""",
    good="""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
""",
)
def misspelt_init(ctx: Context) -> Iterator[Hit]:
    for cls in module_classes(ctx):
        methods = _methods(cls)
        if "__init__" in methods:
            continue
        for name, fn in methods.items():
            if name.startswith("_") and _near(name, "__init__") and _assigns_self(ctx, fn):
                yield Hit(_name_node(ctx, fn), {"cls": cls.name})


def _assigns_self(ctx: Context, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        isinstance(n, ast.Assign)
        and any(isinstance(t, ast.Attribute) and name_of(t.value) == "self" for t in n.targets)
        for n in ctx.walk_local(fn.body)
    )


def _is_layer(ctx: Context, node: ast.AST, local: set[str]) -> bool:
    if not isinstance(node, ast.Call):
        return False
    q = ctx.qualname(node.func) or ""
    if q.startswith("torch.nn.") and "." not in q[9:] and q[9:10].isupper():
        return q[9:] not in _CONTAINERS
    return isinstance(node.func, ast.Name) and node.func.id in local


_CONTAINERS = frozenset(
    {"ModuleList", "ModuleDict", "Sequential", "ParameterList", "ParameterDict"}
)


def _filled_with_layers(
    ctx: Context, nodes: list[ast.AST], attr: str, assign: ast.Assign, local: set[str]
) -> bool:
    """`self.<attr> = []` then `self.<attr>.append(layer)` in the same __init__, and `self.<attr>`
    assigned nowhere else there (`self.blocks = nn.ModuleList(self.blocks)` makes it right)."""
    if not (isinstance(assign.value, ast.List) and not assign.value.elts):
        return False
    appended = False
    for n in nodes:
        if n is assign:
            continue
        if method_call(n, "add_module", "register_module") is not None:
            return False  # registered one by one
        if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if any(
                isinstance(t, ast.Attribute) and t.attr == attr and name_of(t.value) == "self"
                for t in targets
            ):
                return False
        call = method_call(n, "append")
        if (
            call is not None
            and len(call.args) == 1
            and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Attribute)
            and call.func.value.attr == attr
            and name_of(call.func.value.value) == "self"
        ):
            if not _is_layer(ctx, call.args[0], local):
                return False
            appended = True
    return appended


def _layers_in(ctx: Context, value: ast.AST, local: set[str]) -> bool:
    """A list, tuple or dict (literal, comprehension or `n * [Block()]`) whose items are layers."""
    if isinstance(value, ast.List | ast.Tuple):
        return bool(value.elts) and all(_is_layer(ctx, e, local) for e in value.elts)
    if isinstance(value, ast.ListComp):
        return _is_layer(ctx, value.elt, local)
    if isinstance(value, ast.Dict):
        return bool(value.values) and all(_is_layer(ctx, v, local) for v in value.values)
    if isinstance(value, ast.DictComp):
        return _is_layer(ctx, value.value, local)
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        return _layers_in(ctx, value.left, local) or _layers_in(ctx, value.right, local)
    return False


@rule(
    "TD043",
    "layers-in-plain-list",
    "optimizer-empty-params",
    message={
        "en": "`{code}` keeps layers in a plain Python {kind}: nn.Module does not register them, "
        "so "
        "their parameters are not trained, moved by .to() or saved; use nn.{container}",
        "zh": "`{code}` 把层放在了普通的 Python {kind}里：nn.Module 不会注册它们，它们的参数不会"
        "被训练、"
        "不会随 .to() 移动、也不会被保存；改用 nn.{container}",
    },
    why={
        "en": "nn.Module finds sub-modules through attributes that hold a module. A list or dict "
        "is not a module, so the layers inside are invisible to `parameters()`, `.to(device)`, "
        "`state_dict()` and `train()`/`eval()`: the optimizer never updates them (or gets an "
        'empty parameter list), and on a GPU the forward pass fails with "Expected all tensors '
        'to be on the same device".',
        "zh": "nn.Module 通过属性里存放的 module 找到子模块。list 和 dict 不是 module，里面的层对 "
        "`parameters()`、`.to(device)`、`state_dict()` 和 `train()`/`eval()` 都不可见：optimizer "
        '从不更新它们（或者拿到一个空的参数列表），在 GPU 上前向时还会报 "Expected all tensors to '
        'be on the same device"。',
    },
    fix={
        "en": "Wrap them: `nn.ModuleList([...])`, `nn.ModuleDict({...})` (`nn.ParameterList` for "
        "parameters).",
        "zh": "包一层：`nn.ModuleList([...])`、`nn.ModuleDict({...})`（参数用 `nn.ParameterList`"
        "）。",
    },
    bad="""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(8, 8) for _ in range(4)]
""",
    good="""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(4)])
""",
)
def layers_in_plain_list(ctx: Context) -> Iterator[Hit]:
    classes = module_classes(ctx)
    local = {c.name for c in classes}
    for cls in classes:
        init = _methods(cls).get("__init__")
        if init is None:
            continue
        nodes = list(ctx.walk_local(init.body))
        for n in nodes:
            if not isinstance(n, ast.Assign) or len(n.targets) != 1:
                continue
            t = n.targets[0]
            if not (isinstance(t, ast.Attribute) and name_of(t.value) == "self"):
                continue
            if _layers_in(ctx, n.value, local) or _filled_with_layers(ctx, nodes, t.attr, n, local):
                is_dict = isinstance(n.value, ast.Dict | ast.DictComp)
                yield Hit(
                    n,
                    {
                        "kind": {"en": "dict", "zh": " dict "}
                        if is_dict
                        else {"en": "list", "zh": " list "},
                        "container": "ModuleDict" if is_dict else "ModuleList",
                    },
                )


_NOT_DATA = frozenset({"requires_grad_", "share_memory_", "retain_grad", "detach_"})


@rule(
    "TD044",
    "leaf-parameter-updated-in-place",
    "leaf-inplace",
    message={
        "en": "`{code}` updates a parameter in place while autograd is recording; do the update "
        "under `with torch.no_grad():`",
        "zh": "`{code}` 在 autograd 记录时原地修改了参数；要把更新放在 `with torch.no_grad():` 里",
    },
    why={
        "en": "Parameters are leaf tensors that require grad. An in-place operation on one "
        "(`p -= lr * p.grad`, `p.add_(...)`) would have to be recorded in the graph that "
        'computes its own gradient, so autograd refuses: "a leaf Variable that requires grad '
        'is being used in an in-place operation".',
        "zh": "参数是需要梯度的叶子 tensor。对它做原地操作（`p -= lr * p.grad`、`p.add_(...)`）"
        "就得记进"
        '计算它自身梯度的那张图里，所以 autograd 拒绝执行："a leaf Variable that requires grad '
        'is being used in an in-place operation"。',
    },
    fix={
        "en": "Wrap manual updates in `with torch.no_grad():` (or use an optimizer); for "
        "initialisation use `torch.nn.init`, which does this for you.",
        "zh": "手动更新放在 `with torch.no_grad():` 里（或者直接用 optimizer）；初始化用 "
        "`torch.nn.init`，它已经处理好了。",
    },
    bad="""
for p in model.parameters():
    p -= lr * p.grad
""",
    good="""
with torch.no_grad():
    for p in model.parameters():
        p -= lr * p.grad
""",
)
def leaf_parameter_updated_in_place(ctx: Context) -> Iterator[Hit]:
    yield from _parameter_loops(ctx)
    yield from _leaf_tensors(ctx)


def _in_place(node: ast.AST, name: str) -> bool:
    """`name -= ...` or `name.add_(...)`: an in-place change of the tensor `name` itself."""
    if isinstance(node, ast.AugAssign):
        return isinstance(node.target, ast.Name) and node.target.id == name
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        attr, r = node.func.attr, node.func.value
        return (
            attr.endswith("_")
            and not attr.startswith("_")
            and attr not in _NOT_DATA
            and isinstance(r, ast.Name)
            and r.id == name
        )
    return False


def _is_leaf_factory(ctx: Context, value: ast.expr | None) -> bool:
    """`torch.zeros(3, requires_grad=True)`, `nn.Parameter(...)`."""
    if not isinstance(value, ast.Call):
        return False
    if ctx.qualname(value.func) in ("torch.nn.Parameter", "torch.nn.parameter.Parameter"):
        return True
    flag = next((k.value for k in value.keywords if k.arg == "requires_grad"), None)
    q = ctx.qualname(value.func) or ""
    return q.startswith("torch.") and isinstance(flag, ast.Constant) and flag.value is True


def _leaf_tensors(ctx: Context) -> Iterator[Hit]:
    """Tensors created with requires_grad=True and then updated in place (`w -= lr * w.grad`)."""
    if not any(_is_leaf_factory(ctx, c) for c in ctx.calls):
        return  # most files make no leaf tensor themselves: skip the per-scope bookkeeping
    for scope in [ctx.tree, *ctx.functions]:
        bindings = ctx.bindings(scope)
        nodes = list(ctx.walk_local(scope.body))
        augmented: dict[str, int] = {}
        for n in nodes:
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                augmented[n.target.id] = augmented.get(n.target.id, 0) + 1
        # bound only by a leaf factory, and otherwise only updated (`w -= ...`): never a
        # parameter, a loop variable or anything else under the same name
        leaves = {
            name
            for name, values in bindings.items()
            if any(v is not None for v in values)
            and all(_is_leaf_factory(ctx, v) for v in values if v is not None)
            and sum(v is None for v in values) == augmented.get(name, 0)
        }
        for n in nodes:
            for name in leaves:
                if _in_place(n, name) and not ctx.under_no_grad(n):
                    yield Hit(n)


def _parameter_loops(ctx: Context) -> Iterator[Hit]:
    for loop in ctx.loops:
        if not isinstance(loop, ast.For) or not isinstance(loop.target, ast.Name):
            continue
        if not method_call(loop.iter, "parameters"):
            continue
        p = loop.target.id
        for n in ctx.walk_local(loop.body):
            if _in_place(n, p) and not ctx.under_no_grad(n):
                yield Hit(n)


@rule(
    "TD045",
    "submodule-before-super-init",
    "module-init-not-called",
    message={
        "en": "`{code}` assigns {what} before `super().__init__()` has run{late}: nn.Module "
        'raises "cannot assign module before Module.__init__() call"; call super().__init__() '
        "first",
        "zh": "`{code}` 在 `super().__init__()` 执行之前就赋值了{what}{late}：nn.Module 会报 "
        '"cannot assign module before Module.__init__() call"；先调用 super().__init__()',
    },
    why={
        "en": "`nn.Module.__init__` creates the dictionaries in which a module registers its "
        "layers and parameters. Until it has run, assigning a layer (or an `nn.Parameter`) to "
        '`self` has nowhere to go, and `nn.Module.__setattr__` raises "cannot assign module '
        'before Module.__init__() call" ("cannot assign parameters before Module.__init__() '
        'call"). Plain values (numbers, strings) may be assigned before it; layers may not.',
        "zh": "`nn.Module.__init__` 会创建模块用来登记子层和参数的字典。它执行之前，把层（或者 "
        '`nn.Parameter`）赋值给 `self` 无处登记，`nn.Module.__setattr__` 就报 "cannot assign '
        'module before Module.__init__() call"（参数则是 "cannot assign parameters before '
        'Module.__init__() call"）。普通的值（数字、字符串）可以在它之前赋值，层不行。',
    },
    fix={
        "en": "Make `super().__init__()` the first statement of `__init__`.",
        "zh": "把 `super().__init__()` 放在 `__init__` 的第一行。",
    },
    bad="""
class Net(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(4, 2)
        super().__init__()
""",
    good="""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
""",
)
def submodule_before_super_init(ctx: Context) -> Iterator[Hit]:
    classes = module_classes(ctx)
    local = {c.name for c in classes}
    for cls in classes:
        init = _methods(cls).get("__init__")
        if init is None:
            continue
        # top-level statements in order, up to the first that runs a base __init__: what
        # surely runs before it (the call is usually the first statement: one step)
        before: list[tuple[ast.stmt, dict[str, str]]] = []
        found_super = False
        for stmt in init.body:
            if any(_super_init(ctx, n) for n in ctx.walk_local([stmt])):
                found_super = True
                break
            if not isinstance(stmt, ast.Assign | ast.AnnAssign) or stmt.value is None:
                continue
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if not any(isinstance(t, ast.Attribute) and name_of(t.value) == "self"
                       for t in targets):  # fmt: skip
                continue
            what = _module_value(ctx, stmt.value, local)
            if what:
                before.append((stmt, what))
        if not found_super and not _direct_module(ctx, cls):
            continue  # no base __init__ at all: only a direct nn.Module subclass surely fails
        late = (
            {"en": "", "zh": ""}
            if found_super
            else {"en": " (it is never called)", "zh": "（它根本没被调用）"}
        )
        for stmt, what in before:
            yield Hit(stmt, {"what": what, "late": late})


def _super_init(ctx: Context, node: ast.AST) -> bool:
    """`super().__init__(...)`, `super(Net, self).__init__()`, `nn.Module.__init__(self)`,
    `Base.__init__(self, ...)`."""
    call = method_call(node, "__init__")
    if call is None:
        return False
    inner = call.func.value  # type: ignore[attr-defined]
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name):
        return inner.func.id == "super"
    return bool(call.args) and isinstance(call.args[0], ast.Name) and call.args[0].id == "self"


def _module_value(ctx: Context, value: ast.AST, local: set[str]) -> dict[str, str] | None:
    if not isinstance(value, ast.Call):
        return None
    q = ctx.qualname(value.func) or ""
    if q == "torch.nn.Parameter":
        return {"en": "a parameter", "zh": "参数"}
    if (q.startswith("torch.nn.") and "." not in q[9:] and q[9:10].isupper()) or (
        isinstance(value.func, ast.Name) and value.func.id in local
    ):
        return {"en": "a layer", "zh": "一个层"}
    return None
