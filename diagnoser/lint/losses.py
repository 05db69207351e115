"""Rules on what reaches a loss function: activations the loss already applies, probabilities
where log-probabilities are expected, targets of the wrong kind, a loss class given tensors."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .context import Context, keyword, name_of
from .flow import flow
from .rule import Hit, rule

NN, FN = "torch.nn.", "torch.nn.functional."
_ACTIVATIONS = {
    "softmax": "softmax",
    "log_softmax": "log_softmax",
    "sigmoid": "sigmoid",
    "logsigmoid": "log_sigmoid",
}
_MODULES = {"Softmax": "softmax", "LogSoftmax": "log_softmax", "Sigmoid": "sigmoid"}


def activation(ctx: Context, node: ast.AST) -> str | None:
    """Which activation produced `node`: `F.softmax(x, 1)`, `x.sigmoid()`, `nn.Softmax(1)(x)`, or
    a name bound once in its scope to one of those."""
    for _ in range(2):  # a name, then what it stands for
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Call):  # nn.Softmax(dim=1)(x)
                module = ctx.qualname(func.func) or ""
                return _MODULES.get(module[len(NN) :]) if module.startswith(NN) else None
            q: str | None = ctx.qualname(func)
            if q is not None:
                for prefix in ("torch.", FN, "torch.special."):
                    if q.startswith(prefix) and q[len(prefix) :] in _ACTIVATIONS:
                        return _ACTIVATIONS[q[len(prefix) :]]
            if isinstance(func, ast.Attribute) and func.attr in ("softmax", "log_softmax"):
                # a method of the tensor; `torch.foo.softmax` was handled above
                return func.attr if q is None or not q.startswith("torch") else None
            if isinstance(func, ast.Attribute) and func.attr == "sigmoid" and not node.args:
                return "sigmoid" if q is None or not q.startswith("torch") else None
            return None
        value = ctx.reaching(node) if isinstance(node, ast.Name) else None
        if value is None:
            break
        node = value
    return None


def produced(ctx: Context, node: ast.AST) -> str | None:
    """The activation (or 'linear:<Layer>') that produced `node` on every path: written at the
    call (`F.softmax(...)`), or the last layer of the model called (`model(x)` where `model` is a
    Sequential ending in nn.Softmax, or a module of this file whose forward returns softmax)."""
    act = activation(ctx, node)
    if act is not None:
        return act
    kinds = flow(ctx).outputs(node)
    return next(iter(kinds)) if len(kinds) == 1 and not kinds & {"other", "unknown"} else None


def loss_calls(
    ctx: Context, classes: frozenset[str], functional: frozenset[str]
) -> Iterator[tuple[ast.Call, ast.expr | None, ast.expr | None]]:
    """Every call of a loss: `F.cross_entropy(input, target)`, `criterion(input, target)` where
    `criterion = nn.CrossEntropyLoss()`, or `nn.CrossEntropyLoss()(input, target)`; with its input
    and target expressions."""
    # the dataflow can only find a loss class this file constructs somewhere
    built_here = any(ctx.qualname(c.func) in classes for c in ctx.calls)
    for call in ctx.calls:
        if (
            ctx.qualname(call.func) in functional
            or ctx.instance_of(call.func, classes)
            or (built_here and isinstance(call.func, ast.Name | ast.Attribute)
                and flow(ctx).built_as(call.func, classes))
        ):  # fmt: skip
            args = list(call.args)
            inp = args[0] if args else keyword(call, "input")
            target = args[1] if len(args) > 1 else keyword(call, "target")
            if any(isinstance(a, ast.Starred) for a in args[:2]):
                continue
            yield call, inp, target


CE_CLASSES = frozenset({NN + "CrossEntropyLoss"})
CE_FUNCS = frozenset({FN + "cross_entropy"})
BCE_LOGITS_CLASSES = frozenset({NN + "BCEWithLogitsLoss"})
BCE_LOGITS_FUNCS = frozenset({FN + "binary_cross_entropy_with_logits"})
NLL_CLASSES = frozenset({NN + "NLLLoss"})
NLL_FUNCS = frozenset({FN + "nll_loss"})


@rule(
    "TD001",
    "softmax-before-cross-entropy",
    "loss-not-decreasing",
    message={
        "en": "`{code}` is already a softmax; CrossEntropyLoss applies log_softmax itself and "
        "wants the raw logits",
        "zh": "`{code}` 已经做过 softmax；CrossEntropyLoss 自己会做 log_softmax，要的是原始 logits",
    },
    why={
        "en": "`CrossEntropyLoss` (and `F.cross_entropy`) is `log_softmax` followed by `NLLLoss`. "
        "Given probabilities instead of logits, it applies softmax a second time: every input "
        "lies in [0, 1], the loss can never go near 0, and the gradients shrink, so training "
        "stalls with no error at all.",
        "zh": "`CrossEntropyLoss`（以及 `F.cross_entropy`）就是 `log_softmax` 加 `NLLLoss`。"
        "喂给它的是概率而不是 logits，就等于又做了一次 softmax：输入都在 [0, 1] 之间，loss 永远"
        "降不到 0 附近，梯度也变得很小，训练停滞，却不会报任何错。",
    },
    fix={
        "en": "Pass the logits to the loss; apply softmax only where you need probabilities "
        "(metrics, prediction).",
        "zh": "把 logits 直接交给 loss；只在需要概率的地方（算指标、预测）再做 softmax。",
    },
    bad="""
logits = model(x)
loss = F.cross_entropy(F.softmax(logits, dim=1), y)
""",
    good="""
logits = model(x)
loss = F.cross_entropy(logits, y)
probs = logits.softmax(dim=1)  # only for metrics
""",
)
def softmax_before_cross_entropy(ctx: Context) -> Iterator[Hit]:
    for _call, inp, _ in loss_calls(ctx, CE_CLASSES, CE_FUNCS):
        if inp is not None and produced(ctx, inp) == "softmax":
            yield Hit(inp)


@rule(
    "TD002",
    "activation-before-bce-with-logits",
    "loss-not-decreasing",
    message={
        "en": "`{code}` has already been through {activation}; BCEWithLogitsLoss applies the "
        "sigmoid itself and wants the raw logits",
        "zh": "`{code}` 已经做过 {activation}；BCEWithLogitsLoss 自己会做 sigmoid，要的是原始 "
        "logits",
    },
    why={
        "en": "`BCEWithLogitsLoss` (and `F.binary_cross_entropy_with_logits`) is a sigmoid and a "
        "binary cross-entropy in one numerically stable call. Given probabilities, it applies a "
        "second sigmoid: its inputs squeeze into [0.5, 0.73], predictions can never approach 0 "
        "or 1, and the loss stops falling without any error.",
        "zh": "`BCEWithLogitsLoss`（以及 `F.binary_cross_entropy_with_logits`）把 sigmoid 和二元"
        "交叉熵"
        "合在一次数值稳定的计算里。喂给它概率，就等于做了两次 sigmoid：输入被挤到 [0.5, 0.73]，"
        "预测永远接近不了 0 或 1，loss 降不下去，也不会报错。",
    },
    fix={
        "en": "Pass the logits; keep `torch.sigmoid` for predictions and metrics only. (If you "
        "really want to feed probabilities, the loss for them is `BCELoss`, which is less "
        "stable.)",
        "zh": "直接传 logits；`torch.sigmoid` 只留给预测和算指标。（确实要传概率的话，对应的 loss "
        "是 `BCELoss`，但数值上没那么稳定。）",
    },
    bad="""
criterion = nn.BCEWithLogitsLoss()
loss = criterion(torch.sigmoid(model(x)), y)
""",
    good="""
criterion = nn.BCEWithLogitsLoss()
loss = criterion(model(x), y)
""",
)
def activation_before_bce_with_logits(ctx: Context) -> Iterator[Hit]:
    for _call, inp, _ in loss_calls(ctx, BCE_LOGITS_CLASSES, BCE_LOGITS_FUNCS):
        act = produced(ctx, inp) if inp is not None else None
        if inp is not None and act in ("sigmoid", "softmax"):
            yield Hit(inp, {"activation": act})


@rule(
    "TD003",
    "probabilities-into-nll-loss",
    "loss-negative",
    message={
        "en": "`{code}` is a softmax (probabilities); NLLLoss expects log-probabilities: use "
        "log_softmax",
        "zh": "`{code}` 是 softmax 的结果（概率）；NLLLoss 要的是 log 概率：改用 log_softmax",
    },
    why={
        "en": "`NLLLoss` returns `-input[target]` and assumes `input` holds log-probabilities. "
        "On probabilities it returns `-p`, a number between -1 and 0: the loss is negative and "
        "its gradient is not the cross-entropy's, so the model learns badly or not at all.",
        "zh": "`NLLLoss` 返回的是 `-input[target]`，并默认 `input` 是 log 概率。喂给它概率，得到"
        "的是 "
        "`-p`，在 -1 到 0 之间：loss 变成负数，梯度也不是交叉熵的梯度，模型学得很差甚至学不动。",
    },
    fix={
        "en": "Use `F.log_softmax(logits, dim=1)` before `NLLLoss`, or give the logits to "
        "`CrossEntropyLoss`, which does both.",
        "zh": "在 `NLLLoss` 前面用 `F.log_softmax(logits, dim=1)`，或者直接把 logits 交给 "
        "`CrossEntropyLoss`（它两步都做了）。",
    },
    bad="""
loss = F.nll_loss(F.softmax(model(x), dim=1), y)
""",
    good="""
loss = F.nll_loss(F.log_softmax(model(x), dim=1), y)
""",
)
def probabilities_into_nll_loss(ctx: Context) -> Iterator[Hit]:
    for _call, inp, _ in loss_calls(ctx, NLL_CLASSES, NLL_FUNCS):
        if inp is not None and produced(ctx, inp) == "softmax":
            yield Hit(inp)


def _one_hot(ctx: Context, node: ast.AST) -> bool:
    for _ in range(2):
        if isinstance(node, ast.Call):
            return ctx.qualname(node.func) in (FN + "one_hot", "torch.nn.functional.one_hot")
        value = ctx.reaching(node) if isinstance(node, ast.Name) else None
        if value is None:
            return False
        node = value
    return False


@rule(
    "TD004",
    "one-hot-long-target",
    "ce-target-dtype",
    message={
        "en": "`{code}` is an integer one-hot tensor; CrossEntropyLoss takes class indices "
        "(pass the labels themselves) or float probabilities",
        "zh": "`{code}` 是整数类型的 one-hot tensor；CrossEntropyLoss 要的是类别下标（直接传标签）"
        "或者 float 类型的概率",
    },
    why={
        "en": "`F.one_hot` returns int64. A target with the same shape as the input is read as "
        "class *probabilities*, which must be floating point, so the loss stops with "
        '"Expected floating point type for target with class probabilities, got Long". '
        "The one-hot encoding is not needed at all: the loss takes the class indices.",
        "zh": "`F.one_hot` 返回的是 int64。和输入形状相同的 target 会被当成类别**概率**，必须是"
        "浮点数，"
        '于是报 "Expected floating point type for target with class probabilities, got Long"。'
        "其实根本不用做 one-hot：loss 直接接收类别下标。",
    },
    fix={
        "en": "Pass the labels (`y`, int64, shape `(N,)`). Only for soft labels (label smoothing, "
        "mixup) build a float target: `F.one_hot(y, C).float()`.",
        "zh": "直接传标签（`y`，int64，形状 `(N,)`）。只有软标签（label smoothing、mixup）才需要 "
        "float "
        "的 target：`F.one_hot(y, C).float()`。",
    },
    bad="""
loss = F.cross_entropy(logits, F.one_hot(y, num_classes=10))
""",
    good="""
loss = F.cross_entropy(logits, y)
""",
)
def one_hot_long_target(ctx: Context) -> Iterator[Hit]:
    for _call, _, target in loss_calls(ctx, CE_CLASSES, CE_FUNCS):
        if target is not None and _one_hot(ctx, target):
            yield Hit(target)


BCE_CLASSES = frozenset({NN + "BCELoss"})
BCE_FUNCS = frozenset({FN + "binary_cross_entropy"})
_LINEAR = frozenset(
    NN + n for n in ("Linear", "LazyLinear", "Bilinear", "Conv1d", "Conv2d", "Conv3d")
)


def _logits(ctx: Context, node: ast.AST) -> str | None:
    """`node` is the raw output of a Linear/Conv layer: `self.fc(x)` where `self.fc =
    nn.Linear(...)`, or `model(x)` where `model = nn.Sequential(..., nn.Linear(...))`; or a name
    holding one. Returns the layer's class name."""
    for _ in range(2):
        if isinstance(node, ast.Call):
            layer = name_of(node.func)
            if layer is None:
                return None
            built = ctx.constructed().get(layer)
            if built and built <= _LINEAR:
                return sorted(built)[0].rsplit(".", 1)[1]
            if built == {NN + "Sequential"}:
                lasts = [
                    a.value.args[-1]
                    for a in ctx.assigns
                    if isinstance(a.value, ast.Call)
                    and any(name_of(t) == layer for t in a.targets)
                    and a.value.args
                ]
                kinds = {ctx.qualname(x.func) if isinstance(x, ast.Call) else None for x in lasts}
                if lasts and kinds <= _LINEAR:
                    return sorted(k for k in kinds if k)[0].rsplit(".", 1)[1]
            return None
        value = ctx.reaching(node) if isinstance(node, ast.Name) else None
        if value is None:
            return None
        node = value
    return None


@rule(
    "TD006",
    "bce-on-logits",
    "bce-input-range",
    message={
        "en": "`{code}` is the raw output of an nn.{layer} (logits, any real number); BCELoss "
        "needs probabilities in [0, 1]: use BCEWithLogitsLoss on the logits",
        "zh": "`{code}` 是 nn.{layer} 的原始输出（logits，可以是任意实数）；BCELoss 要的是 [0, 1] "
        "之间的概率：改用 BCEWithLogitsLoss，直接传 logits",
    },
    why={
        "en": "`BCELoss` and `F.binary_cross_entropy` take probabilities. A Linear or Conv layer "
        "outputs logits, which leave [0, 1] as soon as the weights move: on the CPU the loss "
        'stops with "all elements of input should be between 0 and 1", on a GPU with the device '
        "assertion ``input_val >= zero && input_val <= one``.",
        "zh": "`BCELoss` 和 `F.binary_cross_entropy` 接收的是概率。Linear 或 Conv 层输出的是 "
        "logits，"
        '权重一变就会超出 [0, 1]：在 CPU 上报 "all elements of input should be between 0 and '
        '1"，在 GPU 上报设备端断言 ``input_val >= zero && input_val <= one``。',
    },
    fix={
        "en": "Use `nn.BCEWithLogitsLoss()` (or `F.binary_cross_entropy_with_logits`) on the "
        "logits: it applies the sigmoid itself, in a numerically stable way.",
        "zh": "对 logits 使用 `nn.BCEWithLogitsLoss()`（或 `F.binary_cross_entropy_with_logits`）："
        "它自己会做 sigmoid，而且数值更稳定。",
    },
    bad="""
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
loss = nn.BCELoss()(model(x), y)
""",
    good="""
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
loss = nn.BCEWithLogitsLoss()(model(x), y)
""",
)
def bce_on_logits(ctx: Context) -> Iterator[Hit]:
    for _call, inp, _ in loss_calls(ctx, BCE_CLASSES, BCE_FUNCS):
        layer = _logits(ctx, inp) if inp is not None else None
        if layer is None and inp is not None:
            made = produced(ctx, inp)
            layer = made[7:] if made and made.startswith("linear:") else None
        if layer:
            yield Hit(inp, {"layer": layer})  # type: ignore[arg-type]


# Losses whose first two parameters are (weight or margin or size_average, size_average or
# reduce): given two tensors, the constructor tests `if size_average and reduce` on them.
_LEGACY_FIRST_TWO = frozenset(
    NN + name
    for name in (
        "L1Loss",
        "MSELoss",
        "NLLLoss",
        "CrossEntropyLoss",
        "BCELoss",
        "BCEWithLogitsLoss",
        "KLDivLoss",
        "SmoothL1Loss",
        "SoftMarginLoss",
        "MultiLabelSoftMarginLoss",
        "MultiLabelMarginLoss",
        "HingeEmbeddingLoss",
        "CosineEmbeddingLoss",
        "MarginRankingLoss",
    )
)


@rule(
    "TD005",
    "loss-class-given-tensors",
    "tensor-bool-ambiguous",
    message={
        "en": "`{code}` passes the tensors to the loss's constructor; create the loss first, "
        "then call it: `{cls}()(input, target)`",
        "zh": "`{code}` 把 tensor 传给了 loss 的构造函数；要先创建 loss 再调用它"
        "：`{cls}()(input, target)`",
    },
    why={
        "en": "`nn.MSELoss`, `nn.CrossEntropyLoss` and the other loss classes are modules: "
        "their constructor takes options (`weight`, `reduction`...), and the object it returns "
        "computes the loss. `nn.MSELoss(output, target)` hands the tensors to the legacy "
        "`size_average` / `reduce` options, and the constructor fails with "
        '"Boolean value of Tensor with more than one value is ambiguous".',
        "zh": "`nn.MSELoss`、`nn.CrossEntropyLoss` 等 loss 类都是 module：构造函数接收的是选项"
        "（`weight`、"
        "`reduction`……），构造出来的对象才用来算 loss。`nn.MSELoss(output, target)` 把 tensor 传"
        "给了"
        '旧的 `size_average` / `reduce` 参数，构造函数报 "Boolean value of Tensor with more than '
        'one value is ambiguous"。',
    },
    fix={
        "en": "Create the loss once, then call it: `criterion = nn.MSELoss()` and "
        "`loss = criterion(output, target)`; or use the function `F.mse_loss(output, target)`.",
        "zh": "先创建一次 loss 再调用：`criterion = nn.MSELoss()`，然后 `loss = criterion(output, "
        "target)`；或者直接用函数 `F.mse_loss(output, target)`。",
    },
    bad="""
loss = nn.MSELoss(output, target)
""",
    good="""
criterion = nn.MSELoss()
loss = criterion(output, target)
""",
)
def loss_class_given_tensors(ctx: Context) -> Iterator[Hit]:
    for call in ctx.calls:
        q = ctx.qualname(call.func)
        if q in _LEGACY_FIRST_TWO and len(call.args) >= 2:
            first, second = call.args[:2]
            if not any(isinstance(a, ast.Constant | ast.Starred) for a in (first, second)):
                yield Hit(call, {"cls": q.rsplit(".", 1)[1]})
