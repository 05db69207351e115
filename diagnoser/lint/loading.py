"""Rules on saving, loading and APIs that moved: a state_dict used as a model, a full model
loaded with weights_only, deprecated AMP entry points, private modules torch removed."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from .context import FUNCTIONS, Context, keyword, method_call, name_of, receiver
from .rule import Hit, rule

_MODEL_USES = (
    "eval",
    "train",
    "parameters",
    "named_parameters",
    "to",
    "cuda",
    "forward",
    "modules",
)


@rule(
    "TD050",
    "load-state-dict-result-kept",
    "model-is-state-dict",
    message={
        "en": "`{code}` replaces the model with what load_state_dict returns (the missing and "
        "unexpected keys); call it without assigning",
        "zh": "`{code}` 用 load_state_dict 的返回值（缺失和多余的 key）替换了模型；直接调用，不"
        "要赋值",
    },
    why={
        "en": "`load_state_dict` loads the weights into the model in place and returns a named "
        "tuple of `missing_keys` and `unexpected_keys`. Assigning that back to the model's name "
        "replaces the model, and the next line fails with \"'_IncompatibleKeys' object has no "
        "attribute 'eval'\".",
        "zh": "`load_state_dict` 原地把权重加载进模型，返回的是 `missing_keys` 和 "
        "`unexpected_keys` 组成"
        "的 named tuple。把它赋值回模型的变量名就把模型替换掉了，下一行报 \"'_IncompatibleKeys' "
        "object has no attribute 'eval'\"。",
    },
    fix={
        "en": "`model.load_state_dict(torch.load(path))` on its own line.",
        "zh": "单独一行 `model.load_state_dict(torch.load(path))`。",
    },
    bad="""
model = model.load_state_dict(torch.load("model.pt"))
""",
    good="""
model.load_state_dict(torch.load("model.pt"))
""",
)
def load_state_dict_result_kept(ctx: Context) -> Iterator[Hit]:
    for node in ctx.assigns:
        call = method_call(node.value, "load_state_dict")
        if call is None:
            continue
        model = name_of(receiver(call))
        if model and any(name_of(t) == model for t in node.targets):
            yield Hit(node)


def _used_as_model(ctx: Context, name: str, scope: ast.AST, after: int) -> ast.AST | None:
    """The first use of `name` as a model after line `after`, unless it is bound again first."""
    body = scope.body if hasattr(scope, "body") else []
    later = [n for n in ctx.walk_local(body) if getattr(n, "lineno", 0) > after]
    later.sort(key=lambda n: (n.lineno, n.col_offset))  # type: ignore[attr-defined]
    for n in later:
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store):
            return None
        if isinstance(n, ast.Call):
            if isinstance(n.func, ast.Name) and n.func.id == name:
                return n
            if method_call(n, *_MODEL_USES) and name_of(receiver(n)) == name:
                return n
    return None


def _loads(ctx: Context) -> Iterator[tuple[ast.Assign, ast.Call, ast.AST]]:
    """`m = torch.load(...)` followed, in the same scope, by `m.eval()`, `m(x)`..."""
    for node in ctx.assigns:
        value = node.value
        if not (isinstance(value, ast.Call) and ctx.called(value, "torch.load")):
            continue
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            continue
        name = node.targets[0].id
        scope = ctx.scope_of(node)
        use = _used_as_model(ctx, name, scope, node.lineno)
        if use is not None:
            yield node, value, use


def _state_dict_paths(ctx: Context) -> list[str]:
    """The path expressions (as dumped trees) this file saves a state_dict to."""
    paths = []
    for call in ctx.calls:
        if (
            ctx.called(call, "torch.save")
            and len(call.args) >= 2
            and method_call(call.args[0], "state_dict")
        ):
            paths.append(ast.dump(call.args[1]))
    return paths


def _path_says_state_dict(path: ast.AST | None) -> bool:
    return isinstance(path, ast.Constant) and "state_dict" in str(path.value)


@rule(
    "TD051",
    "state-dict-used-as-model",
    "model-is-state-dict",
    message={
        "en": "`{code}` loads a state_dict (this file saves `.state_dict()` to that path), then "
        "uses it as a model; build the model and call model.load_state_dict(...)",
        "zh": "`{code}` 读出来的是 state_dict（这个文件往那个路径存的是 `.state_dict()`），后面"
        "却把它"
        "当模型用；先构建模型，再调用 model.load_state_dict(...)",
    },
    why={
        "en": "`torch.save(model.state_dict(), path)` stores only the weights, as a dict of "
        "tensors. `torch.load(path)` gives that dict back, not a model: calling it or its "
        "`.eval()` fails with \"'collections.OrderedDict' object has no attribute 'eval'\".",
        "zh": "`torch.save(model.state_dict(), path)` 只保存权重，是一个 tensor 组成的 dict。"
        "`torch.load(path)` 还给你的就是这个 dict，不是模型：调用它或者它的 `.eval()` 会报 "
        "\"'collections.OrderedDict' object has no attribute 'eval'\"。",
    },
    fix={
        "en": "Create the model, then load the weights into it: `model = Net(); "
        "model.load_state_dict(torch.load(path))`.",
        "zh": "先创建模型，再把权重加载进去：`model = Net(); "
        "model.load_state_dict(torch.load(path))`。",
    },
    bad="""
torch.save(model.state_dict(), "net.pt")
model = torch.load("net.pt")
model.eval()
""",
    good="""
torch.save(model.state_dict(), "net.pt")
model = Net()
model.load_state_dict(torch.load("net.pt"))
model.eval()
""",
)
def state_dict_used_as_model(ctx: Context) -> Iterator[Hit]:
    saved = None
    for _node, load, _use in _loads(ctx):
        path = load.args[0] if load.args else keyword(load, "f")
        if saved is None:
            saved = _state_dict_paths(ctx)
        if path is not None and (ast.dump(path) in saved or _path_says_state_dict(path)):
            yield Hit(load)


@rule(
    "TD052",
    "full-model-load-without-weights-only-false",
    "weights-only-load",
    message={
        "en": "`{code}` loads a whole pickled model: since torch 2.6 torch.load defaults to "
        "weights_only=True and refuses it; save and load the state_dict instead",
        "zh": "`{code}` 加载的是整个 pickle 过的模型：从 torch 2.6 起 torch.load 默认 "
        "weights_only=True，会拒绝加载；改成保存和加载 state_dict",
    },
    why={
        "en": "`torch.load` unpickles only tensors and plain containers by default since torch "
        "2.6 (`weights_only=True`), because unpickling arbitrary objects can run arbitrary code. "
        "A file made by `torch.save(model, path)` holds your model class, so loading it fails "
        'with "Weights only load failed ... Unsupported global".',
        "zh": "从 torch 2.6 起，`torch.load` 默认只反序列化 tensor 和普通容器"
        "（`weights_only=True`），"
        "因为反序列化任意对象可能执行任意代码。`torch.save(model, path)` 存下的文件里有你的模型类，"
        '加载时报 "Weights only load failed ... Unsupported global"。',
    },
    fix={
        "en": "Save `model.state_dict()` and load it into a freshly built model. For a file "
        "you made yourself and trust, `torch.load(path, weights_only=False)`.",
        "zh": "保存 `model.state_dict()`，再加载到新建的模型里。如果文件是你自己存的、确定可信，"
        "可以用 `torch.load(path, weights_only=False)`。",
    },
    bad="""
model = torch.load("model.pt")
model.eval()
""",
    good="""
model = Net()
model.load_state_dict(torch.load("model.pt"))
model.eval()
""",
)
def full_model_load_without_weights_only_false(ctx: Context) -> Iterator[Hit]:
    saved = None
    if any(ctx.called(c, *_ALLOW) for c in ctx.calls):
        return  # the file allow-lists its classes for weights_only loading
    for _node, load, _use in _loads(ctx):
        if keyword(load, "weights_only") is not None:
            continue
        path = load.args[0] if load.args else keyword(load, "f")
        if saved is None:
            saved = _state_dict_paths(ctx)
        if path is not None and (ast.dump(path) in saved or _path_says_state_dict(path)):
            continue  # TD051 says what is really wrong
        yield Hit(load)


_ALLOW = ("torch.serialization.safe_globals", "torch.serialization.add_safe_globals")

_AMP_OLD = {
    "torch.cuda.amp.autocast": 'torch.amp.autocast("cuda")',
    "torch.cuda.amp.GradScaler": 'torch.amp.GradScaler("cuda")',
    "torch.cpu.amp.autocast": 'torch.amp.autocast("cpu")',
    "torch.cpu.amp.GradScaler": 'torch.amp.GradScaler("cpu")',
    "torch.cuda.amp.custom_fwd": 'torch.amp.custom_fwd(device_type="cuda")',
    "torch.cuda.amp.custom_bwd": 'torch.amp.custom_bwd(device_type="cuda")',
}


@rule(
    "TD053",
    "amp-deprecated-api",
    "amp-deprecated-api",
    message={
        "en": "`{code}` is deprecated (FutureWarning since torch 2.4); use {new}",
        "zh": "`{code}` 已经弃用（torch 2.4 起会给出 FutureWarning）；改用 {new}",
    },
    why={
        "en": "`torch.cuda.amp.autocast`, `torch.cuda.amp.GradScaler` and their CPU twins were "
        "folded into the device-generic `torch.amp` in torch 2.4. The old names warn on every "
        'call ("`torch.cuda.amp.autocast(args...)` is deprecated") and will be removed.',
        "zh": "`torch.cuda.amp.autocast`、`torch.cuda.amp.GradScaler` 及对应的 CPU 版本在 torch "
        "2.4 里并入了"
        '与设备无关的 `torch.amp`。旧名字每次调用都会警告（"`torch.cuda.amp.autocast(args...)` '
        'is deprecated"），以后会被删除。',
    },
    fix={
        "en": '`torch.amp.autocast("cuda", dtype=torch.float16)`, `torch.amp.GradScaler("cuda")`.',
        "zh": '换成 `torch.amp.autocast("cuda", dtype=torch.float16)`'
        '、`torch.amp.GradScaler("cuda")`。',
    },
    bad="""
scaler = torch.cuda.amp.GradScaler()
with torch.cuda.amp.autocast():
    loss = criterion(model(x), y)
""",
    good="""
scaler = torch.amp.GradScaler("cuda")
with torch.amp.autocast("cuda"):
    loss = criterion(model(x), y)
""",
)
def amp_deprecated_api(ctx: Context) -> Iterator[Hit]:
    for call in ctx.calls:
        new = _AMP_OLD.get(ctx.qualname(call.func) or "")
        if new and not _fallback(ctx, call):
            yield Hit(call.func, {"new": new})


def _fallback(ctx: Context, call: ast.Call) -> bool:
    """The old name only runs on a torch too old for the new API: in the `except` of a `try`
    that uses the new one (open_clip: `try: torch.amp.GradScaler(device=device)` / `except
    (AttributeError, TypeError): torch.cuda.amp.GradScaler()`), or in the other branch of an
    if/else on the version (Lightning: `torch.amp.GradScaler(device=device) if
    _TORCH_GREATER_EQUAL_2_4 else torch.cuda.amp.GradScaler()`)."""
    child: ast.AST = call
    for a in ctx.ancestors(call):
        if isinstance(a, ast.ExceptHandler):
            handler_try = ctx.parents.get(a)
            if isinstance(handler_try, ast.Try) and _uses_new_amp(ctx, handler_try.body):
                return True
        elif isinstance(a, ast.If | ast.IfExp) and _VERSION_TEST.search(ast.unparse(a.test)):
            body = a.body if isinstance(a.body, list) else [a.body]
            orelse = a.orelse if isinstance(a.orelse, list) else [a.orelse]
            other = orelse if child in body else body if child in orelse else []
            if _uses_new_amp(ctx, other):
                return True
        elif isinstance(a, FUNCTIONS):
            return False
        child = a
    return False


# what a test on the torch version looks like: `_TORCH_GREATER_EQUAL_2_4`,
# `is_torch_version(">=", "2.3")`, `hasattr(torch, "amp")`, `TORCH_VERSION >= (2, 4)`
_VERSION_TEST = re.compile(r"version|hasattr|GREATER|LESS|\b2[._, ]+\d", re.IGNORECASE)


def _uses_new_amp(ctx: Context, nodes: list[ast.stmt] | list[ast.expr]) -> bool:
    return any(
        isinstance(n, ast.Call | ast.Attribute)
        and (ctx.qualname(n.func if isinstance(n, ast.Call) else n) or "").startswith(
            ("torch.amp.", "torch.autocast")
        )
        for n in ctx.walk_local(nodes)
    )


_REMOVED = {
    "torch._six": "torch 2.0",
    "torch._utils._accumulate": "torch 2.3",
    "torch.utils.data.dataloader._DataLoaderIter": "torch 1.2",
    "torch.utils.ffi": "torch 1.0",
    "torchvision.transforms.functional_tensor": "torchvision 0.17",
    "torchvision.models.utils": "torchvision 0.12",
}


def _removed(name: str) -> str | None:
    for old, since in _REMOVED.items():
        if name == old or name.startswith(old + "."):
            return since
    return None


@rule(
    "TD054",
    "removed-private-api",
    "torch-private-api-removed",
    message={
        "en": "`{code}`: `{module}` was removed in {since}; this import fails on current releases",
        "zh": "`{code}`：`{module}` 在 {since} 里已经删除；在现在的版本上这个 import 会失败",
    },
    why={
        "en": "Names that start with an underscore are torch's internals and disappear between "
        "releases without deprecation. `torch._six` went in torch 2.0, "
        "`torch._utils._accumulate` in 2.3, `torchvision.transforms.functional_tensor` in "
        "torchvision 0.17: importing them raises ModuleNotFoundError or ImportError.",
        "zh": "以下划线开头的名字是 torch 的内部实现，版本之间会直接消失，没有弃用期"
        "。`torch._six` 在 "
        "torch 2.0 删除，`torch._utils._accumulate` 在 2.3"
        "，`torchvision.transforms.functional_tensor` "
        "在 torchvision 0.17：import 它们会报 ModuleNotFoundError 或 ImportError。",
    },
    fix={
        "en": "Use what they stood for: `str` for `string_classes`, `math.inf` for `inf`, "
        "`collections.abc` for `container_abcs`, `itertools.accumulate`, "
        "`torchvision.transforms.functional`, `torch.hub.load_state_dict_from_url`.",
        "zh": "换成它们原本代表的东西：`string_classes` 换成 `str`，`inf` 换成 `math.inf`，"
        "`container_abcs` 换成 `collections.abc`，`itertools.accumulate`、"
        "`torchvision.transforms.functional`、`torch.hub.load_state_dict_from_url`。",
    },
    bad="""
from torch._six import string_classes
""",
    good="""
string_classes = str
""",
)
def removed_private_api(ctx: Context) -> Iterator[Hit]:
    for node in ctx.imports:
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif node.module and not node.level:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            since = _removed(name)
            if since:
                module = next(old for old in _REMOVED if name == old or name.startswith(old + "."))
                yield Hit(node, {"module": module, "since": since})
                break


@rule(
    "TD055",
    "load-refuses-saved-objects",
    "weights-only-load",
    message={
        "en": "`{code}` reads the checkpoints this file saves with {what} in them (line {line}): "
        "since torch 2.6 torch.load defaults to weights_only=True and refuses them; save plain "
        "values (vars(args), state_dict()) or pass weights_only=False for your own files",
        "zh": "`{code}` 读取的是本文件保存的 checkpoint，里面有{what}（第 {line} 行）：从 torch "
        "2.6 起 torch.load 默认 weights_only=True，会拒绝加载；改存普通值（vars(args)、"
        "state_dict()），或者对自己保存的文件传 weights_only=False",
    },
    why={
        "en": "`torch.load` rebuilds only tensors, plain containers and primitive values by "
        "default since torch 2.6. A checkpoint dict that also holds the `argparse.Namespace` of "
        "the run (`'args': args`, as detr, dino and mae save theirs) or a whole model "
        "(`torch.save(model, ...)`) names classes the safe unpickler refuses: resuming fails with "
        '"Weights only load failed ... Unsupported global: GLOBAL argparse.Namespace".',
        "zh": "从 torch 2.6 起，`torch.load` 默认只重建 tensor、普通容器和基本类型的值。"
        "checkpoint 字典里如果还存了这次运行的 `argparse.Namespace`（`'args': args`，detr、dino、"
        "mae 都这样存）或者整个模型（`torch.save(model, ...)`），里面就有安全反序列化拒绝的类："
        '恢复训练时报 "Weights only load failed ... Unsupported global: GLOBAL '
        'argparse.Namespace"。',
    },
    fix={
        "en": "Save `vars(args)` (a dict) and `model.state_dict()`; or, for checkpoints you made "
        "yourself, `torch.load(path, map_location='cpu', weights_only=False)`, or allow-list "
        "the class: `torch.serialization.add_safe_globals([argparse.Namespace])`.",
        "zh": "保存 `vars(args)`（一个 dict）和 `model.state_dict()`；或者对自己生成的 "
        "checkpoint 用 `torch.load(path, map_location='cpu', weights_only=False)`，或者把这个类"
        "加入白名单：`torch.serialization.add_safe_globals([argparse.Namespace])`。",
    },
    bad="""
import argparse
args = argparse.ArgumentParser().parse_args()
torch.save({"model": model.state_dict(), "args": args}, "ckpt.pth")
checkpoint = torch.load("ckpt.pth", map_location="cpu")
""",
    good="""
import argparse
args = argparse.ArgumentParser().parse_args()
torch.save({"model": model.state_dict(), "args": vars(args)}, "ckpt.pth")
checkpoint = torch.load("ckpt.pth", map_location="cpu")
""",
)
def load_refuses_saved_objects(ctx: Context) -> Iterator[Hit]:
    if any(ctx.called(c, *_ALLOW) for c in ctx.calls):
        return
    saves = _unsafe_saves(ctx)
    if not saves:
        return
    flagged = {id(load) for _n, load, _u in _loads(ctx)}  # TD052's, when it applies
    for call in ctx.calls:
        if not ctx.called(call, "torch.load") or keyword(call, "weights_only") is not None:
            continue
        path = call.args[0] if call.args else keyword(call, "f")
        for line, what, saved_to in saves:
            if what is _WHOLE_MODEL and (
                id(call) in flagged
                or path is None
                or f"{id(ctx.scope_of(call))}:{ast.dump(path)}" != saved_to
            ):
                continue  # a whole model: only the load of that very path
            yield Hit(call, {"what": what, "line": str(line)})
            break


_NAMESPACE = {"en": "an argparse.Namespace", "zh": " argparse.Namespace "}
_WHOLE_MODEL = {"en": "a whole model", "zh": "整个模型"}


def _unsafe_saves(ctx: Context) -> list[tuple[int, dict[str, str], str]]:
    """The first save of this file whose object the safe unpickler refuses: a dict with a
    Namespace (`'args': args` where args comes from parse_args()) or a whole module in it, or
    `torch.save(model, path)`. The save may go through a helper (`save_on_master`)."""
    from .flow import flow

    fl = flow(ctx)
    namespaces = _namespace_names(ctx)
    found: list[tuple[int, dict[str, str], str]] = []
    for call in sorted(ctx.calls, key=lambda c: c.lineno):
        callee = (name_of(call.func) or "").rsplit(".", 1)[-1]
        if not call.args or "save" not in callee.lower():
            continue
        obj = call.args[0]
        if isinstance(obj, ast.Name):  # to_save = {...}; save_on_master(to_save, path)
            bound = fl.values(obj)
            if bound and len(bound) == 1 and isinstance(bound[0], ast.Dict):
                obj = bound[0]
        values = obj.values if isinstance(obj, ast.Dict) else [obj]
        # a whole model's path counts in its own function only (`fname` means many files)
        path = f"{id(ctx.scope_of(call))}:{ast.dump(call.args[1])}" if len(call.args) > 1 else ""
        for v in values:
            if (
                isinstance(v, ast.Name)
                and isinstance(obj, ast.Dict)
                and (v.id in namespaces or _attribute_object(ctx, v))
            ):
                found.append((call.lineno, _NAMESPACE, path))
                break
            if (
                isinstance(v, ast.Name | ast.Attribute)
                and ctx.called(call, "torch.save") | isinstance(obj, ast.Dict)
                and fl.is_module(v)
            ):
                found.append((call.lineno, _WHOLE_MODEL, path))
                break
    return found


_DICT_METHODS = frozenset(("items", "keys", "values", "get", "update", "pop", "copy", "setdefault"))


def _attribute_object(ctx: Context, name: ast.Name) -> bool:
    """`args` / `cfg` read through attributes in its function (`args.resume`, `args.lr`): a
    Namespace-like object (argparse, a config class, an EasyDict), never a plain container,
    and its class is what weights_only refuses. Names only: `{'args': args}` in mae's
    util/misc.py save_model(args, ...)."""
    if name.id not in ("args", "opt", "opts", "cfg", "config", "hparams", "hps"):
        return False
    scope = ctx.scope_of(name)
    return any(
        isinstance(n, ast.Attribute)
        and isinstance(n.value, ast.Name)
        and n.value.id == name.id
        and n.attr not in _DICT_METHODS
        and not isinstance(ctx.parents.get(n), ast.Call)
        for n in ctx.walk_local(getattr(scope, "body", []))
    )


def _namespace_names(ctx: Context) -> set[str]:
    """Names bound to `parser.parse_args()` in this file, and parameters named `args` of its
    functions when the file parses its arguments (`main(args)` after `args = parse_args()`)."""
    found: set[str] = set()
    for node in ctx.assigns:
        if method_call(node.value, "parse_args") is not None:
            for t in node.targets:
                if isinstance(t, ast.Name):
                    found.add(t.id)
    if found:
        found |= {"args"}
    return found
