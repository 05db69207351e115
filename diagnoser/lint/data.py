"""Rules on the input pipeline: DataLoader workers started at import time, worker functions that
cannot be pickled, transform classes passed where instances are expected, a Dataset's own random
generator copied into every worker."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .context import FUNCTIONS, SCOPES, Context, keyword, name_of
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


# Generators that carry their own state. torch seeds only its own default generator, `random`'s
# and numpy's global one in each worker (torch/utils/data/_utils/worker.py, since torch 1.9); an
# object of these classes is copied into the worker with the state it had.
_GENERATORS = frozenset(
    {
        "numpy.random.default_rng",
        "numpy.random.RandomState",
        "numpy.random.Generator",
        "random.Random",
        "torch.Generator",
    }
)
# methods that set a generator's state rather than draw from it
_RESEEDS = frozenset(
    {"seed", "manual_seed", "set_state", "setstate", "__setstate__", "bit_generator"}
)
_DRAWS_IN: tuple[str, ...] = ("__getitem__", "__getitems__", "__iter__")  # run in workers


def _generator(ctx: Context, value: ast.expr) -> bool:
    """`np.random.default_rng(seed)`, `random.Random(0)`, `torch.Generator().manual_seed(0)`."""
    if not isinstance(value, ast.Call):
        return False
    f = value.func
    if isinstance(f, ast.Attribute) and f.attr == "manual_seed" and isinstance(f.value, ast.Call):
        return ctx.qualname(f.value.func) == "torch.Generator"
    return ctx.qualname(f) in _GENERATORS


@rule(
    "TD023",
    "dataset-generator-copied-to-workers",
    "workers-same-augmentation",
    message={
        "en": "`{code}` is made once in `__init__` and drawn from in `{method}`; with "
        "`num_workers={workers}` every DataLoader worker gets a copy in the same state, so the "
        "workers draw the same random numbers (and, without `persistent_workers=True`, the same "
        "again every epoch)",
        "zh": "`{code}` 只在 `__init__` 里创建一次，却在 `{method}` 里取随机数；"
        "`num_workers={workers}` 时每个 DataLoader worker 拿到的都是同一状态的拷贝，"
        "各 worker 抽到的随机数一模一样（没有 `persistent_workers=True` 时，每个 epoch 还都重复）",
    },
    why={
        "en": "With `num_workers > 0` each worker process gets its own copy of the Dataset. torch "
        "seeds its own generator, Python's `random` and numpy's global generator differently in "
        "each worker (since torch 1.9), so `torch.rand`, `random.random()` and `np.random.rand()` "
        "in `__getitem__` are fine. A generator object the Dataset makes in `__init__` "
        "(`np.random.default_rng(seed)`, `np.random.RandomState(seed)`, `random.Random(seed)`, "
        "`torch.Generator().manual_seed(seed)`) is copied as it is, under fork and spawn alike: "
        "every worker draws the same sequence, so sample 0 of each worker gets the same crop, "
        "flip or noise. The main process never draws from it, so workers started anew each epoch "
        "(the default, without `persistent_workers=True`) repeat the same numbers every epoch, "
        "even with one worker. A transform object the Dataset holds is copied with it, and its "
        "own generator repeats the same way. Nothing fails; training sees far fewer distinct "
        "augmentations.",
        "zh": "`num_workers > 0` 时，每个 worker 进程都拿到一份 Dataset 的拷贝。"
        "torch 在每个 worker 里给自己的生成器、Python 的 `random` 和 numpy 的全局生成器"
        "设了不同的种子（torch 1.9 起），"
        "所以在 `__getitem__` 里用 `torch.rand`、`random.random()`、`np.random.rand()` 没问题。"
        "但 Dataset 在 `__init__` 里创建的生成器对象（`np.random.default_rng(seed)`、"
        "`np.random.RandomState(seed)`、`random.Random(seed)`、"
        "`torch.Generator().manual_seed(seed)`）会原样拷贝过去，fork 和 spawn 都一样："
        "每个 worker 抽到同一串随机数，各 worker 的第 0 个样本得到同样的裁剪、翻转或噪声。"
        "主进程从不从它取数，所以每个 epoch 重新启动的 worker（默认如此，除非 "
        "`persistent_workers=True`）每轮都重复同样的随机数，只有一个 worker 也一样。"
        "Dataset 持有的 transform 对象也会随它一起拷贝，它自己的生成器同样会重复。"
        "不会报错，只是模型见到的不同增强少得多。",
    },
    fix={
        "en": "Re-create the generator in each worker from the seed torch gives it, with a "
        "`worker_init_fn`: `info = torch.utils.data.get_worker_info(); info.dataset.rng = "
        "np.random.default_rng(info.seed)`. Or draw from torch's generator (`torch.rand`, "
        "`torch.randint`), which torch seeds per worker.",
        "zh": "用 `worker_init_fn` 在每个 worker 里按 torch 给的种子重新创建生成器："
        "`info = torch.utils.data.get_worker_info(); info.dataset.rng = "
        "np.random.default_rng(info.seed)`。或者改用 torch 的生成器（`torch.rand`、"
        "`torch.randint`），torch 会给每个 worker 设不同的种子。",
    },
    bad="""
import numpy as np


class Noisy(torch.utils.data.Dataset):
    def __init__(self, x):
        self.x = x
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i] + self.rng.normal(size=self.x[i].shape)


loader = DataLoader(Noisy(x), batch_size=32, num_workers=4)
""",
    good="""
import numpy as np


class Noisy(torch.utils.data.Dataset):
    def __init__(self, x):
        self.x = x
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i] + self.rng.normal(size=self.x[i].shape)


def seed_worker(worker_id):
    info = torch.utils.data.get_worker_info()
    info.dataset.rng = np.random.default_rng(info.seed)


loader = DataLoader(Noisy(x), batch_size=32, num_workers=4, worker_init_fn=seed_worker)
""",
)
def dataset_generator_copied_to_workers(ctx: Context) -> Iterator[Hit]:
    loaders = [c for c in ctx.calls if ctx.qualname(c.func) in DATALOADER]
    # a worker_init_fn anywhere in the file may re-seed the generator: stay quiet
    if any(_given(keyword(c, "worker_init_fn")) for c in loaders):
        return
    for cls in ctx.classes:
        methods = {f.name for f in cls.body if isinstance(f, FUNCTIONS)}
        if methods.intersection(_DRAWS_IN):
            workers, drawing = _workers_loading(ctx, cls, loaders), _DRAWS_IN
        elif methods.intersection(_TRANSFORM_CALLS) and _given_to_a_dataset(ctx, cls):
            # a transform a Dataset holds is copied into the workers with it
            workers, drawing = next(filter(None, map(_workers, loaders)), None), _TRANSFORM_CALLS
        else:
            continue
        if workers is not None:
            for hit in _copied_generators(ctx, cls, drawing):
                hit.values["workers"] = ctx.snippet(workers)
                yield hit


_TRANSFORM_CALLS = ("__call__", "forward")  # what a transform object runs on each sample
_TRANSFORM_KEYWORDS = frozenset({"transform", "transforms", "target_transform", "augment"})


def _given_to_a_dataset(ctx: Context, cls: ast.ClassDef) -> bool:
    """An instance of the class is made where a Dataset will hold it: in a Compose list or a
    `transform=` argument, or inside a Dataset class of this file (`self.aug = Jitter()`). One
    made anywhere else (an augmentation applied to batches in the training loop, a layer) runs
    in the main process."""
    datasets = _dataset_classes(ctx)
    names = {c.name for c in datasets}
    for call in ctx.calls:
        if not (isinstance(call.func, ast.Name) and call.func.id == cls.name):
            continue
        parent = ctx.parents.get(call)
        if isinstance(parent, ast.keyword):
            if parent.arg in _TRANSFORM_KEYWORDS:
                return True
            parent = ctx.parents.get(parent)
        if isinstance(parent, ast.Call) and name_of(parent.func) in names:
            return True  # MyDataset(root, Jitter())
        if isinstance(parent, ast.List | ast.Tuple):
            holder = ctx.parents.get(parent)
            if isinstance(holder, ast.Call) and (ctx.qualname(holder.func) or "").endswith(
                "Compose"
            ):
                return True
        if any(a in datasets for a in ctx.ancestors(call)):
            return True
    return False


def _dataset_classes(ctx: Context) -> list[ast.ClassDef]:
    """The classes of this file whose instances the workers read: those that define how a
    sample is read, and those derived from one of them."""
    found = [c for c in ctx.classes if any(_defines(c, m) for m in _DRAWS_IN)]
    names = {c.name for c in found}
    for c in ctx.classes:
        if c not in found and any(name_of(b) in names for b in c.bases):
            found.append(c)
            names.add(c.name)
    return found


def _defines(cls: ast.ClassDef, method: str) -> bool:
    return any(isinstance(f, FUNCTIONS) and f.name == method for f in cls.body)


def _given(value: ast.expr | None) -> bool:
    return value is not None and not (isinstance(value, ast.Constant) and value.value is None)


def _workers_loading(ctx: Context, cls: ast.ClassDef, loaders: list[ast.Call]) -> ast.expr | None:
    """The num_workers of a loader of this file that starts workers and may get this class's
    instances: its dataset is one, or one this file cannot tell (built elsewhere, wrapped in a
    Subset). Not a loader whose dataset is built by another class of this file or torchvision.
    A loader without num_workers, or with 0, loads in the main process: no copy, no finding. A
    num_workers this file cannot evaluate (`args.workers`) counts: a script that takes the
    number is run with workers, and any number from 1 up repeats the stream (every epoch)."""
    others = {c.name for c in ctx.classes if c is not cls}
    for call in loaders:
        workers = _workers(call)
        data = call.args[0] if call.args else keyword(call, "dataset")
        if workers is None or data is None:
            continue
        value = ctx.value_of(data) if isinstance(data, ast.Name) else data
        if isinstance(value, ast.Call):
            built = ctx.qualname(value.func) or ""
            if built.rsplit(".", 1)[-1] in others or built.startswith("torchvision.datasets."):
                continue
        return workers
    return None


def _copied_generators(ctx: Context, cls: ast.ClassDef, draws_in: tuple[str, ...]) -> Iterator[Hit]:
    methods = {f.name: f for f in cls.body if isinstance(f, FUNCTIONS)}
    init = methods.get("__init__")
    drawing = [methods[m] for m in draws_in if m in methods]
    if init is None or not drawing:
        return
    made: dict[str, ast.Assign] = {}
    for node in ctx.walk_local(init.body):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = name_of(node.targets[0]) or ""
            value = node.value
            if isinstance(value, ast.Name):
                value = ctx.reaching(value) or value  # rng = default_rng(s); self.rng = rng
            if target.startswith("self.") and _generator(ctx, value):
                made[target[5:]] = node
    for attr, assign in made.items():
        if _set_elsewhere(ctx, cls, init, attr):
            continue
        for method in drawing:
            if _draws(ctx, method, attr):
                yield Hit(assign, {"method": method.name})
                break


def _set_elsewhere(ctx: Context, cls: ast.ClassDef, init: ast.AST, attr: str) -> bool:
    """The generator is re-made or re-seeded outside __init__: by another method of the class
    (a reseed or set_epoch the user may call in each worker) or from outside it (`ds.rng = ...`
    in a worker_init_fn of another file)."""
    for node in ast.walk(ctx.tree):
        if not isinstance(node, ast.Attribute) or node.attr != attr:
            continue
        if any(a is init for a in ctx.ancestors(node)):
            continue
        on_self = isinstance(node.value, ast.Name) and node.value.id == "self"
        if on_self and not any(a is cls for a in ctx.ancestors(node)):
            continue  # another class's attribute of the same name
        parent = ctx.parents.get(node)
        reseeded = isinstance(parent, ast.Attribute) and parent.attr in _RESEEDS
        if isinstance(node.ctx, ast.Store) or reseeded:
            return True
    return False


def _draws(ctx: Context, method: ast.AST, attr: str) -> bool:
    """`self.<attr>.<a draw>(...)` or `self.<attr>` passed to a call (`generator=self.g`), in
    the method or the methods of the class it calls."""
    for node in ctx.walk_calls_into([method], depth=2):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if (
            isinstance(f, ast.Attribute)
            and name_of(f.value) == f"self.{attr}"
            and f.attr not in _RESEEDS
        ):
            return True
        args = [*node.args, *(k.value for k in node.keywords)]
        if any(name_of(a) == f"self.{attr}" for a in args):
            return True
    return False
