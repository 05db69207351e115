"""Rules on the training loop: the order of zero_grad / backward / step, graphs kept alive or
reused across iterations, gradients switched off, the model left in eval mode, an optimizer
or a scheduler given the wrong thing."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .context import FUNCTIONS, LOOPS, Context, keyword, method_call, name_of, receiver
from .rule import Hit, rule

SCHEDULERS = "torch.optim.lr_scheduler."


def is_backward(ctx: Context, node: ast.AST) -> bool:
    """`loss.backward()`, `scaler.scale(loss).backward()`, `accelerator.backward(loss)`,
    `torch.autograd.backward(loss)`."""
    if not isinstance(node, ast.Call):
        return False
    return method_call(node, "backward") is not None or ctx.called(node, "torch.autograd.backward")


def is_optimizer(ctx: Context, node: ast.AST) -> bool:
    """An optimizer, by construction in this file (`torch.optim.X(...)`) or by its name."""
    n = name_of(node)
    if n is None:
        return False
    built = ctx.constructed().get(n)
    if built:
        return all(b.startswith("torch.optim.") and not b.startswith(SCHEDULERS) for b in built)
    last = n.rsplit(".", 1)[-1].lower()
    return "opt" in last and "sched" not in last


def is_step(ctx: Context, node: ast.AST) -> bool:
    """`optimizer.step()` (no closure: an LBFGS closure zeroes the gradients itself) or
    `scaler.step(optimizer)`."""
    call = method_call(node, "step")
    if call is None:
        return False
    if call.args:
        return "scaler" in (name_of(receiver(call)) or "").lower() and is_optimizer(
            ctx, call.args[0]
        )
    return not call.keywords and is_optimizer(ctx, receiver(call))


def is_zero_grad(node: ast.AST) -> bool:
    """`optimizer.zero_grad()`, `model.zero_grad()`, `p.grad = None`, `p.grad.zero_()`."""
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute | ast.Name):
            called = f.attr if isinstance(f, ast.Attribute) else f.id
            if "zero_grad" in called:
                return True
            if called in ("zero_", "detach_") and isinstance(f, ast.Attribute):
                return isinstance(f.value, ast.Attribute) and f.value.attr == "grad"
        return False
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Attribute) and t.attr == "grad" for t in node.targets)
    return False


def _statement_call(stmt: ast.stmt) -> ast.expr | None:
    return stmt.value if isinstance(stmt, ast.Expr) else None


@rule(
    "TD010",
    "missing-zero-grad",
    "loss-not-decreasing",
    message={
        "en": "`{code}` runs in a loop that never clears the gradients: each backward() adds to "
        "the previous ones; call optimizer.zero_grad() every iteration",
        "zh": "`{code}` 所在的循环从不清零梯度：每次 backward() 都会累加到之前的梯度上；"
        "每个迭代都要调用 optimizer.zero_grad()",
    },
    why={
        "en": "`backward()` *adds* to `.grad`; it never replaces it. A loop that calls "
        "`backward()` and `optimizer.step()` but never `zero_grad()` steps with the sum of all "
        "gradients so far: the updates grow with every batch and training diverges or stalls.",
        "zh": "`backward()` 是把梯度**累加**到 `.grad` 上，而不是覆盖。循环里有 `backward()` 和 "
        "`optimizer.step()` 却没有 `zero_grad()`，每一步用的都是到目前为止所有梯度的总和：更新"
        "越来越大，训练发散或者停滞。",
    },
    fix={
        "en": "Call `optimizer.zero_grad()` once per iteration, before `backward()` (or right "
        "after `step()`). For gradient accumulation, zero after each `step()`.",
        "zh": "每个迭代调用一次 `optimizer.zero_grad()`，放在 `backward()` 之前（或者紧跟在 "
        "`step()` 之后）。做梯度累积的话，在每次 `step()` 之后清零。",
    },
    bad="""
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
""",
    good="""
for x, y in loader:
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
""",
)
def missing_zero_grad(ctx: Context) -> Iterator[Hit]:
    seen: set[ast.AST] = set()
    # innermost loops first, so that a step is reported once, in the loop that lacks zero_grad
    for loop in sorted(ctx.loops, key=lambda n: -n.lineno):
        nodes = list(ctx.walk_local(loop.body))
        if not any(is_backward(ctx, n) for n in nodes):
            continue
        if any(is_zero_grad(n) for n in ctx.walk_calls_into(loop.body)):
            continue  # zero_grad here, or in a helper of this file the loop calls
        for n in nodes:
            if is_step(ctx, n) and n not in seen:
                seen.add(n)
                yield Hit(n)


@rule(
    "TD011",
    "zero-grad-between-backward-and-step",
    "loss-not-decreasing",
    message={
        "en": "`{code}` clears the gradients after backward() and before step(): the optimizer "
        "always steps with zero gradients",
        "zh": "`{code}` 在 backward() 之后、step() 之前把梯度清零了：optimizer 每次拿到的梯度都"
        "是 0",
    },
    why={
        "en": "`optimizer.step()` updates the weights from `.grad`. Zeroing the gradients between "
        "`backward()` and `step()` throws away what `backward()` just computed, so the weights "
        "never change (or change only through weight decay and momentum) and the loss stays flat.",
        "zh": "`optimizer.step()` 根据 `.grad` 更新权重。在 `backward()` 和 `step()` 之间清零梯度，"
        "等于把 `backward()` 刚算好的梯度扔掉了，权重不会变化（或者只剩 weight decay 和动量在动），"
        "loss 一直是平的。",
    },
    fix={
        "en": "Order each iteration as `zero_grad()` → forward → `backward()` → `step()`.",
        "zh": "每个迭代按 `zero_grad()` → 前向 → `backward()` → `step()` 的顺序来。",
    },
    bad="""
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.zero_grad()
    optimizer.step()
""",
    good="""
for x, y in loader:
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
""",
)
def zero_grad_between_backward_and_step(ctx: Context) -> Iterator[Hit]:
    bodies: list[tuple[list[ast.stmt], bool]] = [(ctx.tree.body, False)]
    bodies += [(f.body, False) for f in ctx.functions]
    bodies += [(loop.body, True) for loop in ctx.loops]
    for node in ctx.parents:
        if isinstance(node, ast.If | ast.With | ast.AsyncWith | ast.Try):
            bodies.append((node.body, False))
    seen: set[ast.AST] = set()
    for body, cyclic in bodies:
        kinds: list[tuple[str, ast.expr]] = []
        for stmt in body:
            value = _statement_call(stmt)
            if value is None:
                continue
            if is_backward(ctx, value):
                kinds.append(("b", value))
            elif is_zero_grad(value):
                kinds.append(("z", value))
            elif is_step(ctx, value):
                kinds.append(("s", value))
        if not any(k == "s" for k, _ in kinds):
            continue
        n = len(kinds)
        seq = kinds * 2 if cyclic else kinds
        # a loop body repeats: seen twice in a row, a step also follows the previous iteration
        for i in range(n if cyclic else 0, len(seq)):
            if seq[i][0] != "s":
                continue
            # walk back from the step: a zero_grad reached before any backward wipes the grads
            for j in range(i - 1, -1, -1):
                kind, value = seq[j]
                if kind == "b":
                    break
                if kind == "z":
                    if any(k == "b" for k, _ in seq[:j]) and value not in seen:
                        seen.add(value)
                        yield Hit(value)
                    break


def _raw_use(node: ast.AST, name: str) -> bool:
    """`node` is the tensor `name` itself, or arithmetic on it: `loss`, `loss * n`, `-loss`."""
    if isinstance(node, ast.Name):
        return node.id == name
    if isinstance(node, ast.BinOp):
        return _raw_use(node.left, name) or _raw_use(node.right, name)
    if isinstance(node, ast.UnaryOp):
        return _raw_use(node.operand, name)
    return False


@rule(
    "TD012",
    "loss-accumulated-with-graph",
    "gpu-memory-leak",
    message={
        "en": "`{code}` keeps `{name}` with its whole autograd graph alive across iterations; "
        "accumulate `{name}.item()` (or `{name}.detach()`)",
        "zh": "`{code}` 让 `{name}` 连同整个 autograd 计算图在迭代之间一直留着；"
        "累加 `{name}.item()`（或 `{name}.detach()`）",
    },
    why={
        "en": "A loss tensor holds a reference to the graph that produced it, and through it to "
        "every activation saved for backward. Adding it to a running total, or appending it to a "
        "list, keeps each iteration's graph alive: memory grows every step until CUDA runs out.",
        "zh": "loss tensor 持有生成它的计算图，进而引用着为 backward 保存的所有激活值。把它加到"
        "累计值"
        "上或者 append 到列表里，每个迭代的计算图都不会被释放：显存每一步都在涨，直到 CUDA OOM。",
    },
    fix={
        "en": "Accumulate a Python number: `total += loss.item()`, `losses.append(loss.item())`; "
        "or a detached tensor (`loss.detach()`) when you want to avoid the synchronisation.",
        "zh": "累加 Python 数值：`total += loss.item()`、`losses.append(loss.item())`；不想每步"
        "同步的话，"
        "就累加 detach 之后的 tensor（`loss.detach()`）。",
    },
    bad="""
total = 0
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    total += loss
""",
    good="""
total = 0
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    total += loss.item()
""",
)
def loss_accumulated_with_graph(ctx: Context) -> Iterator[Hit]:
    seen: set[ast.AST] = set()
    for loop in ctx.loops:
        nodes = list(ctx.walk_local(loop.body))
        bound: dict[str, int] = {}
        for n in nodes:
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    k = name_of(t)
                    if k:
                        bound[k] = bound.get(k, 0) + 1
        graphs = set()
        for n in nodes:
            call = method_call(n, "backward")
            if call is not None and not call.args and keyword(call, "retain_graph") is None:
                r = receiver(call)
                if isinstance(r, ast.Name):
                    graphs.add(r.id)
                elif (  # scaler.scale(loss).backward()
                    method_call(r, "scale") is not None
                    and len(r.args) == 1  # type: ignore[attr-defined]
                    and isinstance(r.args[0], ast.Name)  # type: ignore[attr-defined]
                ):
                    graphs.add(r.args[0].id)  # type: ignore[attr-defined]
            elif (  # accelerator.backward(loss)
                call is not None
                and len(call.args) == 1
                and isinstance(call.args[0], ast.Name)
                and "accelerator" in (name_of(receiver(call)) or "")
            ):
                graphs.add(call.args[0].id)
        for name in graphs:
            if bound.get(name, 0) > 1:
                continue
            for n in nodes:
                if n in seen:
                    continue
                if isinstance(n, ast.AugAssign) and _raw_use(n.value, name):
                    total = name_of(n.target)
                    if total and total != name and not bound.get(total):
                        seen.add(n)
                        yield Hit(n, {"name": name})
                elif (  # total = total + loss: the same running total, spelled out
                    isinstance(n, ast.Assign)
                    and len(n.targets) == 1
                    and isinstance(n.value, ast.BinOp)
                    and _raw_use(n.value, name)
                ):
                    total = name_of(n.targets[0])
                    if (
                        total
                        and total != name
                        and bound.get(total) == 1
                        and _raw_use(n.value, total)
                    ):
                        seen.add(n)
                        yield Hit(n, {"name": name})
                elif (
                    isinstance(n, ast.Call)
                    and method_call(n, "append")
                    and len(n.args) == 1
                    and _raw_use(n.args[0], name)
                ):
                    total = name_of(receiver(n))
                    if total and not bound.get(total):
                        seen.add(n)
                        yield Hit(n, {"name": name})


@rule(
    "TD013",
    "backward-on-graph-built-outside-loop",
    "backward-twice",
    message={
        "en": "`{code}` runs in every iteration, but `{name}` is computed once before the loop: "
        "the second backward() goes through a freed graph",
        "zh": "`{code}` 每个迭代都会执行，但 `{name}` 只在循环之前算了一次：第二次 backward() "
        "会穿过已经释放的计算图",
    },
    why={
        "en": "`backward()` frees the graph's saved tensors as it goes. A loss computed once, "
        "before the loop, has one graph; the loop's second `backward()` on it fails with "
        '"Trying to backward through the graph a second time". Even with `retain_graph=True` '
        "the model would learn from the same stale forward pass every time.",
        "zh": "`backward()` 会在执行过程中释放计算图里保存的 tensor。在循环之前只算了一次的 "
        "loss 只有"
        '一张计算图；循环里第二次对它 backward() 就会报 "Trying to backward through the graph a '
        'second time"。就算加了 `retain_graph=True`，模型每次学的也都是同一次旧的前向结果。',
    },
    fix={
        "en": "Compute the forward pass and the loss inside the loop, once per iteration.",
        "zh": "把前向计算和 loss 放到循环里面，每个迭代算一次。",
    },
    bad="""
loss = criterion(model(x), y)
for step in range(100):
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""",
    good="""
for step in range(100):
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
""",
)
def backward_on_graph_built_outside_loop(ctx: Context) -> Iterator[Hit]:
    for loop in ctx.loops:
        nodes = list(ctx.walk_local(loop.body))
        if isinstance(loop, ast.For | ast.AsyncFor):
            nodes += ctx.walk_local([loop.target])
        if any(isinstance(n, ast.Break | ast.Return | ast.Raise) for n in nodes):
            continue  # a loop that may run once
        bound_inside = {
            k
            for n in nodes
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            for k in [n.id]
        }
        for n in nodes:
            call = method_call(n, "backward")
            if call is None or call.args or call.keywords:
                continue
            r = receiver(call)
            if not isinstance(r, ast.Name) or r.id in bound_inside:
                continue
            value = ctx.value_of(r)
            if (
                isinstance(value, ast.Call | ast.BinOp)
                and value.lineno < loop.lineno
                and ctx.scope_of(value) is ctx.scope_of(loop)
                and _innermost_loop(ctx, call) is loop
            ):
                yield Hit(call, {"name": r.id})


def _innermost_loop(ctx: Context, node: ast.AST) -> ast.AST | None:
    return next((a for a in ctx.ancestors(node) if isinstance(a, LOOPS)), None)


@rule(
    "TD014",
    "backward-under-no-grad",
    "no-grad-fn",
    message={
        "en": "`{code}` is inside a no_grad / inference_mode block: nothing computed there has a "
        "grad_fn, so backward() fails",
        "zh": "`{code}` 位于 no_grad / inference_mode 块里：在这里算出来的东西都没有 grad_fn，"
        "backward() 会报错",
    },
    why={
        "en": "Under `torch.no_grad()` or `torch.inference_mode()` autograd records nothing: the "
        "loss computed there does not require grad and has no `grad_fn`, and `backward()` stops "
        'with "element 0 of tensors does not require grad and does not have a grad_fn".',
        "zh": "在 `torch.no_grad()` 或 `torch.inference_mode()` 下 autograd 什么都不记录：在里面"
        "算出的 "
        'loss 不需要梯度、也没有 `grad_fn`，`backward()` 报 "element 0 of tensors does not require '
        'grad and does not have a grad_fn"。',
    },
    fix={
        "en": "Keep the training step (forward, loss, backward, step) outside `no_grad`; use "
        "`no_grad` only for evaluation.",
        "zh": "训练的那一步（前向、loss、backward、step）放在 `no_grad` 外面；`no_grad` 只用在评"
        "估时。",
    },
    bad="""
with torch.no_grad():
    loss = criterion(model(x), y)
    loss.backward()
""",
    good="""
loss = criterion(model(x), y)
loss.backward()
""",
)
def backward_under_no_grad(ctx: Context) -> Iterator[Hit]:
    for call in ctx.calls:
        if is_backward(ctx, call) and ctx.under_no_grad(call):
            yield Hit(call)


_MUST_CALL = ("zero_grad", "step", "backward", "eval", "train")


@rule(
    "TD015",
    "method-not-called",
    "loss-not-decreasing",
    message={
        "en": "`{code}` names the method without calling it, so it does nothing: write `{code}()`",
        "zh": "`{code}` 只写了方法名却没有调用，什么都不会发生：要写成 `{code}()`",
    },
    why={
        "en": "A statement such as `optimizer.zero_grad` or `model.eval` only looks the method "
        "up; without parentheses it never runs. The gradients are not cleared, the weights not "
        "updated, the model not switched, and Python says nothing.",
        "zh": "`optimizer.zero_grad`、`model.eval` 这样的语句只是取到了这个方法，没有括号就不会"
        "执行。"
        "梯度没清、权重没更新、模式没切换，Python 也不会报任何错。",
    },
    fix={
        "en": "Add the parentheses: `optimizer.zero_grad()`.",
        "zh": "加上括号：`optimizer.zero_grad()`。",
    },
    bad="""
optimizer.zero_grad
loss.backward()
optimizer.step()
""",
    good="""
optimizer.zero_grad()
loss.backward()
optimizer.step()
""",
)
def method_not_called(ctx: Context) -> Iterator[Hit]:
    for stmt in ctx.expr_stmts:
        v = stmt.value
        if isinstance(v, ast.Attribute) and v.attr in _MUST_CALL and name_of(v):
            yield Hit(v)


def _trained_models(ctx: Context) -> set[str]:
    """Names whose parameters are handed to an optimizer in this file: "
    "`optim.SGD(model.parameters()`."""
    found = set()
    for call in ctx.calls:
        q = ctx.qualname(call.func) or ""
        if q.startswith("torch.optim.") and not q.startswith(SCHEDULERS) and call.args:
            first = call.args[0]
            if method_call(first, "parameters"):
                n = name_of(receiver(first))  # type: ignore[arg-type]
                if n:
                    found.add(n)
    return found


@rule(
    "TD016",
    "training-after-eval",
    "overfitting",
    message={
        "en": "`{code}` switches the model to eval mode inside the training loop, and nothing "
        "switches it back: from the next iteration on it trains with dropout off and BatchNorm "
        "frozen; call {model}.train() before training",
        "zh": "`{code}` 在训练循环里把模型切到了 eval 模式，之后却没有切回来：从下一个迭代开始，"
        "训练时 dropout 关闭、BatchNorm 统计量冻结；训练前要调用 {model}.train()",
    },
    why={
        "en": "`model.eval()` switches dropout off and makes BatchNorm use its running statistics; "
        "it stays that way until `model.train()`. A loop that trains, then evaluates with "
        "`model.eval()`, and never calls `model.train()` trains every later epoch in eval mode: "
        "regularisation is gone and the BatchNorm statistics stop adapting.",
        "zh": "`model.eval()` 会关掉 dropout，并让 BatchNorm 使用 running 统计量，直到调用 "
        "`model.train()` 为止。循环里先训练、再用 `model.eval()` 评估、却从不调用 `model.train()`，"
        "之后每个 epoch 都是在 eval 模式下训练：正则化没了，BatchNorm 的统计量也不再更新。",
    },
    fix={
        "en": "Call `model.train()` at the start of each epoch's training part (or right after "
        "the evaluation).",
        "zh": "在每个 epoch 训练部分的开头调用 `model.train()`（或者评估完立刻调用）。",
    },
    bad="""
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(10):
    for x, y in train_loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    model.eval()
    evaluate(model, val_loader)
""",
    good="""
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(10):
    model.train()
    for x, y in train_loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
    model.eval()
    evaluate(model, val_loader)
""",
)
def training_after_eval(ctx: Context) -> Iterator[Hit]:
    models = _trained_models(ctx)
    if not models:
        return
    for loop in ctx.loops:
        if _innermost_loop(ctx, loop) is not None:
            continue  # the outermost loop decides: it holds both the training and the eval
        nodes = list(ctx.walk_local(loop.body))
        if not any(is_backward(ctx, n) for n in nodes):
            continue
        switches = [c for n in nodes if (c := method_call(n, "eval", "train")) is not None]
        trained = {
            _module_name(receiver(c))
            for c in switches
            if c.func.attr == "train" and not _false_arg(c)  # type: ignore[attr-defined]
        }
        for call in switches:
            to_eval = call.func.attr == "eval" or _false_arg(call)  # type: ignore[attr-defined]
            if not to_eval or (call.func.attr == "eval" and call.args):  # type: ignore[attr-defined]
                continue
            model = name_of(receiver(call))
            if model not in models or _mode_free(ctx, call):
                continue
            if model not in trained or _eval_mid_epoch(ctx, call, loop, model):
                yield Hit(call, {"model": model})


def _eval_mid_epoch(ctx: Context, call: ast.Call, outer: ast.AST, model: str | None) -> bool:
    """eval() inside the loop over batches, whose body trains, while train() is called only
    outside that loop (at the top of the epoch): every batch after the first evaluation trains
    in eval mode. Not for an evaluation under a test on `len(...)`, the epoch's last batch."""
    inner = _innermost_loop(ctx, call)
    if inner is None or inner is outer:
        return False
    body = list(ctx.walk_local(inner.body))  # type: ignore[attr-defined]
    if not any(is_backward(ctx, n) for n in body):
        return False
    for n in body:
        c = method_call(n, "train")
        if c is not None and not _false_arg(c) and _module_name(receiver(c)) == model:
            return False
    for a in ctx.ancestors(call):
        if a is inner:
            break
        if isinstance(a, ast.If) and any(_last_batch_test(n) for n in ast.walk(a.test)):
            return False
    return True


def _module_name(node: ast.AST) -> str | None:
    """`model` for `model`, `model.to(device)`, `model.cuda()`: the module a chain returns."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr not in ("to", "cpu", "cuda", "float", "half", "double", "train", "eval"):
            return None
        node = node.func.value
    return name_of(node)


def _last_batch_test(node: ast.AST) -> bool:
    """`i == len(loader) - 1`, `step + 1 >= len(train_loader)`: the epoch's last batch."""
    return (
        isinstance(node, ast.Compare)
        and any(isinstance(op, ast.Eq | ast.GtE) for op in node.ops)
        and "len(" in ast.unparse(node)
    )


def _mode_free(ctx: Context, call: ast.Call) -> bool:
    """The model eval() switches has no dropout nor BatchNorm: eval mode changes nothing."""
    from .flow import flow

    return flow(ctx).mode_free(receiver(call))


def _false_arg(call: ast.Call) -> bool:
    arg = call.args[0] if call.args else keyword(call, "mode")
    return isinstance(arg, ast.Constant) and arg.value is False


@rule(
    "TD017",
    "plateau-step-without-metric",
    "plateau-step-metric",
    message={
        "en": "`{code}`: ReduceLROnPlateau.step() needs the metric it watches, e.g. "
        "scheduler.step(val_loss)",
        "zh": "`{code}`：ReduceLROnPlateau.step() 需要传入它要监控的指标，比如 "
        "scheduler.step(val_loss)",
    },
    why={
        "en": "Unlike the other schedulers, `ReduceLROnPlateau` lowers the learning rate when a "
        "metric stops improving, so its `step()` takes that metric. Called without it, it fails "
        "with \"step() missing 1 required positional argument: 'metrics'\".",
        "zh": "和其他 scheduler 不同，`ReduceLROnPlateau` 是在某个指标不再改善时才降低学习率，所"
        "以它的 "
        '`step()` 要传入这个指标。不传就会报 "step() missing 1 required positional argument: '
        "'metrics'\"。",
    },
    fix={
        "en": "Pass the validation metric after each evaluation: `scheduler.step(val_loss)`.",
        "zh": "每次评估之后把验证指标传进去：`scheduler.step(val_loss)`。",
    },
    bad="""
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer)
scheduler.step()
""",
    good="""
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer)
scheduler.step(val_loss)
""",
)
def plateau_step_without_metric(ctx: Context) -> Iterator[Hit]:
    plateau = frozenset({SCHEDULERS + "ReduceLROnPlateau"})
    for call in ctx.calls:
        if (
            method_call(call, "step")
            and not call.args
            and not call.keywords
            and (ctx.instance_of(receiver(call), plateau) or _maybe_plateau(ctx, call, plateau))
        ):
            yield Hit(call)


def _maybe_plateau(ctx: Context, call: ast.Call, plateau: frozenset[str]) -> bool:
    """The scheduler is a ReduceLROnPlateau on one path (chosen in an if/else, from a config),
    stepped without a metric by code that does not tell the two apart: no `step(metric)` on the
    same name anywhere in the file, no `if` around the call that asks which scheduler it is."""
    from .flow import flow

    target = receiver(call)
    built = flow(ctx).classes(target)
    if not built or not built & plateau:
        return False
    n = name_of(target)
    if any(
        method_call(c, "step") and (c.args or c.keywords) and name_of(receiver(c)) == n
        for c in ctx.calls
    ):
        return False
    for a in ctx.ancestors(call):
        if isinstance(a, ast.If | ast.IfExp):
            test = ast.unparse(a.test).lower()
            if "plateau" in test or "isinstance" in test or "sched" in test:
                return False
    return True


@rule(
    "TD018",
    "optimizer-given-parameters-method",
    "optimizer-empty-params",
    message={
        "en": "`{code}` is the method itself, not the parameters: call it, `{code}()`",
        "zh": "`{code}` 是方法本身，不是参数：要调用它，写成 `{code}()`",
    },
    why={
        "en": "An optimizer takes an iterable of tensors. `model.parameters` without parentheses "
        "is a bound method, and the constructor fails with \"TypeError: 'method' object is not "
        'iterable".',
        "zh": "optimizer 接收的是一组 tensor。不带括号的 `model.parameters` 是一个方法对象，构造"
        "函数会报 "
        "\"TypeError: 'method' object is not iterable\"。",
    },
    fix={
        "en": "`torch.optim.Adam(model.parameters(), lr=1e-3)`.",
        "zh": "加上括号：`torch.optim.Adam(model.parameters(), lr=1e-3)`。",
    },
    bad="""
optimizer = torch.optim.Adam(model.parameters, lr=1e-3)
""",
    good="""
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
""",
)
def optimizer_given_parameters_method(ctx: Context) -> Iterator[Hit]:
    for call in ctx.calls:
        q = ctx.qualname(call.func) or ""
        if not q.startswith("torch.optim.") or q.startswith(SCHEDULERS):
            continue
        params = call.args[0] if call.args else keyword(call, "params")
        if isinstance(params, ast.Attribute) and params.attr in ("parameters", "named_parameters"):
            yield Hit(params)


_FUNCTIONAL_LOSSES = frozenset(
    "torch.nn.functional." + n
    for n in ("cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
              "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div")
)  # fmt: skip
_MODEL_NAMES = frozenset(("model", "net", "network", "encoder", "decoder", "classifier"))
_LOSS_NAMES = frozenset(("criterion", "loss_fn", "loss_func", "loss_function", "criterium"))
_KEEPS = frozenset(("cpu", "to", "cuda", "float", "double", "half", "squeeze", "unsqueeze", "view",
                    "reshape", "flatten", "softmax", "log_softmax", "sigmoid", "mean", "sum",
                    "contiguous", "clone"))  # fmt: skip


@rule(
    "TD019",
    "tensor-kept-with-graph",
    "gpu-memory-leak",
    message={
        "en": "`{code}` keeps {what} with its whole autograd graph in a list that outlives the "
        "loop: memory grows every iteration; append `.item()` (a number) or `.detach()`, or run "
        "the loop under torch.no_grad()",
        "zh": "`{code}` 把{what}连同整个 autograd 计算图留在一个比循环活得久的列表里：每个迭代"
        "内存都在增长；append `.item()`（一个数）或 `.detach()`，或者在 torch.no_grad() 下跑这个"
        "循环",
    },
    why={
        "en": "A tensor computed with gradients enabled holds its `grad_fn`, and through it every "
        "intermediate activation autograd saved for the backward pass. Appending model outputs "
        "in an evaluation loop that does not run under `torch.no_grad()` (and never calls "
        "`backward()`, which would free them) keeps every batch's activations alive until the "
        'list dies: GPU memory climbs batch after batch until "CUDA out of memory". Losses kept '
        "as tensors do the same.",
        "zh": "在开启梯度的情况下算出来的 tensor 持有 `grad_fn`，并通过它持有 autograd 为反向传播"
        "保存的所有中间激活。在没有 `torch.no_grad()` 的评估循环里（也从不调用会释放它们的 "
        "`backward()`）把模型输出 append 到列表里，每个 batch 的激活都会一直活到列表销毁："
        '显存一个 batch 接一个 batch 地上涨，直到 "CUDA out of memory"。把 loss 作为 tensor '
        "存起来也一样。",
    },
    fix={
        "en": "Wrap evaluation in `with torch.no_grad():` (or `torch.inference_mode()`); keep "
        "`loss.item()` for a number, `out.detach().cpu()` for a tensor.",
        "zh": "评估代码放进 `with torch.no_grad():`（或 `torch.inference_mode()`）；要数值就存 "
        "`loss.item()`，要 tensor 就存 `out.detach().cpu()`。",
    },
    bad="""
model = nn.Linear(16, 2)
outputs = []
for x, y in loader:
    outputs.append(model(x))
""",
    good="""
model = nn.Linear(16, 2)
outputs = []
with torch.no_grad():
    for x, y in loader:
        outputs.append(model(x))
""",
)
def tensor_kept_with_graph(ctx: Context) -> Iterator[Hit]:
    if any(_grad_off_statement(ctx, s) for s in ctx.expr_stmts):
        return  # torch.set_grad_enabled(False) somewhere: which code it covers is unknowable
    from .modules import module_classes

    modules = set(module_classes(ctx))
    backward_in: dict[ast.AST, bool] = {}
    for call in ctx.calls:
        if method_call(call, "append") is None or len(call.args) != 1:
            continue
        loop = None
        for a in ctx.ancestors(call):
            if isinstance(a, LOOPS) and loop is None:
                loop = a  # the innermost loop of the same function
            elif isinstance(a, (*FUNCTIONS, ast.Lambda)) or a in modules:
                break
        else:
            a = None
        if loop is None or a in modules or any(m in modules for m in ctx.ancestors(loop)):
            continue  # a forward collecting features (FPN, hierarchical models) needs the graph
        scope = ctx.scope_of(loop)
        if scope not in backward_in:
            body = getattr(scope, "body", [])
            backward_in[scope] = any(is_backward(ctx, n) for n in ctx.walk_local(body))
        if backward_in[scope]:
            continue  # backward() frees the saved activations, or uses the kept tensors
        lst = name_of(receiver(call))
        if lst is None or ctx.under_no_grad(call):
            continue
        if any(
            isinstance(n, ast.Name) and n.id == lst and isinstance(n.ctx, ast.Store)
            for n in ctx.walk_local(loop.body)
        ):
            continue  # a list made anew each iteration
        what = _graph_kind(ctx, call.args[0], 0)
        if what is None or _called_without_grad(ctx, call):
            continue
        yield Hit(call, {"what": _OUTPUT if what == "output" else _LOSS})


_OUTPUT = {"en": "the model's output", "zh": "模型的输出"}
_LOSS = {"en": "a loss", "zh": "loss"}


def _graph_kind(ctx: Context, node: ast.AST, depth: int) -> str | None:
    """'output' (a model's output), 'loss' (a loss function's result), or None: a tensor that
    carries a graph, on every path the value takes."""
    if depth > 6 or ctx.under_no_grad(node):
        return None
    if isinstance(node, ast.Name):
        from .flow import flow

        values = flow(ctx).values(node)
        if not values:
            return None
        kinds = {_graph_kind(ctx, v, depth + 1) for v in values}
        return kinds.pop() if len(kinds) == 1 else None
    if isinstance(node, ast.Subscript):
        return _graph_kind(ctx, node.value, depth + 1)
    if isinstance(node, ast.BinOp):
        left = _graph_kind(ctx, node.left, depth + 1)
        return left or _graph_kind(ctx, node.right, depth + 1)
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    q = ctx.qualname(f) or ""
    if q in _FUNCTIONAL_LOSSES:
        return "loss"
    if isinstance(f, ast.Attribute) and not q.startswith("torch."):
        if f.attr in _KEEPS:
            return _graph_kind(ctx, f.value, depth + 1)
        if not (isinstance(f.value, ast.Name) and f.value.id == "self"):
            return None
    from .flow import flow

    fl = flow(ctx)
    built = fl.classes(f) if isinstance(f, ast.Name | ast.Attribute) else None
    if built:
        if all(b.startswith("torch.nn.") and b.endswith("Loss") for b in built):
            return "loss"
        if fl.is_module(f):
            return "output"
        return None
    last = (name_of(f) or "").rsplit(".", 1)[-1]
    if built is None and _is_parameter(ctx, f):
        if last in _LOSS_NAMES:
            return "loss"
        if last in _MODEL_NAMES:
            return "output"
    return None


def _is_parameter(ctx: Context, f: ast.AST) -> bool:
    """`model` a parameter of the enclosing function, or `self.model` of a method."""
    scope = ctx.scope_of(f)
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    if isinstance(f, ast.Attribute):
        return isinstance(f.value, ast.Name) and f.value.id == "self"
    if not isinstance(f, ast.Name):
        return False
    values = ctx.bindings(scope).get(f.id, [])
    a = scope.args
    return all(v is None for v in values) and f.id in {x.arg for x in [*a.args, *a.kwonlyargs]}


def _grad_off_statement(ctx: Context, stmt: ast.Expr) -> bool:
    call = stmt.value
    return (
        isinstance(call, ast.Call)
        and (ctx.qualname(call.func) or "").endswith("set_grad_enabled")
        and bool(call.args)
        and isinstance(call.args[0], ast.Constant)
        and call.args[0].value is False
    )


def _called_without_grad(ctx: Context, node: ast.AST) -> bool:
    """The function holding `node` is called somewhere in this file under no_grad, or is one
    that frameworks run without gradients (Lightning's validation/test/predict steps)."""
    scope = ctx.scope_of(node)
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    if scope.name.startswith(("validation_", "test_", "predict_", "on_validation", "on_test",
                              "on_predict")):  # fmt: skip
        return True
    for c in ctx.calls:
        f = c.func
        called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if called == scope.name and ctx.under_no_grad(c):
            return True
    return False
