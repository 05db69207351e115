"""Rules on tensor operations: views of non-contiguous tensors, `.numpy()` on tensors that cannot
give one, device moves whose result is thrown away, Windows paths eaten by string escapes."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..knowledge.regex_cache import compile_cached
from .context import FUNCTIONS, Context, keyword, method_call, name_of, receiver
from .flow import flow
from .rule import Hit, rule

_REORDER = ("transpose", "permute", "t", "swapaxes", "swapdims", "movedim")
_REORDER_ATTRS = ("T", "mT", "H", "mH")


def _reorder(ctx: Context, node: ast.AST) -> ast.expr | None:
    """`x.transpose(1, 2)`, `x.permute(...)`, `x.T`: a tensor whose memory is no longer in order;
    or a name bound once to one. Returns that expression."""
    for _ in range(2):
        if method_call(node, *_REORDER) or (
            isinstance(node, ast.Attribute) and node.attr in _REORDER_ATTRS
        ):
            return node  # type: ignore[return-value]
        value = ctx.reaching(node) if isinstance(node, ast.Name) else None
        if value is None:
            return None
        node = value
    return None


def _ints(call: ast.Call) -> list[int] | None:
    args = (
        call.args[0].elts
        if len(call.args) == 1 and isinstance(call.args[0], ast.List | ast.Tuple)
        else call.args
    )
    values = []
    for a in args:
        if isinstance(a, ast.Constant) and isinstance(a.value, int):
            values.append(a.value)
        elif (
            isinstance(a, ast.UnaryOp)
            and isinstance(a.op, ast.USub)
            and isinstance(a.operand, ast.Constant)
            and isinstance(a.operand.value, int)
        ):
            values.append(-a.operand.value)
        else:
            return None
    return values


def _view_must_copy(reorder: ast.expr, view: ast.Call) -> bool:
    """Only the views that cannot work whatever the sizes (a size-1 dimension aside): flattening
    a reordered tensor (`.view(-1)`), and merging two dimensions of a 4-d tensor whose dims 1
    and 2 were swapped (`.transpose(1, 2).view(B, T, C)`, the multi-head merge). Other views
    may only split dimensions, which works on any layout."""
    args = view.args
    if view.keywords or any(isinstance(a, ast.Starred) for a in args):
        return False
    if len(args) == 1 and _ints(view) == [-1]:
        return True
    if (
        len(args) == 2
        and isinstance(args[1], ast.UnaryOp)
        and _ints(ast.Call(func=view.func, args=[args[1]], keywords=[])) == [-1]
        and isinstance(reorder, ast.Call)
    ):
        # `.view(b, -1)` merges every dimension after the first: impossible when two of them
        # were swapped (`transpose(1, 2)`, `permute(0, 2, 1)`), whatever the sizes but size 1
        dims = _ints(reorder)
        name = reorder.func.attr  # type: ignore[attr-defined]
        if name in ("transpose", "swapaxes", "swapdims"):
            return dims is not None and len(dims) == 2 and min(dims) >= 1 and dims[0] != dims[1]
        if name == "permute" and dims and all(d >= 0 for d in dims):
            rest = dims[1:]
            return len(rest) >= 2 and rest != list(range(rest[0], rest[0] + len(rest)))
    if len(args) != 3 or not isinstance(reorder, ast.Call):
        return False
    dims = _ints(reorder)
    name = reorder.func.attr  # type: ignore[attr-defined]
    if name in ("transpose", "swapaxes", "swapdims"):
        return dims is not None and sorted(dims) == [1, 2]
    return name == "permute" and dims == [0, 2, 1, 3]


@rule(
    "TD030",
    "view-after-transpose",
    "view-non-contiguous",
    message={
        "en": "`{code}` views a transposed/permuted tensor, which is not contiguous; use "
        ".reshape(...) or .contiguous().view(...)",
        "zh": "`{code}` 对 transpose/permute 之后的 tensor 调用了 view，它在内存里不连续；"
        "改用 .reshape(...) 或 .contiguous().view(...)",
    },
    why={
        "en": "`transpose`, `permute`, `.t()` and `.T` only change the strides: the data stays "
        "where it was. `.view()` never copies, so it cannot merge dimensions whose elements are "
        'no longer adjacent in memory, and fails with "view size is not compatible with input '
        "tensor's size and stride\".",
        "zh": "`transpose`、`permute`、`.t()` 和 `.T` 只改变 stride，数据还在原来的位置"
        "。`.view()` 从不复制，"
        '所以合并不了那些在内存里已经不相邻的维度，会报 "view size is not compatible with input '
        "tensor's size and stride\"。",
    },
    fix={
        "en": "Use `.reshape(...)`, which copies only when it must, or `.contiguous().view(...)`.",
        "zh": "用 `.reshape(...)`（只在必要时复制），或者 `.contiguous().view(...)`。",
    },
    bad="""
out = out.transpose(1, 2).view(B, T, C)
""",
    good="""
out = out.transpose(1, 2).reshape(B, T, C)
""",
)
def view_after_transpose(ctx: Context) -> Iterator[Hit]:
    for call in ctx.calls:
        if method_call(call, "view") is None or not call.args:
            continue
        if len(call.args) == 1 and _is_dtype(ctx, call.args[0]):
            continue  # x.view(torch.float16) reinterprets the dtype, a different operation
        reorder = _reorder(ctx, receiver(call))
        if reorder is not None and _view_must_copy(reorder, call):
            yield Hit(call)


def _is_dtype(ctx: Context, node: ast.AST) -> bool:
    q = ctx.qualname(node) or ""
    return q.startswith("torch.") and q[6:].islower() and "." not in q[6:] and q[6:] != "size"


_KEEPS_GRAPH = ("cpu", "to", "cuda", "float", "double", "half", "squeeze", "flatten", "view")


def _chain(node: ast.AST) -> Iterator[ast.Call | ast.Attribute]:
    """The method calls and attributes of `a.b().c().d`, from the last one back to `a`."""
    while isinstance(node, ast.Call | ast.Attribute):
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Attribute):
                return
            yield node
            node = node.func.value
        else:
            yield node
            node = node.value


def _attr(node: ast.Call | ast.Attribute) -> str:
    """The method or attribute name of one link of a chain (`_chain` yields only these)."""
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Attribute)
        return node.func.attr
    return node.attr


def _inner(node: ast.Call | ast.Attribute) -> ast.expr:
    """What a link of a chain applies to: `a` in `a.b()` or `a.b`."""
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Attribute)
        return node.func.value
    return node.value


@rule(
    "TD031",
    "numpy-on-grad-tensor",
    "numpy-requires-grad",
    message={
        "en": "`{code}`: {what} requires grad, so .numpy() fails; call .detach() first",
        "zh": "`{code}`：{what}需要梯度（requires_grad），.numpy() 会报错；先调用 .detach()",
    },
    why={
        "en": "A tensor that requires grad belongs to the autograd graph; handing its memory to "
        "NumPy would escape it, so `.numpy()` refuses with \"Can't call numpy() on Tensor that "
        'requires grad. Use tensor.detach().numpy() instead." Parameters (`layer.weight`) and '
        "losses you call `backward()` on always require grad, even under `torch.no_grad()`.",
        "zh": "需要梯度的 tensor 属于 autograd 计算图，把它的内存交给 NumPy 就脱离了计算图，所以 "
        "`.numpy()` 会拒绝：\"Can't call numpy() on Tensor that requires grad. Use "
        'tensor.detach().numpy() instead."。参数（`layer.weight`）和调用过 `backward()` 的 loss '
        "一定需要梯度，即使在 `torch.no_grad()` 里也一样。",
    },
    fix={
        "en": "`t.detach().cpu().numpy()`; for a single number, `loss.item()`.",
        "zh": "`t.detach().cpu().numpy()`；只要一个数的话用 `loss.item()`。",
    },
    bad="""
w = model.fc.weight.numpy()
""",
    good="""
w = model.fc.weight.detach().cpu().numpy()
""",
)
def numpy_on_grad_tensor(ctx: Context) -> Iterator[Hit]:
    backwarded: dict[ast.AST, set[str]] = {}
    for call in ctx.calls:
        if method_call(call, "numpy") is None or call.args or keyword(call, "force"):
            continue
        base: ast.AST = receiver(call)
        detached = False
        for link in _chain(base):
            name = _attr(link)
            if name in ("detach", "data", "item", "tolist", "grad", "numpy"):
                detached = True
                break
            if name not in _KEEPS_GRAPH:
                base = link
                break
            base = _inner(link)
        if detached:
            continue
        if isinstance(base, ast.Attribute) and base.attr in ("weight", "bias"):
            if _foreign_module(ctx, base):
                continue
            yield Hit(call, {"what": {"en": "a parameter", "zh": "参数"}})
            continue
        if _model_output(ctx, base) and not ctx.under_no_grad(call):
            yield Hit(call, {"what": {"en": "the model's output", "zh": "模型的输出"}})
            continue
        if isinstance(base, ast.Name) and not ctx.under_no_grad(call):
            # `preds = model(x)` then `preds.numpy()`: bound once, to the model's output
            values = ctx.bindings(ctx.scope_of(call)).get(base.id, [])
            if (
                len(values) == 1
                and values[0] is not None
                and _model_output(ctx, values[0])
                and not ctx.under_no_grad(values[0])
                and not _grad_turned_off(ctx)
            ):
                yield Hit(call, {"what": {"en": "the model's output", "zh": "模型的输出"}})
                continue
        if isinstance(base, ast.Name):
            scope = ctx.scope_of(call)
            if scope not in backwarded:
                backwarded[scope] = _backwarded_names(ctx, scope)
            # bound once: the tensor backward() ran on is the one converted
            if base.id in backwarded[scope] and len(ctx.bindings(scope).get(base.id, [])) == 1:
                yield Hit(
                    call,
                    {
                        "what": {
                            "en": "a loss you call backward() on",
                            "zh": "调用过 backward() 的 loss ",
                        }
                    },
                )
                continue
        if not ctx.under_no_grad(call) and flow(ctx).requires_grad(base):
            yield Hit(call, {"what": {"en": "a tensor computed from one created with "
                                      "requires_grad=True", "zh": "由 requires_grad=True 的张量"
                                      "算出来的结果"}})  # fmt: skip


_MODEL_WORDS = ("model", "net", "module", "layer", "linear", "conv", "fc", "encoder", "decoder")


def _foreign_module(ctx: Context, node: ast.Attribute) -> bool:
    """`w.bias.numpy()` where `w` is a parameter of the function that holds it, named as no model
    is: a module handed in from elsewhere, typically a checkpoint's (yolov5's models/tf.py reads
    `w.conv.weight.numpy()` off an EMA model whose parameters have requires_grad=False)."""
    root: ast.AST = node
    while isinstance(root, ast.Attribute | ast.Call | ast.Subscript):
        root = root.func if isinstance(root, ast.Call) else root.value
    if not isinstance(root, ast.Name) or root.id == "self":
        return False
    scope = ctx.scope_of(node)
    values = ctx.bindings(scope).get(root.id, [])
    if not values or any(v is not None for v in values) or not isinstance(scope, FUNCTIONS):
        return False
    a = scope.args
    params = {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]}
    return root.id in params and not any(w in root.id.lower() for w in _MODEL_WORDS)


def _grad_turned_off(ctx: Context) -> bool:
    """The file switches gradients off some other way: `torch.set_grad_enabled(False)`, or
    freezes parameters (`requires_grad_(False)`, `p.requires_grad = False`); an inference script
    that does so has outputs that need no detach."""
    for call in ctx.calls:
        if (method_call(call, "set_grad_enabled") or method_call(call, "requires_grad_")) and any(
            isinstance(a, ast.Constant) and a.value is False for a in call.args
        ):
            return True
    return any(
        isinstance(n, ast.Assign)
        and any(isinstance(t, ast.Attribute) and t.attr == "requires_grad" for t in n.targets)
        and isinstance(n.value, ast.Constant)
        and n.value.value is False
        for n in ast.walk(ctx.tree)
    )


def _model_output(ctx: Context, node: ast.AST) -> bool:
    """`model(x)` where this scope builds `model` from an nn layer or an nn.Module subclass of
    this file: outside no_grad, its output requires grad (eval() does not change that)."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return False
    from .modules import module_classes

    values = ctx.bindings(ctx.scope_of(node)).get(node.func.id, [])
    if len(values) != 1 or not isinstance(values[0], ast.Call):
        return False
    q = ctx.qualname(values[0].func) or ""
    if q.startswith("torch.nn.") and "." not in q[9:] and q[9:10].isupper():
        return q[9:] != "Parameter"
    local = {c.name for c in module_classes(ctx)}
    return isinstance(values[0].func, ast.Name) and values[0].func.id in local


def _backwarded_names(ctx: Context, scope: ast.AST) -> set[str]:
    return {
        c.func.value.id  # type: ignore[attr-defined]
        for c in ctx.calls
        if method_call(c, "backward")
        and isinstance(c.func.value, ast.Name)  # type: ignore[attr-defined]
        and ctx.scope_of(c) is scope
    }


def _to_cuda(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    if method_call(node, "cuda"):
        return True
    if method_call(node, "to"):
        dev = node.args[0] if node.args else keyword(node, "device")
        return isinstance(dev, ast.Constant) and str(dev.value).startswith("cuda")
    return False


def _to_cpu(node: ast.AST) -> bool:
    if method_call(node, "cpu"):
        return True
    if isinstance(node, ast.Call) and method_call(node, "to"):
        dev = node.args[0] if node.args else keyword(node, "device")
        return isinstance(dev, ast.Constant) and str(dev.value) == "cpu"
    return False


@rule(
    "TD032",
    "numpy-on-cuda-tensor",
    "numpy-cuda-tensor",
    message={
        "en": "`{code}` is on the GPU; NumPy can only read CPU memory: call .cpu() before .numpy()",
        "zh": "`{code}` 在 GPU 上；NumPy 只能读 CPU 内存：在 .numpy() 之前调用 .cpu()",
    },
    why={
        "en": "`.numpy()` shares the tensor's memory with a NumPy array, and NumPy only knows CPU "
        "memory: on a CUDA tensor it fails with \"can't convert cuda:0 device type tensor to "
        'numpy. Use Tensor.cpu() to copy the tensor to host memory first."',
        "zh": "`.numpy()` 让 NumPy 数组和 tensor 共享内存，而 NumPy 只认识 CPU 内存：对 CUDA "
        "tensor 调用会报 "
        "\"can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor "
        'to host memory first."。',
    },
    fix={
        "en": "Copy it to the CPU first: `t.detach().cpu().numpy()`.",
        "zh": "先复制到 CPU：`t.detach().cpu().numpy()`。",
    },
    bad="""
x = torch.randn(3).cuda().numpy()
""",
    good="""
x = torch.randn(3).cuda().cpu().numpy()
""",
)
def numpy_on_cuda_tensor(ctx: Context) -> Iterator[Hit]:
    for call in ctx.calls:
        if (
            method_call(call, "numpy") is not None
            and not call.args
            and (_on_cuda(ctx, receiver(call)) or flow(ctx).on_cuda(receiver(call)))
        ):
            yield Hit(call)


def _on_cuda(ctx: Context, node: ast.AST) -> bool:
    """The chain moves the tensor to CUDA and not back (`x.cuda().detach()`), itself or in the
    expression the name at its start was bound to."""
    for _ in range(2):
        base: ast.AST = node
        for link in _chain(node):
            if _to_cpu(link):
                return False
            if _to_cuda(link):
                return True
            base = _inner(link)
        value = ctx.reaching(base) if isinstance(base, ast.Name) else None
        if value is None:
            return False
        node = value
    return False


_TENSOR_FACTORIES = frozenset(
    "torch." + n
    for n in (
        "tensor",
        "as_tensor",
        "from_numpy",
        "randn",
        "rand",
        "randint",
        "zeros",
        "ones",
        "empty",
        "full",
        "arange",
        "linspace",
        "eye",
        "stack",
        "cat",
    )
)
_MOVES = ("to", "cuda", "cpu", "half", "float", "double", "long", "int", "bfloat16")


def _is_tensor_name(ctx: Context, node: ast.Name) -> bool:
    """Bound in its scope only to a torch factory's result, or to an item unpacked from a batch
    of a DataLoader (`for x, y in loader`)."""
    scope = ctx.scope_of(node)
    values = ctx.bindings(scope).get(node.id, [])
    if not values:
        return False
    if all(isinstance(v, ast.Call) and ctx.qualname(v.func) in _TENSOR_FACTORIES for v in values):
        return True
    if any(v is not None for v in values):
        return False
    return _batch_item(ctx, node.id, scope)


def _batch_item(ctx: Context, name: str, scope: ast.AST) -> bool:
    """`name` is only bound by unpacking what a loop over a DataLoader yields."""
    from .data import DATALOADER

    found = False
    for loop in ctx.loops:
        if not isinstance(loop, ast.For) or ctx.scope_of(loop) is not scope:
            continue
        target, it = loop.target, loop.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate":
            if not it.args or not isinstance(target, ast.Tuple) or len(target.elts) != 2:
                continue
            it, target = it.args[0], target.elts[1]
        if not isinstance(target, ast.Tuple):
            continue
        names = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        if name not in names:
            continue
        if not (ctx.instance_of(it, DATALOADER) or "loader" in (name_of(it) or "").lower()):
            return False
        found = True
    return found


@rule(
    "TD033",
    "tensor-move-discarded",
    "device-mismatch",
    message={
        "en": "`{code}` returns a new tensor and the result is thrown away: write "
        "`{name} = {code}`",
        "zh": "`{code}` 返回的是一个新的 tensor，结果却被丢掉了：要写成 `{name} = {code}`",
    },
    why={
        "en": "`Module.to()` moves a model in place, but `Tensor.to()`, `.cuda()`, `.float()` "
        "and the like return a *new* tensor and leave the original where it was. As a "
        "statement on its own the call does nothing, and the next operation mixes devices "
        '("Expected all tensors to be on the same device") or dtypes.',
        "zh": "`Module.to()` 会原地移动模型，但 `Tensor.to()`、`.cuda()`、`.float()` 等返回的"
        "是**新的** "
        "tensor，原来的 tensor 不动。单独写成一条语句什么都不会发生，之后的运算就会混用设备"
        '（"Expected all tensors to be on the same device"）或者 dtype。',
    },
    fix={
        "en": "Assign the result: `x = x.to(device)`.",
        "zh": "把结果赋值回去：`x = x.to(device)`。",
    },
    bad="""
for x, y in loader:
    x.to(device)
    y.to(device)
""",
    good="""
for x, y in loader:
    x = x.to(device)
    y = y.to(device)
""",
)
def tensor_move_discarded(ctx: Context) -> Iterator[Hit]:
    for stmt in ctx.expr_stmts:
        call = method_call(stmt.value, *_MOVES)
        if call is None or (call.keywords and keyword(call, "non_blocking") is None):
            continue
        r = receiver(call)
        if isinstance(r, ast.Name) and _is_tensor_name(ctx, r):
            yield Hit(call, {"name": r.id})


# A drive letter, then a backslash or the control character a backslash escape turned it into.
_DRIVE = compile_cached(r"^[A-Za-z]:[\\\a\b\t\n\v\f\r]")
_CONTROL = compile_cached(r"[\a\b\t\n\v\f\r]")
_PATH_KEYWORDS = frozenset(
    {"f", "file", "path", "filepath", "filepath_or_buffer", "fname", "filename", "root", "dir",
     "name", "fp", "pretrained", "checkpoint", "checkpoint_path", "weights"}
)  # fmt: skip
_PATH_FUNCS = (
    "open",
    "load",
    "save",
    "Path",
    "join",
    "listdir",
    "makedirs",
    "exists",
    "isfile",
    "isdir",
    "read_csv",
    "ImageFolder",
    "imread",
)
_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\v": "\\v",
    "\f": "\\f",
    "\r": "\\r",
}


@rule(
    "TD034",
    "windows-path-escape",
    "windows-path-escape",
    message={
        "en": "`{code}`: in a normal string `{escape}` is an escape sequence, not a backslash and "
        'a letter; use a raw string r"..." or forward slashes',
        "zh": "`{code}`：普通字符串里的 `{escape}` 是转义字符，不是反斜杠加字母；"
        '用原始字符串 r"..." 或者正斜杠',
    },
    why={
        "en": "In a Python string, `\\t`, `\\n`, `\\r`, `\\b`, `\\f`, `\\a` and `\\v` are control "
        'characters. The Windows path `"C:\\data\\train\\model.pt"` silently becomes '
        '`C:\\data<TAB>rain\\model.pt`, and opening it fails with "No such file or directory" '
        'or "Invalid argument".',
        "zh": "在 Python 字符串里，`\\t`、`\\n`、`\\r`、`\\b`、`\\f`、`\\a`、`\\v` 都是控制字符"
        "。Windows 路径 "
        '`"C:\\data\\train\\model.pt"` 会悄悄变成 `C:\\data<TAB>rain\\model.pt`，打开时报 '
        '"No such file or directory" 或 "Invalid argument"。',
    },
    fix={
        "en": 'Write `r"C:\\data\\train\\model.pt"`, or `"C:/data/train/model.pt"` (Windows '
        "accepts forward slashes), or build it with `pathlib.Path`.",
        "zh": '写成 `r"C:\\data\\train\\model.pt"`，或者 `"C:/data/train/model.pt"`（Windows 也'
        "认正斜杠），"
        "或者用 `pathlib.Path` 拼路径。",
    },
    bad=r"""
model.load_state_dict(torch.load("C:\models\new\best.pt"))
""",
    good=r"""
model.load_state_dict(torch.load(r"C:\models\new\best.pt"))
""",
)
def windows_path_escape(ctx: Context) -> Iterator[Hit]:
    for node in ctx.strings:
        value = str(node.value)
        bad = _CONTROL.search(value)
        if bad is None or "\\" not in ctx.lines[node.lineno - 1]:
            continue
        parent = ctx.parents.get(node)
        if isinstance(parent, ast.JoinedStr):
            continue
        if not _DRIVE.match(value) and not _path_argument(ctx, node, parent):
            continue
        if any(c in value for c in " \n") and not _DRIVE.match(value):
            continue
        if _is_raw(ctx, node):
            continue
        yield Hit(node, {"escape": _ESCAPES[bad.group()]})


def _path_argument(ctx: Context, node: ast.AST, parent: ast.AST | None) -> bool:
    if isinstance(parent, ast.keyword):
        # `read_csv(path, sep="\t")`: a separator, a line terminator, never the path
        if parent.arg not in _PATH_KEYWORDS:
            return False
        parent = ctx.parents.get(parent)
    elif (
        isinstance(parent, ast.Call)
        and not (parent.args and parent.args[0] is node)
        and not (isinstance(parent.func, ast.Attribute) and parent.func.attr in ("join", "Path"))
    ):
        return False  # the path is the first argument; a later one is a mode, a separator...
    if not isinstance(parent, ast.Call):
        return False
    if not _CONTROL.sub("", str(getattr(node, "value", ""))).strip():
        return False  # nothing but control characters: "\t" is meant as a tab
    f = parent.func
    called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return called in _PATH_FUNCS


def _is_raw(ctx: Context, node: ast.Constant) -> bool:
    line = ctx.lines[node.lineno - 1].encode("utf-8")[node.col_offset : node.col_offset + 3]
    prefix = line.decode("utf-8", "replace").split('"', 1)[0].split("'", 1)[0]
    return "r" in prefix.lower()


@rule(
    "TD035",
    "windows-path-unicode-escape",
    "windows-path-escape",
    message={
        "en": "`{code}`: SyntaxError, `\\U` or `\\N` in a normal string starts a unicode escape "
        '(a Windows path such as "C:\\Users\\..."); use a raw string r"..." or forward slashes',
        "zh": "`{code}`：SyntaxError，普通字符串里的 `\\U` 或 `\\N` 会被当成 unicode 转义"
        '（比如 Windows 路径 "C:\\Users\\..."）；用原始字符串 r"..." 或者正斜杠',
    },
    why={
        "en": "In a normal string `\\U` must be followed by eight hex digits and `\\N` by a "
        'character name in braces. A Windows path such as `"C:\\Users\\me\\data.csv"` is '
        'therefore not even valid Python: the file fails to compile with "SyntaxError: (unicode '
        "error) 'unicodeescape' codec can't decode bytes in position 2-3: truncated "
        '\\UXXXXXXXX escape", before a single line runs.',
        "zh": "普通字符串里的 `\\U` 后面必须跟 8 位十六进制数字，`\\N` 后面必须跟花括号里的字符名"
        '。所以 `"C:\\Users\\me\\data.csv"` 这样的 Windows 路径根本不是合法的 Python：整个文件'
        "编译失败，报 \"SyntaxError: (unicode error) 'unicodeescape' codec can't decode bytes in "
        'position 2-3: truncated \\UXXXXXXXX escape"，一行都不会执行。',
    },
    fix={
        "en": 'Write `r"C:\\Users\\me\\data.csv"`, or `"C:/Users/me/data.csv"`, or double each '
        "backslash.",
        "zh": '写成 `r"C:\\Users\\me\\data.csv"`，或者 `"C:/Users/me/data.csv"`，或者把每个反斜杠'
        "写两遍。",
    },
    bad=r"""
data = open("C:\Users\me\data.csv")
""",
    good=r"""
data = open(r"C:\Users\me\data.csv")
""",
)
def windows_path_unicode_escape(ctx: Context) -> Iterator[Hit]:
    """Reported by the engine from the parser's SyntaxError: a file that has one never parses."""
    return iter(())
