"""Every runtime check as data: its id, the knowledge-base entry it points at, its severity and its
words in both languages. The checks' logic lives in preflight.py and watch.py; this module imports
nothing heavy, so the site generator can list, on each entry's page, the checks that catch it.

`entry` is None for the checks that report an exception torch raised: the entry is then whatever
the text diagnoser matches for that exception's traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

ERROR, WARNING, INFO = "error", "warning", "info"


@dataclass(frozen=True)
class Check:
    id: str
    tool: str  # "preflight" | "watch"
    entry: str | None
    severity: str
    title: dict[str, str]  # what it checks: the ✓ line of the checklist
    message: dict[str, str]  # what it found, a format string over the finding's values


def _check(
    id: str,
    tool: str,
    entry: str | None,
    severity: str,
    title: tuple[str, str],
    message: tuple[str, str],
) -> Check:
    return Check(
        id,
        tool,
        entry,
        severity,
        {"en": title[0], "zh": title[1]},
        {"en": message[0], "zh": message[1]},
    )


_P, _W = "preflight", "watch"

CHECKS: tuple[Check, ...] = (
    # data
    _check(
        "data.nonfinite",
        _P,
        "nan-loss",
        ERROR,
        ("inputs hold no NaN or inf", "输入里没有 NaN 或 inf"),
        (
            "{where} hold {count} NaN/inf values out of {total}: every loss computed from it "
            "is nan",
            "{where} 里有 {count} 个 NaN/inf（共 {total} 个值），用它算出来的 loss 全是 nan",
        ),
    ),
    _check(
        "data.scale",
        _P,
        "loss-not-decreasing",
        WARNING,
        ("float inputs are normalised", "浮点输入已经归一化"),
        (
            "{where} range from {min} to {max} (mean {mean}): they look unnormalised "
            "(raw 0–255 pixels or raw features); divide by 255 or standardise it",
            "{where} 取值范围是 {min} 到 {max}（均值 {mean}），看起来没有归一化"
            "（原始 0–255 像素或原始特征）；除以 255 或者做标准化",
        ),
    ),
    _check(
        "data.target-range",
        _P,
        "target-out-of-bounds",
        ERROR,
        ("class targets fit the model's outputs", "类别标签在模型输出的类别数之内"),
        (
            "targets range from {min} to {max}, but the model outputs {classes} classes "
            "(valid targets are 0 to {last}); on CUDA this is a device-side assert",
            "标签取值从 {min} 到 {max}，但模型只输出 {classes} 个类别（合法标签是 0 到 {last}）；"
            "在 CUDA 上会触发 device-side assert",
        ),
    ),
    _check(
        "data.one-class",
        _P,
        "loss-not-decreasing",
        WARNING,
        ("targets hold more than one class", "标签不止一个类别"),
        (
            "all {count} targets in the batches checked are {value}: the model can reach a low "
            "loss by always predicting it (a filtered or unshuffled dataset?)",
            "检查过的 {count} 个标签全是 {value}：模型永远预测它就能让 loss 很低"
            "（数据被过滤了，或者没有 shuffle？）",
        ),
    ),
    _check(
        "data.imbalance",
        _P,
        "loss-not-decreasing",
        WARNING,
        ("no class holds nearly all the labels", "没有哪个类别几乎占了全部标签"),
        (
            "{share} of the {count} labels in the batches checked are {value}: a model that "
            "always predicts it scores {share} accuracy; weight the loss "
            "(CrossEntropyLoss(weight=...), pos_weight) or sample the classes evenly "
            "(WeightedRandomSampler), and judge it by per-class recall or F1",
            "检查过的 {count} 个标签里有 {share} 是 {value}：模型永远预测它，准确率就有 {share}；"
            "给 loss 加权（CrossEntropyLoss(weight=...)、pos_weight）或者均衡采样"
            "（WeightedRandomSampler），并用每类的 recall 或 F1 来评估",
        ),
    ),
    _check(
        "data.device",
        _P,
        "device-mismatch",
        ERROR,
        ("your code puts the inputs on the model's device", "你的代码把输入放到了模型所在的设备上"),
        (
            "after your move, {name} is on {device} but the model is on {model}: move it with "
            "the model's device, e.g. x.to(next(model.parameters()).device)",
            "按你的代码移动之后，{name} 在 {device} 上，模型却在 {model} 上：用模型所在的设备"
            "来移动它，比如 x.to(next(model.parameters()).device)",
        ),
    ),
    _check(
        "seed.unseeded",
        _P,
        "results-not-reproducible",
        INFO,
        ("torch's random generator is seeded", "torch 的随机数生成器设了种子"),
        (
            "torch was never seeded (its seed is {seed}, drawn at start-up): two runs start "
            "from different weights, shuffles and worker seeds; call diagnoser.set_seed(0) "
            "before building the model if runs must repeat",
            "torch 没有设随机种子（当前种子 {seed} 是启动时随机取的）：每次运行的初始权重、"
            "shuffle 顺序和 worker 的种子都不一样；如果需要复现，在构建模型之前调用 "
            "diagnoser.set_seed(0)",
        ),
    ),
    _check(
        "seed.main-process-random",
        _P,
        "results-not-reproducible",
        INFO,
        (
            "the Dataset draws no global numpy/random numbers in the main process",
            "Dataset 在主进程里不用 numpy/random 的全局随机数",
        ),
        (
            "reading a sample draws from {generators} in this process (num_workers=0), which "
            "torch.manual_seed does not seed: seed it too (diagnoser.set_seed seeds every "
            "generator), or draw the augmentation from torch",
            "读取样本时在主进程里用了 {generators} 的随机数（num_workers=0），torch.manual_seed "
            "管不到它：把它的种子也设上（diagnoser.set_seed 会设所有生成器的种子），或者改用 "
            "torch 生成随机增强",
        ),
    ),
    _check(
        "data.workers-same-random",
        _P,
        "workers-same-augmentation",
        ERROR,
        (
            "DataLoader workers draw different random augmentations",
            "DataLoader 的各个 worker 随机增强各不相同",
        ),
        (
            "two of the {workers} DataLoader workers returned the same random sample for index "
            "{index}: each worker holds an identical copy of the Dataset's random generator, so "
            "the workers repeat each other's augmentations",
            "{workers} 个 DataLoader worker 里有两个对第 {index} 个样本返回了同样的随机结果：每个 "
            "worker 都拿到了 Dataset 里随机数生成器的一份相同拷贝，各个 worker 的数据增强完全重复",
        ),
    ),
    _check(
        "data.target-shape",
        _P,
        "bce-target-size",
        ERROR,
        ("target shape matches the output", "target 的 shape 和输出一致"),
        (
            "the output has shape {output} and the target {target}: the loss broadcasts them "
            "to {broadcast} and compares every output with every target",
            "输出的 shape 是 {output}，target 是 {target}：loss 会把它们广播成 {broadcast}，"
            "拿每个输出去和每个 target 比",
        ),
    ),
    # model
    _check(
        "model.forward",
        _P,
        None,
        ERROR,
        ("forward runs (eval mode, no_grad)", "forward 能跑通（eval 模式，no_grad）"),
        ("the forward pass fails: {error}", "forward 出错：{error}"),
    ),
    _check(
        "model.output-nonfinite",
        _P,
        "nan-loss",
        ERROR,
        ("outputs hold no NaN or inf", "输出里没有 NaN 或 inf"),
        (
            "the model's output holds {count} NaN/inf values out of {total}",
            "模型输出里有 {count} 个 NaN/inf（共 {total} 个值）",
        ),
    ),
    _check(
        "model.probabilities",
        _P,
        "loss-not-decreasing",
        WARNING,
        ("outputs are logits where the loss expects logits", "loss 要 logits 的地方给的是 logits"),
        (
            "the output is already {kind} ({evidence}), but {loss} expects {expects}: {fix}",
            "输出已经是{kind}（{evidence}），但 {loss} 要的是{expects}：{fix}",
        ),
    ),
    _check(
        "model.log-probabilities",
        _P,
        "loss-negative",
        ERROR,
        ("NLLLoss gets log-probabilities", "NLLLoss 拿到的是对数概率"),
        (
            "{loss} expects log-probabilities, but the output is not: the rows of exp(output) "
            "sum to {low} to {high}, not 1 (raw logits?). Add log_softmax at the end of the "
            "model, or use CrossEntropyLoss on the logits",
            "{loss} 要的是对数概率，但输出不是：exp(output) 每行加起来在 {low} 到 {high} 之间，"
            "而不是 1（直接给了 logits？）。在模型最后加 log_softmax，或者对 logits 用 "
            "CrossEntropyLoss",
        ),
    ),
    _check(
        "model.one-output",
        _P,
        "loss-all-zero",
        ERROR,
        ("a class loss gets more than one output", "分类 loss 拿到的输出不止一个"),
        (
            "the model has one output per sample, and {loss} over one class is always 0: "
            "nothing is learned. For two classes use BCEWithLogitsLoss on that one output, or "
            "give the model one output per class",
            "模型每个样本只有一个输出，{loss} 对一个类别算出来永远是 0，什么也学不到。二分类就对"
            "这一个输出用 BCEWithLogitsLoss，或者让模型每个类别输出一个值",
        ),
    ),
    _check(
        "model.eval-random",
        _P,
        "dropout-active-at-eval",
        ERROR,
        (
            "two eval-mode forwards of one batch agree",
            "同一个 batch 在 eval 模式下两次 forward 结果一致",
        ),
        (
            "two eval-mode forwards of the same batch give different outputs, first in {module}: "
            "dropout (or other randomness) is still active at eval",
            "同一个 batch 在 eval 模式下两次 forward 的输出不一样，最早出现在 {module}："
            "eval 时 dropout（或者别的随机操作）还在起作用",
        ),
    ),
    _check(
        "data.token-range",
        _P,
        "embedding-index-out-of-range",
        ERROR,
        (
            "ids fed to each embedding fit its table",
            "送进每个 Embedding 的 id 都在它的表范围内",
        ),
        (
            "{layer} has num_embeddings={num} (ids 0 to {last}) but this batch feeds it ids from "
            "{min} to {max}: on the CPU the lookup raises IndexError, on the GPU it is a "
            "device-side assert that ends the process",
            "{layer} 的 num_embeddings={num}（id 只能是 0 到 {last}），但这个 batch 送进去的 id "
            "范围是 {min} 到 {max}：CPU 上查表会抛 IndexError，GPU 上会触发 device-side assert，"
            "整个进程都会挂掉",
        ),
    ),
    _check(
        "model.eval-training",
        _P,
        "train-eval-mismatch",
        ERROR,
        (
            "model.eval() puts every layer in eval mode",
            "model.eval() 让每一层都进入 eval 模式",
        ),
        (
            "after model.eval(), layers that behave differently in training are still in train "
            "mode ({count}: {layers}): a train() override or a `.training` flag keeps them "
            "there, so evaluation uses training behaviour",
            "调用 model.eval() 之后，还有 {count} 个在训练时行为不同的层处于 train 模式"
            "（{layers}）：某个重写的 train() 或者手动设置的 `.training` 把它们留在了 train 模式，"
            "评估时用的还是训练时的行为",
        ),
    ),
    _check(
        "model.eval-train-differ",
        _P,
        "train-eval-mismatch",
        WARNING,
        (
            "eval-mode and train-mode outputs of one batch are on one scale",
            "同一个 batch 在 eval 和 train 模式下的输出量级一致",
        ),
        (
            "on one batch the model's eval-mode output differs from its train-mode output by "
            "{ratio}x the output's own size, first in {module}: the layers that switch with "
            "model.eval() (BatchNorm's running statistics) do not match what training sees",
            "同一个 batch，模型在 eval 模式和 train 模式下的输出差了 {ratio} 倍"
            "（按输出本身的大小算），最早从 {module} 开始不一样："
            "随 model.eval() 切换的层（BatchNorm 的 running 统计量）和训练时看到的对不上",
        ),
    ),
    _check(
        "model.batch-collapsed",
        _P,
        "batch-collapsed",
        ERROR,
        ("the output keeps every sample of the batch", "输出保留了 batch 里的每个样本"),
        (
            "the model got {samples} samples but its output has shape {output} for a target of "
            "shape {target}: the batch collapsed into one sample (a mean, sum or view over dim "
            "0?), and the loss compares that one output with every target",
            "模型收到 {samples} 个样本，输出的 shape 却是 {output}，target 是 {target}："
            "batch 被压成了一个样本（在 dim 0 上做了 mean、sum 或 view？），"
            "loss 会拿这一个输出去和每个 target 比",
        ),
    ),
    _check(
        "model.batchnorm-batch1",
        _P,
        "batchnorm-single-sample",
        WARNING,
        ("no BatchNorm batch of a single sample", "没有单样本 batch 进 BatchNorm"),
        (
            "{module} is a BatchNorm layer and {when} has a single sample: in train mode it fails "
            "or learns from the statistics of one sample",
            "{module} 是 BatchNorm 层，而{when}只有一个样本：train 模式下会报错，"
            "或者拿一个样本的统计量去训练",
        ),
    ),
    # loss
    _check(
        "loss.compute",
        _P,
        None,
        ERROR,
        ("the loss computes with your loss_fn", "用你的 loss_fn 能算出 loss"),
        ("computing the loss fails: {error}", "计算 loss 出错：{error}"),
    ),
    _check(
        "loss.nonfinite",
        _P,
        "nan-loss",
        ERROR,
        ("the loss is finite", "loss 是有限值"),
        ("the first loss is {loss}", "第一个 loss 就是 {loss}"),
    ),
    _check(
        "loss.negative",
        _P,
        "loss-negative",
        ERROR,
        ("the loss is not negative", "loss 不是负数"),
        (
            "{loss_fn} returns {loss}, below zero: its input is not what it expects "
            "(NLLLoss wants log-probabilities, e.g. from log_softmax)",
            "{loss_fn} 返回 {loss}，小于 0：输入不是它要的那种"
            "（NLLLoss 要的是对数概率，比如 log_softmax 的输出）",
        ),
    ),
    _check(
        "loss.initial",
        _P,
        "loss-not-decreasing",
        WARNING,
        ("the initial loss is near its expected value", "初始 loss 接近理论值"),
        (
            "the initial loss is {loss}, far above log({classes}) = {expected} expected for "
            "{classes} classes at random init: the initial outputs are too large or too confident",
            "初始 loss 是 {loss}，远高于 {classes} 个类别随机初始化时应有的 "
            "log({classes}) = {expected}：初始输出太大或者太“自信”",
        ),
    ),
    # gradients
    _check(
        "grad.backward",
        _P,
        None,
        ERROR,
        ("backward runs", "backward 能跑通"),
        ("backward fails: {error}", "backward 出错：{error}"),
    ),
    _check(
        "grad.none",
        _P,
        "gradient-none",
        WARNING,
        ("every trainable parameter gets a gradient", "每个可训练参数都拿到了梯度"),
        (
            "{count} trainable parameters have no gradient after backward (unused in forward, or "
            "cut from the graph): {params}",
            "backward 之后有 {count} 个可训练参数没有梯度"
            "（forward 里没用到，或者被从计算图里断开了）：{params}",
        ),
    ),
    _check(
        "grad.frozen",
        _P,
        "gradient-none",
        INFO,
        ("parameters are trainable", "参数都是可训练的"),
        (
            "{count} of {total} parameters are frozen (requires_grad=False): {params}; "
            "intended for fine-tuning, a bug otherwise",
            "{total} 个参数里有 {count} 个被冻结（requires_grad=False）：{params}；"
            "微调时是故意的，否则就是 bug",
        ),
    ),
    _check(
        "grad.nonfinite",
        _P,
        "nan-loss",
        ERROR,
        ("gradients are finite", "梯度是有限值"),
        (
            "{count} parameters get NaN/inf gradients after one backward: {params}",
            "一次 backward 之后有 {count} 个参数的梯度是 NaN/inf：{params}",
        ),
    ),
    _check(
        "grad.zero",
        _P,
        "loss-not-decreasing",
        WARNING,
        ("no gradient is exactly zero", "没有全为 0 的梯度"),
        (
            "{count} parameters get gradients that are exactly zero: {params} "
            "(dead ReLUs, a detached branch, or a constant output)",
            "{count} 个参数的梯度全是 0：{params}（ReLU 死了、某个分支被 detach，或者输出是常数）",
        ),
    ),
    _check(
        "grad.large",
        _P,
        "gradient-explosion",
        WARNING,
        ("gradient norms are moderate", "梯度范数正常"),
        (
            "the largest gradient norm is {norm} ({param}) after one backward: clip gradients "
            "or lower the learning rate",
            "一次 backward 之后最大的梯度范数是 {norm}（{param}）：做梯度裁剪或者调小学习率",
        ),
    ),
    # optimizer
    _check(
        "optim.missing",
        _P,
        "optimizer-empty-params",
        ERROR,
        ("the optimizer holds every trainable parameter", "optimizer 包含所有可训练参数"),
        (
            "{count} trainable parameters are not in the optimizer and will never change: "
            "{params} (was the optimizer built before the layer was added or replaced?)",
            "{count} 个可训练参数不在 optimizer 里，永远不会更新：{params}"
            "（optimizer 是不是在换层或加层之前建的？）",
        ),
    ),
    _check(
        "optim.lr",
        _P,
        "loss-not-decreasing",
        WARNING,
        ("the learning rate suits the optimizer", "学习率和 optimizer 相称"),
        (
            "lr={lr} is {how} for {optimizer} (usual range {low} to {high})",
            "对 {optimizer} 来说 lr={lr} {how}（常见范围 {low} 到 {high}）",
        ),
    ),
    _check(
        "optim.step",
        _P,
        "loss-not-decreasing",
        ERROR,
        ("an optimizer step changes the weights", "optimizer.step() 会改变权重"),
        (
            "after optimizer.step() no trainable parameter changed (lr {lr}, zero gradients, "
            "or parameters the model no longer uses)",
            "optimizer.step() 之后没有任何可训练参数变化"
            "（lr 为 {lr}、梯度全是 0，或者模型已经不用这些参数）",
        ),
    ),
    _check(
        "optim.frozen",
        _P,
        "optimizer-step-no-update",
        ERROR,
        ("the optimizer holds trainable parameters", "optimizer 里有可训练的参数"),
        (
            "every one of the {count} parameters the optimizer holds is frozen "
            "(requires_grad=False): optimizer.step() can change none of them ({params})",
            "optimizer 里的 {count} 个参数全都被冻结了（requires_grad=False）："
            "optimizer.step() 一个也改不了（{params}）",
        ),
    ),
    # optional, with a flag
    _check(
        "optim.float16-weights",
        _P,
        "optimizer-step-no-update",
        WARNING,
        (
            "the optimizer updates float32 weights, not float16",
            "optimizer 更新的是 float32 权重，不是 float16",
        ),
        (
            "{optimizer} updates float16 parameters directly ({count}: {params}): an update "
            "smaller than float16's resolution (about 1e-3 of the weight) rounds away, so "
            "small learning rates change nothing; keep float32 weights and use autocast",
            "{optimizer} 直接更新 {count} 个 float16 参数（{params}）：比 float16 精度"
            "（约为权重的千分之一）还小的更新会被舍入掉，lr 一小就什么都没改；权重保持 float32，"
            "用 autocast 做混合精度",
        ),
    ),
    _check(
        "overfit",
        _P,
        "loss-not-decreasing",
        ERROR,
        ("the model overfits one batch", "模型能过拟合一个 batch"),
        (
            "after {steps} steps on one batch the loss went from {first} to {last}: a model that "
            "cannot overfit one batch has a bug in its model, loss or optimizer",
            "在同一个 batch 上训练 {steps} 步，loss 从 {first} 变成 {last}："
            "连一个 batch 都过拟合不了，说明模型、loss 或 optimizer 有 bug",
        ),
    ),
    _check(
        "timing",
        _P,
        "slow-training-dataloader",
        WARNING,
        ("loading a batch is faster than computing it", "加载一个 batch 比计算它快"),
        (
            "loading a batch takes {data} s, computing it {compute} s: the model waits on data; "
            "{suggestion}",
            "加载一个 batch 要 {data} 秒，计算只要 {compute} 秒：模型在等数据；{suggestion}",
        ),
    ),
    _check(
        "memory",
        _P,
        "cuda-oom",
        WARNING,
        ("peak memory per step leaves headroom", "每步的峰值显存有余量"),
        (
            "one training step peaks at {peak} MB of the GPU's {total} MB: a bigger batch or a "
            "longer sequence will run out of memory",
            "一个训练 step 的显存峰值是 {peak} MB（GPU 共 {total} MB）："
            "batch 再大一点或序列再长一点就会 OOM",
        ),
    ),
    # watch
    _check(
        "watch.nonfinite",
        _W,
        "nan-loss",
        ERROR,
        ("no NaN or inf in activations and gradients", "激活值和梯度里没有 NaN 或 inf"),
        (
            "the first NaN/inf appeared at step {step}, in the {phase} pass, in {module}",
            "第一个 NaN/inf 出现在第 {step} 步的{phase}阶段，位置是 {module}",
        ),
    ),
    _check(
        "watch.grad-exploding",
        _W,
        "gradient-explosion",
        WARNING,
        ("gradient norms stay bounded", "梯度范数没有爆炸"),
        (
            "the gradient norm of {layer} reached {norm} at step {step} (it was {first} at "
            "step {first_step})",
            "{layer} 的梯度范数在第 {step} 步达到 {norm}（第 {first_step} 步时是 {first}）",
        ),
    ),
    _check(
        "watch.grad-vanishing",
        _W,
        "vanishing-gradient",
        WARNING,
        ("no layer's gradient vanishes", "没有哪一层的梯度消失"),
        (
            "{count} layers get gradients over {ratio} times smaller than {top} at each of "
            "the last {samples} sampled steps; the faintest, {layer}, has norm {norm} against "
            "{top_norm}: they barely learn",
            "连续 {samples} 次采样里，有 {count} 层的梯度比 {top} 小 {ratio} 倍以上；"
            "最弱的 {layer} 范数只有 {norm}（对比 {top_norm}）：这些层几乎学不动",
        ),
    ),
    _check(
        "watch.grad-dead",
        _W,
        "gradient-none",
        WARNING,
        ("every layer gets a non-zero gradient", "每一层都有非零梯度"),
        (
            "{layer} got gradients of exactly zero at each of the last {count} sampled steps: "
            "dead layers (dead ReLUs, a detached branch)",
            "最近 {count} 次采样里，{layer} 的梯度都正好是 0：这些层“死”了"
            "（ReLU 死了、分支被 detach）",
        ),
    ),
    _check(
        "watch.loss-spike",
        _W,
        "gradient-explosion",
        WARNING,
        ("no loss spike", "loss 没有突然飙升"),
        (
            "the loss jumped to {loss} at step {step}, {ratio} times the recent median {median} "
            "and over twice the highest loss before it ({top}), and stayed that high at the next "
            "step",
            "第 {step} 步 loss 跳到 {loss}，是最近中位数 {median} 的 {ratio} 倍，"
            "也超过了此前最高 loss（{top}）的两倍，下一步仍然这么高",
        ),
    ),
    _check(
        "watch.optim-frozen",
        _W,
        "optimizer-step-no-update",
        ERROR,
        ("the optimizer holds trainable parameters", "optimizer 里有可训练的参数"),
        (
            "every one of the {count} parameters the optimizer holds is frozen "
            "(requires_grad=False): optimizer.step() can change none of them ({params})",
            "optimizer 里的 {count} 个参数全都被冻结了（requires_grad=False）："
            "optimizer.step() 一个也改不了（{params}）",
        ),
    ),
    _check(
        "watch.step-without-grads",
        _W,
        "optimizer-step-no-update",
        ERROR,
        ("optimizer.step() finds the gradients", "optimizer.step() 拿得到梯度"),
        (
            "at step {step}, and at the sampled step before it, {optimizer}.step() found no "
            "gradient on any trainable parameter it holds, so it changed nothing: the gradients "
            "were cleared between backward() and step() (zero_grad() in between?), or the "
            "backward ran on another model",
            "第 {step} 步和之前抽查的一步，{optimizer}.step() 在它持有的可训练参数上都找不到梯度，"
            "所以什么也没更新：梯度在 backward() 和 step() 之间被清掉了（zero_grad() 放到了"
            "中间？），或者 backward 算的是别的模型",
        ),
    ),
    _check(
        "watch.step-no-update",
        _W,
        "optimizer-step-no-update",
        ERROR,
        ("each optimizer step changes the weights", "每次 optimizer.step() 都会改变权重"),
        (
            "at step {step}, {optimizer}.step() changed only {share}% of the weights that had a "
            "gradient, in {which} (lr {lr}, dtype {dtype}): the weights do not change",
            "第 {step} 步 {optimizer}.step() 只改变了有梯度的权重中的 {share}%，位置是{which}"
            "（lr {lr}，dtype {dtype}）：权重不更新",
        ),
    ),
    _check(
        "watch.bfloat16-rounded",
        _W,
        "optimizer-step-no-update",
        WARNING,
        (
            "every bfloat16 weight the optimizer updates moves",
            "optimizer 更新的每个 bfloat16 权重都在变",
        ),
        (
            "at step {step} {optimizer}.step() (lr {lr}) left {share}% of the elements that had "
            "a gradient unchanged in bfloat16 tensors ({count}: {params}): at those weights' size "
            "each update is below bfloat16's resolution and rounds back to the same value, so "
            "they never train. Keep float32 master weights (the model in float32 under "
            "torch.autocast, or an optimizer that keeps a float32 copy); a higher lr is no fix",
            "第 {step} 步 {optimizer}.step()（lr {lr}）之后，{count} 个 bfloat16 tensor"
            "（{params}）里有梯度的元素有 {share}% 没有变：在这些权重的量级上，每次更新都小于 "
            "bfloat16 的精度，舍入后又回到原值，所以它们根本没在训练。请保留 float32 的主权重"
            "（模型用 float32，配合 torch.autocast；或者用自带 float32 副本的 optimizer），"
            "调大 lr 解决不了问题",
        ),
    ),
    _check(
        "watch.lr-ignored",
        _W,
        "optimizer-step-no-update",
        ERROR,
        ("each group's lr shows in its update", "每个参数组的 lr 都用在了更新上"),
        (
            "at step {step}, {optimizer}.step() changed the weights of {which} although its lr "
            "is 0: the optimizer does not read the group's lr (a custom optimizer that keeps its "
            "own copy of the rate), so schedulers and group['lr'] = ... change nothing",
            "第 {step} 步 {optimizer}.step() 改变了{which}的权重，而这个组的 lr 是 0："
            "optimizer 没有读参数组里的 lr（自定义 optimizer 自己存了一份学习率），"
            "所以 scheduler 和 group['lr'] = ... 都不起作用",
        ),
    ),
    _check(
        "watch.scheduler-other-optimizer",
        _W,
        "loss-not-decreasing",
        ERROR,
        (
            "the lr scheduler drives the optimizer that steps",
            "lr scheduler 调的是真正在 step 的 optimizer",
        ),
        (
            "{scheduler}.get_last_lr() says {said} but the {optimizer} that steps the model uses "
            "lr {lr}: the scheduler was built on another {other} that never steps (was the "
            "optimizer made again after the scheduler?), so the schedule never applies",
            "{scheduler}.get_last_lr() 显示 {said}，但实际在 step 的 {optimizer} 用的是 lr {lr}："
            "scheduler 绑在另一个从不 step 的 {other} 上（是不是建完 scheduler 之后又重新建了 "
            "optimizer？），学习率调度根本没生效",
        ),
    ),
    _check(
        "watch.frozen-changed",
        _W,
        "frozen-layers-trained",
        ERROR,
        ("frozen parameters stay unchanged", "冻结的参数保持不变"),
        (
            "at step {step} {optimizer}.step() changed frozen parameters "
            "(requires_grad=False), {count} in all: {params}. The optimizer still holds them: "
            "with a .grad that is a tensor (zeroed, not None, or left from before the freeze) "
            "momentum, weight decay and Adam's running averages keep moving them, and some "
            "optimizers decay them with no gradient at all. Build the optimizer on the trainable "
            "parameters only (or set the frozen ones' .grad to None)",
            "第 {step} 步 {optimizer}.step() 改动了 {count} 个已冻结（requires_grad=False）的参数："
            "{params}。它们还在 optimizer 里：只要 .grad 还是 tensor（被清零而不是 None，或者是"
            "冻结前留下的），momentum、weight decay 和 Adam 的滑动平均就会继续更新它们；有的 "
            "optimizer 在没有梯度时也照样做 weight decay。请只用可训练的参数构建 optimizer"
            "（或者把冻结参数的 .grad 设为 None）",
        ),
    ),
    _check(
        "watch.float16-weights",
        _W,
        "optimizer-step-no-update",
        WARNING,
        (
            "the optimizer updates float32 weights, not float16",
            "optimizer 更新的是 float32 权重，不是 float16",
        ),
        (
            "at step {step} {optimizer} updates float16 parameters directly ({count}: {params}): "
            "an update smaller than float16's resolution (about 1e-3 of the weight) rounds "
            "away, so small learning rates change nothing; keep float32 weights and use autocast",
            "第 {step} 步 {optimizer} 直接更新 {count} 个 float16 参数（{params}）：比 float16 "
            "精度（约为权重的千分之一）还小的更新会被舍入掉，lr 一小就什么都没改；权重保持 "
            "float32，用 autocast 做混合精度",
        ),
    ),
    _check(
        "watch.unfrozen",
        _W,
        "frozen-layers-trained",
        WARNING,
        (
            "layers frozen before training are still frozen at the first step",
            "训练前冻结的层在第一步时仍然是冻结的",
        ),
        (
            "parameters frozen (requires_grad=False) when watch started are trainable at "
            "{optimizer}'s first step, which updates them ({count}: {params}): something "
            "after your freezing code (a train() override, a callback, requires_grad_(True)) "
            "unfroze them",
            "watch 开始时有 {count} 个参数是冻结的（requires_grad=False），到 {optimizer} 第一次 "
            "step 时却变成可训练的，并且被更新了（{params}）：冻结代码之后有别的东西"
            "（重写的 train()、某个 callback、requires_grad_(True)）把它们解冻了",
        ),
    ),
    _check(
        "watch.step-timeout",
        _W,
        None,  # a single process that stops: no entry says why in general; the stacks do
        ERROR,
        (
            "every training step finishes within step_timeout",
            "每个训练 step 都在 step_timeout 之内完成",
        ),
        (
            "no training step finished for {seconds} s ({last}): the stack of each thread "
            "follows; the main thread's innermost frames are where it waits (a DataLoader "
            "worker that hangs, a lock, I/O)",
            "已经 {seconds} 秒没有训练 step 完成（{last}）：下面是各线程的调用栈，主线程最里面的"
            "几帧就是它卡住的地方（卡住的 DataLoader worker、锁、I/O）",
        ),
    ),
    _check(
        "watch.rank-timeout",
        _W,
        "nccl-error",
        ERROR,
        (
            "every rank finishes each training step within step_timeout",
            "每个 rank 都在 step_timeout 之内完成每个训练 step",
        ),
        (
            "rank {rank} of {ranks}: no training step finished for {seconds} s ({last}); "
            "{waiting}. Each rank with watch(step_timeout=...) prints its own stacks (below): "
            "the rank that is not waiting in a collective is the one that stopped. The last "
            "collectives of every rank: run with TORCH_NCCL_TRACE_BUFFER_SIZE=2000 and "
            "TORCH_NCCL_DUMP_ON_TIMEOUT=1 (NCCL's flight recorder)",
            "rank {rank}（共 {ranks} 个）：已经 {seconds} 秒没有训练 step 完成（{last}）；"
            "{waiting}。每个开了 watch(step_timeout=...) 的 rank 都会打印自己的调用栈（见下）："
            "没有在集合通信里等待的那个 rank 就是停住的那个。想看每个 rank 最后进入的集合通信，"
            "运行时设 TORCH_NCCL_TRACE_BUFFER_SIZE=2000 和 TORCH_NCCL_DUMP_ON_TIMEOUT=1"
            "（NCCL 的 flight recorder）",
        ),
    ),
    _check(
        "watch.stale-grad",
        _W,
        "stale-gradients",
        ERROR,
        (
            "gradients are cleared between optimizer steps",
            "两次 optimizer.step() 之间梯度被清零",
        ),
        (
            "at step {step} the new gradient of {param} was added to the one the last "
            "optimizer.step() already used: gradients keep accumulating (optimizer.zero_grad() "
            "is missing)",
            "第 {step} 步 {param} 的新梯度被加到了上一次 optimizer.step() 已经用过的梯度上："
            "梯度一直累加（漏了 optimizer.zero_grad()）",
        ),
    ),
    _check(
        "watch.eval-dropout",
        _W,
        "dropout-active-at-eval",
        ERROR,
        ("no Dropout layer trains during eval", "eval 时没有 Dropout 层处于 train 模式"),
        (
            "at step {step} the model ran in eval mode while {count} Dropout layers were still in "
            "train mode ({layers}): dropout is active at eval",
            "第 {step} 步模型在 eval 模式下运行，但有 {count} 个 Dropout 层还处于 train 模式"
            "（{layers}）：eval 时 dropout 还在起作用",
        ),
    ),
    _check(
        "watch.eval-training",
        _W,
        "train-eval-mismatch",
        ERROR,
        (
            "no layer other than Dropout trains during eval",
            "eval 时除了 Dropout 以外也没有层处于 train 模式",
        ),
        (
            "at step {step} the model ran in eval mode while layers that behave differently in "
            "training were still in train mode ({count}: {layers}): evaluation uses "
            "training behaviour (BatchNorm normalises with the eval batch and updates its "
            "running statistics from it)",
            "第 {step} 步模型在 eval 模式下运行，但有 {count} 个在训练时行为不同的层还处于 "
            "train 模式（{layers}）：评估用的是训练时的行为（BatchNorm 用评估 batch 自己的统计量"
            "做归一化，还会用它更新 running 统计量）",
        ),
    ),
    _check(
        "watch.eval-train-differ",
        _W,
        "train-eval-mismatch",
        WARNING,
        (
            "eval-mode and train-mode outputs of one batch are on one scale",
            "同一个 batch 在 eval 和 train 模式下的输出量级一致",
        ),
        (
            "at step {step} an eval batch gives outputs that differ from the same batch's "
            "train-mode outputs by {ratio}x their own size, first in {module}: "
            "BatchNorm's running statistics (or another layer that switches with model.eval()) "
            "do not match what training sees",
            "第 {step} 步，同一个评估 batch 在 eval 模式和 train 模式下的输出差了 {ratio} 倍"
            "（按输出本身的大小算），最早从 {module} 开始不一样：BatchNorm 的 running 统计量"
            "（或者别的随 model.eval() 切换的层）和训练时看到的对不上",
        ),
    ),
    _check(
        "watch.autocast-off",
        _W,
        "autocast-not-applied",
        WARNING,
        ("autocast applies to the layers it should", "autocast 确实作用在该作用的层上"),
        (
            "at step {step} the layer {module} ran in {dtype} inside autocast: {why}; mixed "
            "precision is not applied",
            "第 {step} 步，{module} 这一层在 autocast 里仍以 {dtype} 运行：{why}；混合精度没有生效",
        ),
    ),
    _check(
        "watch.autocast-disabled",
        _W,
        "autocast-not-applied",
        WARNING,
        (
            "torch does not switch off the autocast the run opens",
            "训练里打开的 autocast 没有被 torch 自己关掉",
        ),
        (
            "at step {step} torch switched off {autocast}: {why}. The model's parameters are on "
            "{device}, so the run computes in {param_dtype}, not {dtype}: mixed precision is not "
            "applied. Open autocast for the device the model is on "
            "(torch.autocast(device_type=x.device.type, ...)), or none on the CPU",
            "第 {step} 步，torch 把 {autocast} 关掉了：{why}。模型参数在 {device} 上，实际是用 "
            "{param_dtype} 而不是 {dtype} 在算，混合精度没有生效。autocast 要对应模型所在的设备"
            "（torch.autocast(device_type=x.device.type, ...)），在 CPU 上也可以干脆不用",
        ),
    ),
    _check(
        "watch.ranks-grads-differ",
        _W,
        "ddp-gradients-not-synchronised",
        ERROR,
        ("gradients are the same on every rank", "各个 rank 上的梯度相同"),
        (
            "before optimizer step {step} the gradient of {param} differs between the {ranks} "
            "ranks: the backward did not go through the DistributedDataParallel wrapper "
            "(model.module(x) instead of model(x)?), so nothing was averaged",
            "第 {step} 次 optimizer step 之前，{param} 的梯度在 {ranks} 个 rank 之间不一致："
            "backward 没有经过 DistributedDataParallel 包装（是不是写成了 model.module(x) 而不是 "
            "model(x)？），梯度根本没有做平均",
        ),
    ),
    _check(
        "watch.ranks-diverged",
        _W,
        "ddp-replicas-diverged",
        ERROR,
        ("model replicas stay equal on every rank", "各个 rank 上的模型副本保持一致"),
        (
            "after optimizer step {step} the weights of {param} differ between the {ranks} "
            "ranks: the replicas have diverged and every rank now trains a different model",
            "第 {step} 次 optimizer step 之后，{param} 的权重在 {ranks} 个 rank 之间不一致："
            "各个副本已经分叉，每个 rank 训练的是不同的模型",
        ),
    ),
    _check(
        "watch.memory-growth",
        _W,
        "gpu-memory-leak",
        WARNING,
        ("memory stays flat from step to step", "内存/显存不随 step 增长"),
        (
            "{what} grew at every one of {count} samples, from {first} MB at step {first_step} "
            "to {last} MB at step {last_step}: something keeps tensors (and their graphs) alive "
            "across steps, e.g. `total += loss` instead of `loss.item()`",
            "{what} 在连续 {count} 次采样里一直增长，从第 {first_step} 步的 {first} MB 涨到第 "
            "{last_step} 步的 {last} MB：有东西跨 step 留住了 tensor（和它的计算图），"
            "比如写了 `total += loss` 而不是 `loss.item()`",
        ),
    ),
    _check(
        "watch.break",
        _W,
        None,  # the finding names the entry of what broke (breaks.finding)
        ERROR,
        ("no break_on condition held", "break_on 条件一次也没有触发"),
        (
            "stopped at step {step}: {condition}{samples}",
            "在第 {step} 步停下：{condition}{samples}",
        ),
    ),
)

BY_ID: dict[str, Check] = {c.id: c for c in CHECKS}


def checks_for(entry_id: str) -> list[Check]:
    """The checks that point at an entry (for its page on the site)."""
    return [c for c in CHECKS if c.entry == entry_id]
