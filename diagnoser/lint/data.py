"""Rules on the input pipeline: DataLoader workers started at import time, worker functions that
cannot be pickled, transform classes passed where instances are expected."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .context import FUNCTIONS, SCOPES, Context, keyword
from .rule import Hit, rule

DATALOADER = frozenset(
    {"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader", "DataLoader"}
)
SPAWN = frozenset({"torch.multiprocessing.spawn", "torch.multiprocessing.start_processes"})


def _forked(call: ast.Call) -> bool:
    """`multiprocessing_context="fork"`: the workers never re-import the script."""
    context = keyword(call, "multiprocessing_context")
    return isinstance(context, ast.Constant) and context.value == "fork"


def _workers(call: ast.Call) -> ast.expr | None:
    """The num_workers argument when it may be above 0 (absent or a literal 0: None)."""
    n = keyword(call, "num_workers")
    if n is None and len(call.args) > 5:
        n = call.args[
            5
        ]  # DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers)
    if n is None or (isinstance(n, ast.Constant) and not n.value):
        return None
    return n


def _is_main_guard(node: ast.AST) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    parts = [node.test.left, *node.test.comparators]
    return any(isinstance(p, ast.Name) and p.id == "__name__" for p in parts) and any(
        isinstance(p, ast.Constant) and p.value == "__main__" for p in parts
    )


def _import_time(tree: ast.Module) -> list[ast.stmt]:
    """The module's statements that run on import (what a spawned worker re-runs): all but
    definitions and the `if __name__ == "__main__":` block."""
    return [
        s
        for s in tree.body
        if not isinstance(s, (*FUNCTIONS, ast.ClassDef, ast.Import, ast.ImportFrom))
        and not _is_main_guard(s)
    ]


def _unguarded(ctx: Context, stmts: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of these statements outside any `if __name__ == "__main__":`, however nested."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = list(reversed(stmts))
    while stack:
        node = stack.pop()
        if isinstance(node, SCOPES) or (isinstance(node, ast.If) and _is_main_guard(node)):
            continue
        found.append(node)
        stack.extend(reversed(ctx.children.get(node, [])))
    return found


@rule(
    "TD020",
    "workers-started-at-import",
    "spawn-main-guard",
    message={
        "en": "`{code}` starts worker processes ({what}) at import time, outside `if __name__ == "
        '"__main__":`; '
        "with the spawn start method (Windows, macOS) each worker re-imports this file and fails",
        "zh": '`{code}` 在 import 时（`if __name__ == "__main__":` 之外）就启动了子进程（{what}）；'
        "用 spawn 方式（Windows、macOS）启动时，每个 worker 都会重新 import 这个文件，然后报错",
    },
    why={
        "en": "With the spawn start method, the default on Windows and macOS, every DataLoader "
        "worker (and every process of `torch.multiprocessing.spawn`) starts a fresh interpreter "
        "and imports your script. Code at the top level that starts workers would start them "
        'again inside each worker, so Python stops with "An attempt has been made to start a new '
        'process before the current process has finished its bootstrapping phase".',
        "zh": "spawn 是 Windows 和 macOS 上的默认启动方式：每个 DataLoader worker（以及 "
        "`torch.multiprocessing.spawn` 的每个进程）都会启动一个新的解释器并 import 你的脚本。"
        '顶层代码里启动 worker，会在每个 worker 里再启动一遍，于是 Python 报 "An attempt has been '
        "made to start a new process before the current process has finished its bootstrapping "
        'phase"。',
    },
    fix={
        "en": "Put the code that runs the training in a function and call it under `if __name__ "
        '== "__main__":`.',
        "zh": '把运行训练的代码放进一个函数，在 `if __name__ == "__main__":` 下面调用它。',
    },
    bad="""
loader = DataLoader(dataset, batch_size=32, num_workers=4)
for x, y in loader:
    train_step(x, y)
""",
    good="""
def main():
    loader = DataLoader(dataset, batch_size=32, num_workers=4)
    for x, y in loader:
        train_step(x, y)


if __name__ == "__main__":
    main()
""",
)
def workers_started_at_import(ctx: Context) -> Iterator[Hit]:
    top = _import_time(ctx.tree)
    if not top:
        return
    # functions of this module, called at import time, that start workers themselves
    nodes = _unguarded(ctx, top)
    called = {n.func.id for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    starters: dict[str, str] = {}
    for f in ctx.tree.body:
        if isinstance(f, FUNCTIONS) and f.name in called:
            for n in ctx.walk_local(f.body):
                what = _starts_workers(ctx, n)
                if what:
                    starters[f.name] = what
                    break
    loaders: set[str] = set()
    for n in nodes:
        if (
            isinstance(n, ast.Assign)
            and isinstance(n.value, ast.Call)
            and ctx.qualname(n.value.func) in DATALOADER
            and _workers(n.value) is not None
            and not _forked(n.value)
        ):
            loaders.update(t.id for t in n.targets if isinstance(t, ast.Name))
    for n in nodes:
        if isinstance(n, ast.For | ast.AsyncFor | ast.comprehension):
            used = {x.id for x in ast.walk(n.iter) if isinstance(x, ast.Name)}
            if used & loaders:
                yield Hit(n.iter, {"what": "DataLoader"})
        elif isinstance(n, ast.Call):
            what = _starts_workers(ctx, n)
            if what == "torch.multiprocessing.spawn":
                yield Hit(n, {"what": what})
            elif isinstance(n.func, ast.Name) and n.func.id in starters:
                yield Hit(n, {"what": starters[n.func.id]})


def _starts_workers(ctx: Context, node: ast.AST) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    q = ctx.qualname(node.func)
    if q in DATALOADER and _workers(node) is not None and not _forked(node):
        return "DataLoader"
    if q in SPAWN:
        return "torch.multiprocessing.spawn"
    return None


@rule(
    "TD021",
    "unpicklable-worker-function",
    "pickle-local-object",
    message={
        "en": "`{code}` is a {kind}, which cannot be pickled to DataLoader workers started with "
        "spawn (Windows, macOS); define it at module level",
        "zh": "`{code}` 是{kind}，用 spawn 方式（Windows、macOS）启动 DataLoader worker 时无法被 "
        "pickle；"
        "把它定义在模块顶层",
    },
    why={
        "en": "With `num_workers > 0` the DataLoader sends the dataset and its functions "
        "(`collate_fn`, `worker_init_fn`) to each worker. Under spawn they travel by pickle, "
        "which stores a function by its importable name: a lambda or a function defined inside "
        'another function has none, and the loader fails with "Can\'t pickle local object" '
        'or "Can\'t pickle <function <lambda>>".',
        "zh": "`num_workers > 0` 时，DataLoader 要把 dataset 及其函数（`collate_fn`、"
        "`worker_init_fn`）发给每个 worker。spawn 方式下靠 pickle 传递，而 pickle 按可 import 的"
        "名字"
        "保存函数：lambda 和定义在函数内部的函数都没有这样的名字，于是报 \"Can't pickle local "
        'object" 或 "Can\'t pickle <function <lambda>>"。',
    },
    fix={
        "en": "Define the function at module level (use `functools.partial` for its extra "
        "arguments), or a callable class defined at module level.",
        "zh": "把函数定义在模块顶层（额外参数用 `functools.partial` 绑定），或者用定义在模块顶层"
        "的可调用类。",
    },
    bad="""
loader = DataLoader(ds, batch_size=8, num_workers=2, collate_fn=lambda b: pad(b, 0))
""",
    good="""
def collate(batch):
    return pad(batch, 0)


loader = DataLoader(ds, batch_size=8, num_workers=2, collate_fn=collate)
""",
)
def unpicklable_worker_function(ctx: Context) -> Iterator[Hit]:
    for call in ctx.calls:
        if ctx.qualname(call.func) not in DATALOADER or _workers(call) is None:
            continue
        scope = ctx.scope_of(call)
        local_defs = (
            {n.name for n in ctx.walk_local(scope.body) if isinstance(n, FUNCTIONS)}
            if isinstance(scope, FUNCTIONS)
            else set()
        )
        for arg in ("collate_fn", "worker_init_fn"):
            fn = keyword(call, arg)
            if fn is None:
                continue
            value = ctx.value_of(fn) if isinstance(fn, ast.Name) else None
            if isinstance(fn, ast.Lambda) or isinstance(value, ast.Lambda):
                yield Hit(fn, {"kind": _KIND["lambda"]})
            elif isinstance(fn, ast.Name) and fn.id in local_defs:
                yield Hit(fn, {"kind": _KIND["local"]})


_KIND = {
    "lambda": {"en": "lambda", "zh": " lambda "},
    "local": {"en": "local function", "zh": "局部函数"},
}


def _transform_class(ctx: Context, node: ast.AST) -> str | None:
    if not isinstance(node, ast.Attribute | ast.Name):
        return None
    q = ctx.qualname(node) or ""
    if not q.startswith("torchvision.transforms."):
        return None
    last = q.rsplit(".", 1)[1]
    return last if last[:1].isupper() else None


@rule(
    "TD022",
    "transform-class-not-instance",
    "transform-class-not-instance",
    message={
        "en": "`{code}` is the transform class, not a transform: write `{code}()`",
        "zh": "`{code}` 是变换的类，不是变换本身：要写成 `{code}()`",
    },
    why={
        "en": "`transforms.Compose` calls each item on the image. An item that is the class "
        "`transforms.ToTensor` instead of an instance `transforms.ToTensor()` is called with the "
        "image as its constructor's argument: it returns a transform object instead of a "
        'tensor, and the DataLoader fails later with "default_collate: batch must contain '
        "tensors, numpy arrays, numbers, dicts or lists; found <class "
        "'torchvision.transforms.transforms.ToTensor'>\" (or a TypeError from the constructor).",
        "zh": "`transforms.Compose` 会依次用每一项去处理图片。如果某一项是类 "
        "`transforms.ToTensor` 而不是"
        "实例 `transforms.ToTensor()`，图片就被当成了构造函数的参数：返回的是一个变换对象而不是 "
        'tensor，DataLoader 随后报 "default_collate: batch must contain tensors, numpy arrays, '
        "numbers, dicts or lists; found <class 'torchvision.transforms.transforms.ToTensor'>\""
        "（或者构造函数报 TypeError）。",
    },
    fix={
        "en": "Instantiate every transform: `transforms.ToTensor()`, `transforms.Normalize(mean, "
        "std)`.",
        "zh": "每个变换都要实例化：`transforms.ToTensor()`、`transforms.Normalize(mean, std)`。",
    },
    bad="""
transform = transforms.Compose([transforms.Resize(224), transforms.ToTensor])
""",
    good="""
transform = transforms.Compose([transforms.Resize(224), transforms.ToTensor()])
""",
)
def transform_class_not_instance(ctx: Context) -> Iterator[Hit]:
    for call in ctx.calls:
        q = ctx.qualname(call.func) or ""
        items: list[ast.expr] = []
        if q.startswith("torchvision.transforms.") and q.endswith(
            (".Compose", ".RandomApply", ".RandomChoice", ".RandomOrder")
        ):
            for arg in call.args[:1]:
                if isinstance(arg, ast.List | ast.Tuple):
                    items += arg.elts
        items += [k.value for k in call.keywords if k.arg in ("transform", "target_transform")]
        for item in items:
            if _transform_class(ctx, item):
                yield Hit(item)
