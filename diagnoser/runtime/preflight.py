"""preflight(): one look at the model, the data, the loss and the optimizer before training, on
real batches (up to eight are read, the model runs on the first), on the model's device or where
the user's own `move` puts them; everything it touches is put back as it was.

Each check is a small function that returns findings; the words and the entry of each are in
catalog.py. An exception torch raises on the way (in forward, in the loss, in backward) is itself
a finding, explained by the same knowledge base as a pasted traceback.
"""

from __future__ import annotations

import math
import os
import time
import traceback
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from ..speak.optional import requires

with requires("torch", extra="torch", feature="diagnoser.preflight"):
    import torch
from torch import nn
from torch.nn import functional as F
from torch.nn.parameter import is_lazy

from .batch_checks import collapsed_output
from .batches import (
    Batch,
    call,
    describe,
    model_device,
    scalar_loss,
    split,
    take,
    tensors,
    to_device,
)
from .catalog import ERROR
from .data_checks import workers_repeat_randomness
from .eval_train_checks import eval_train_apart, eval_train_finding
from .eval_train_checks import ready as eval_train_ready
from .findings import Finding, Report, listed
from .mode_checks import eval_forwards_differ, mode_dependent, training_under_eval
from .precision_checks import float16_weights
from .seed_checks import main_process_draws, unseeded
from .state import preserved
from .stepping import step
from .token_checks import embedding_ids_checked

# Loss families the checks know; a loss function not listed here is only run, never second-guessed.
_LOSS_KINDS: dict[str, tuple[type[nn.Module], Callable[..., Any]]] = {
    "ce": (nn.CrossEntropyLoss, F.cross_entropy),
    "nll": (nn.NLLLoss, F.nll_loss),
    "bce_logits": (nn.BCEWithLogitsLoss, F.binary_cross_entropy_with_logits),
    "bce": (nn.BCELoss, F.binary_cross_entropy),
    "mse": (nn.MSELoss, F.mse_loss),
    "l1": (nn.L1Loss, F.l1_loss),
    "smooth_l1": (nn.SmoothL1Loss, F.smooth_l1_loss),
    "huber": (nn.HuberLoss, F.huber_loss),
}
_ELEMENTWISE = ("mse", "l1", "smooth_l1", "huber")
# Learning rates seen in working setups, per optimizer family: (lowest, highest).
_LR_RANGE: dict[str, tuple[float, float]] = {
    "SGD": (1e-5, 1.0),
    **{name: (1e-6, 3e-2) for name in ("Adam", "AdamW", "Adamax", "NAdam", "RAdam", "RMSprop")},
}
# Normalised inputs have a mean and spread of order 1; a few outliers are allowed, a spread or
# offset of tens (raw 0-255 pixels, ages, prices) is not.
_SCALE_LIMIT = 20.0
_SPREAD_LIMIT = 5.0
_LARGE_GRAD = 1e3
# Class balance is judged on one label per sample, over enough of them to be a pattern.
_IMBALANCE_LABELS = 100
_IMBALANCE_SHARE = 0.9
# A worker hands each batch back through a queue and shared memory, about a millisecond of its
# own: a loader faster than that (tensors already in memory) only gets slower with workers.
_WORKER_HANDOFF_S = 2e-3
_SHOWN = 5


def preflight(
    model: nn.Module,
    data: Any,
    loss_fn: Callable[..., Any] | None = None,
    optimizer: torch.optim.Optimizer | None = None,
    *,
    batches: int = 8,
    compute_loss: Callable[[Any], Any] | None = None,
    overfit_steps: int = 0,
    timing: bool = False,
    memory: bool = False,
    move: Callable[[Any], Any] | None = None,
) -> Report:
    """Check a training set-up on real batches before training; return a Report.

    data: a DataLoader, an iterable of batches, or one batch. A batch is a tensor, an
    (inputs, target) pair, or a dict (the target under "labels"/"label"/"targets"/"target"/"y").
    A DataLoader or a list is read afresh; a one-shot iterator loses the batches read here.
    loss_fn(output, target) gets what the model returned, as in `loss_fn(model(x), y)`.
    compute_loss: for loops that compute the loss their own way (a Lightning training_step): it
    gets the batch as the loader yields it, on the model's device, and returns the loss. With it,
    a model that defines no forward (its layers called in training_step) is checked through it.
    overfit_steps: train on one batch for that many steps; the loss must fall.
    timing: time loading a batch against computing it. memory: peak GPU memory of one step.
    move: how your training loop puts a batch on the device, e.g.
    `lambda b: (b[0].to(device), b[1].to(device))`. Without it preflight moves each batch to the
    model's device itself, which would hide a tensor your loop leaves behind; with it the batches
    are checked where your code puts them.
    """
    if not isinstance(model, nn.Module):
        raise TypeError(f"model must be a torch.nn.Module, not {type(model).__name__}")
    if optimizer is not None and not isinstance(optimizer, torch.optim.Optimizer):
        raise TypeError(
            f"optimizer must be a torch.optim.Optimizer, not {type(optimizer).__name__}"
        )
    if batches < 1 or overfit_steps < 0:
        raise ValueError(
            f"need batches >= 1 and overfit_steps >= 0, got {batches}, {overfit_steps}"
        )
    run = _Run(model, loss_fn, optimizer, compute_loss)
    with preserved(model, optimizer):
        run.batches = take(data, max(batches, 3 if timing else 1))
        run.device = model_device(model)
        run.place(move)
        run.describe()
        run.check_data()
        run.check_workers(data)
        run.check_seeds(data)
        trained = False  # forward, loss and backward ran: the optional checks can repeat them
        if not run.failed("data.device") and run.check_model():
            run.check_targets(data)
            trained = run.train_step()
        run.check_lr(trained)
        if trained:
            run.check_optimizer_step()
    if overfit_steps > 0 and optimizer is not None and run.report.ok:
        with preserved(model, optimizer):
            run.overfit(overfit_steps)
    if timing and trained:
        with preserved(model, optimizer):
            run.timing(data)
    if memory and trained and run.device.type == "cuda":
        with preserved(model, optimizer):
            run.memory()
    return run.report


def _name(fn: Any) -> str:
    return type(fn).__name__ if isinstance(fn, nn.Module) else getattr(fn, "__name__", repr(fn))


def _unnormalised(t: torch.Tensor) -> bool:
    x = t.detach().float()
    if float(x.abs().max()) <= _SCALE_LIMIT or x.numel() < 2:
        return False
    return float(x.std()) > _SPREAD_LIMIT or abs(float(x.mean())) > _SPREAD_LIMIT


def _stored_values(t: torch.Tensor) -> torch.Tensor | None:
    """What a data check reads of a tensor: a sparse tensor's stored values, a nested tensor's
    elements flattened; None for a layout it cannot read."""
    try:
        if t.layout == torch.sparse_coo:
            return t.coalesce().values()
        if t.is_nested:
            return torch.cat([part.flatten() for part in t.unbind()])
        if t.layout != torch.strided:
            return t.values()  # CSR, CSC, BSR, BSC
    except (RuntimeError, NotImplementedError, TypeError):
        return None
    return t


def _parameter_count(model: nn.Module) -> str:
    """Total and trainable parameter counts; a lazy module's are unknown until its first forward."""
    params = [p for p in model.parameters() if not is_lazy(p)]
    total = sum(p.numel() for p in params)
    frozen = sum(p.numel() for p in params if not p.requires_grad)
    text = f"{total:,} ({total - frozen:,} trainable" + (f", {frozen:,} frozen)" if frozen else ")")
    lazy = sum(1 for p in model.parameters() if is_lazy(p))
    return text + (f" + {lazy} lazy" if lazy else "")


def _rows_sum_to_one(probs: torch.Tensor) -> bool:
    """Whether every row over the class dimension (1) sums to 1, as softmax's do."""
    return bool(torch.allclose(probs.sum(1), torch.ones(()), atol=1e-3))


def _batchnorms(model: nn.Module) -> list[str]:
    return [n for n, m in model.named_modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]


def _loss_kind(loss_fn: Any) -> str | None:
    for kind, (cls, fn) in _LOSS_KINDS.items():
        if isinstance(loss_fn, cls) or loss_fn is fn:
            return kind
    return None


def _rate(group: dict[str, Any]) -> float:
    """A parameter group's learning rate. At 0 under an lr scheduler (a warm-up from 0: LambdaLR,
    LinearLR, Hugging Face's get_linear_schedule_with_warmup), the rate it warms up to: the
    `initial_lr` the scheduler keeps in the group."""
    lr = float(group["lr"])
    return float(group.get("initial_lr", lr)) if lr == 0 else lr


def _fmt(x: float) -> str:
    return f"{x:.4g}"


def _logits(output: Any) -> torch.Tensor | None:
    """The tensor a loss is computed from: the output itself, `.logits`, or the first element."""
    if isinstance(output, torch.Tensor):
        return output
    logits = getattr(output, "logits", None)
    if isinstance(logits, torch.Tensor):
        return logits
    if isinstance(output, dict):
        logits = output.get("logits")
        return logits if isinstance(logits, torch.Tensor) else None
    if isinstance(output, (tuple, list)) and output and isinstance(output[0], torch.Tensor):
        return output[0]
    return None


def _no_forward(exc: BaseException, model: nn.Module) -> bool:
    """Whether `exc` is torch's "missing the required forward function" of `model` itself (not
    of a submodule): raised by nn.Module's placeholder forward, called on `model`."""
    if not isinstance(exc, NotImplementedError):
        return False
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    placeholder = getattr(nn.Module.forward, "__code__", None)
    return (
        tb is not None
        and tb.tb_frame.f_code is placeholder
        and tb.tb_frame.f_locals.get("self") is model
    )


def _explained(exc: BaseException) -> tuple[str | None, str]:
    """The entry the knowledge base gives for this exception, and its one-line summary."""
    from ..knowledge.index import load_index
    from ..text.match import diagnose

    first = (str(exc).strip().split("\n") or [""])[0]
    summary = f"{type(exc).__name__}: {first}"[:300]
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        best = diagnose(text, load_index()).best
    except Exception:  # a broken knowledge base must not hide the user's own error
        return None, summary
    return (best.entry.id if best else None), summary


class _Run:
    def __init__(
        self,
        model: nn.Module,
        loss_fn: Callable[..., Any] | None,
        optimizer: torch.optim.Optimizer | None,
        compute_loss: Callable[[Any], Any] | None,
    ) -> None:
        self.model, self.loss_fn, self.optimizer = model, loss_fn, optimizer
        self.compute_loss = compute_loss
        self.kind = _loss_kind(loss_fn)
        self.report = Report()
        self.batches: list[Batch] = []
        self.device = torch.device("cpu")
        self.output: torch.Tensor | None = None
        self.classes: int | None = None  # C, when the loss takes class indices
        self.loss: float | None = None

    def ran(self, *checks: str) -> None:
        self.report.ran += [c for c in checks if c not in self.report.ran]

    def add(self, check: str, **kwargs: Any) -> None:
        self.report.add(Finding(check, **kwargs))

    def failed(self, check: str) -> bool:
        return any(f.check == check and f.severity == ERROR for f in self.report.findings)

    def exception(self, check: str, exc: BaseException) -> None:
        entry, summary = _explained(exc)
        self.add(check, values={"error": summary}, entry_override=entry)

    # data ---------------------------------------------------------------------------------

    def place(self, move: Callable[[Any], Any] | None) -> None:
        """Put the batches where training will have them: the model's device, or wherever the
        user's own `move` puts them, checked against the model's device."""
        if move is None:
            for b in self.batches:
                b.inputs = to_device(b.inputs, self.device)
                b.target = to_device(b.target, self.device)
                b.raw = to_device(b.raw, self.device)
            return
        self.ran("data.device")
        try:
            self.batches = [split(move(b.raw), b.load_seconds) for b in self.batches]
        except Exception as exc:
            self.exception("data.device", exc)
            return
        devices = {p.device for p in self.model.parameters()}
        if len(devices) != 1:
            return  # split across devices: which one the inputs belong on is the model's business
        for name, t in tensors(self.batches[0].inputs, "inputs"):
            if t.device != self.device:
                values = {"name": name, "device": str(t.device), "model": str(self.device)}
                self.add("data.device", values=values, location=name)
                return

    def describe(self) -> None:
        ctx = self.report.context
        ctx["model"] = f"{type(self.model).__name__} on {self.device}"
        first = self.batches[0]
        for name, t in tensors(first.inputs, "inputs") + tensors(first.target, "target"):
            ctx[name] = describe(t)
        ctx["parameters"] = _parameter_count(self.model)
        if self.loss_fn is not None:
            ctx["loss_fn"] = _name(self.loss_fn)
        if self.optimizer is not None:
            ctx["optimizer"] = type(self.optimizer).__name__

    def check_data(self) -> None:
        self.ran("data.nonfinite", "data.scale")
        for i, b in enumerate(self.batches):
            for name, t in tensors(b.inputs, "inputs"):
                where = {"en": f"the {name} of batch {i}", "zh": f"第 {i} 个 batch 的 {name}"}
                stored = _stored_values(t)
                if stored is None or not stored.is_floating_point() or stored.numel() == 0:
                    continue
                if stored.is_meta:
                    continue  # shapes only, no values to read
                t = stored
                bad = int((~torch.isfinite(t)).sum())
                if bad:
                    self.add(
                        "data.nonfinite",
                        values={"where": where, "count": bad, "total": t.numel()},
                        location=name,
                    )
                    continue
                if i == 0 and _unnormalised(t):
                    values = {
                        "where": where,
                        "min": _fmt(float(t.min())),
                        "max": _fmt(float(t.max())),
                        "mean": _fmt(float(t.float().mean())),
                    }
                    self.add("data.scale", values=values, location=name)

    def check_workers(self, data: Any) -> None:
        if isinstance(data, torch.utils.data.DataLoader) and data.num_workers >= 2:
            self.ran("data.workers-same-random")
            found = workers_repeat_randomness(data)
            if found is not None:
                self.report.add(found)

    def check_seeds(self, data: Any) -> None:
        self.ran("seed.unseeded")
        found = unseeded()
        if found is not None:
            self.report.add(found)
        if isinstance(data, torch.utils.data.DataLoader) and data.num_workers == 0:
            self.ran("seed.main-process-random")
            found = main_process_draws(data)
            if found is not None:
                self.report.add(found)

    # model --------------------------------------------------------------------------------

    def check_model(self) -> bool:
        """Forward in eval mode under no_grad: the model's own output, before any training."""
        self.model.eval()
        self._check_eval_modes()
        try:
            with torch.no_grad(), embedding_ids_checked(self.model) as ids:
                if ids.tables:
                    self.ran("data.token-range")
                output = call(self.model, self.batches[0].inputs)
        except Exception as exc:
            if ids.finding is not None:
                # stopped before the lookup: on CUDA it would have ended the process
                self.report.add(ids.finding)
                return False
            if self.compute_loss is not None and _no_forward(exc, self.model):
                # A LightningModule may call its layers in training_step and define no forward
                # (Lightning's own README does): compute_loss is its forward, checked by the
                # training step. If compute_loss calls the missing forward, it says so there.
                return True
            self.ran("model.forward")
            self.exception("model.forward", exc)
            return False
        self.ran("model.forward")
        self.output = _logits(output)
        if self.output is None or not self.output.is_floating_point():
            return True
        self.ran("model.output-nonfinite")
        bad = int((~torch.isfinite(self.output)).sum())
        if bad:
            self.add("model.output-nonfinite", values={"count": bad, "total": self.output.numel()})
        self._check_probabilities()
        self._check_batchnorm()
        self._check_eval_random()
        self._check_eval_train()
        return True

    def _check_eval_modes(self) -> None:
        self.ran("model.eval-training")
        found = training_under_eval(self.model, mode_dependent(self.model), None)
        if found is not None:
            self.report.add(found)

    def _check_eval_random(self) -> None:
        self.ran("model.eval-random")
        inputs = self.batches[0].inputs
        try:
            found = eval_forwards_differ(self.model, lambda: call(self.model, inputs))
        except Exception:  # the first forward ran: a second one failing is not this check's
            return
        if found is not None:
            self.report.add(found)

    def _check_eval_train(self) -> None:
        if not eval_train_ready(self.model):
            return  # untrained BatchNorm statistics: eval mode cannot be judged yet
        self.ran("model.eval-train-differ")
        inputs = self.batches[0].inputs
        try:
            found = eval_train_apart(self.model, lambda: call(self.model, inputs))
        except Exception:  # train mode can fail where eval did not; train_step explains it
            return
        if found is not None:
            self.report.add(eval_train_finding(self.model, *found, step=None))

    def _check_probabilities(self) -> None:
        out = self.output
        if out is None or self.kind not in ("ce", "nll", "bce_logits") or out.numel() < 2:
            return
        self.ran("model.probabilities")
        loss = _name(self.loss_fn)
        if self.kind in ("ce", "nll"):
            if out.dim() < 2 or out.shape[1] < 2:
                return
            if bool((out < 0).any()) or not _rows_sum_to_one(out.float()):
                if self.kind == "nll":
                    self._check_log_probabilities(out)
                return
            values: dict[str, Any] = {
                "kind": {"en": "softmax probabilities", "zh": " softmax 概率"},
                "evidence": {"en": "every row sums to 1", "zh": "每行加起来都是 1"},
                "loss": loss,
            }
            if self.kind == "ce":
                values["expects"] = {
                    "en": "logits (it applies log_softmax itself)",
                    "zh": " logits（它内部自己做 log_softmax）",
                }
                values["fix"] = {
                    "en": "remove the softmax from the model",
                    "zh": "把模型最后的 softmax 去掉",
                }
                self.add("model.probabilities", values=values)
            else:
                values["expects"] = {"en": "log-probabilities", "zh": "对数概率"}
                values["fix"] = {
                    "en": "use log_softmax instead of softmax",
                    "zh": "把 softmax 换成 log_softmax",
                }
                self.add("model.probabilities", values=values, entry_override="loss-negative")
        # Sigmoid outputs lie strictly inside (0, 1); logits at init are signed, ReLU's have zeros.
        elif out.numel() >= 8 and bool(((out > 0) & (out < 1)).all()):
            values = {
                "kind": {"en": "sigmoid probabilities", "zh": " sigmoid 概率"},
                "evidence": {
                    "en": "every value lies between 0 and 1",
                    "zh": "所有值都在 0 和 1 之间",
                },
                "loss": loss,
                "expects": {
                    "en": "logits (it applies sigmoid itself)",
                    "zh": " logits（它内部自己做 sigmoid）",
                },
                "fix": {
                    "en": "remove the sigmoid from the model, or use BCELoss",
                    "zh": "把模型最后的 sigmoid 去掉，或者改用 BCELoss",
                },
            }
            self.add("model.probabilities", values=values)

    def _check_log_probabilities(self, out: torch.Tensor) -> None:
        """NLLLoss takes log-probabilities: exp of each row sums to 1. On raw logits its loss is
        -logit[target], negative or positive by chance, so the loss's sign cannot tell."""
        self.ran("model.log-probabilities")
        if not bool(torch.isfinite(out).all()):
            return  # model.output-nonfinite says so
        sums = out.float().exp().sum(1)
        if _rows_sum_to_one(out.float().exp()):
            return
        values = {
            "loss": _name(self.loss_fn),
            "low": _fmt(float(sums.min())),
            "high": _fmt(float(sums.max())),
        }
        self.add("model.log-probabilities", values=values)

    def _check_batchnorm(self) -> None:
        norms = _batchnorms(self.model)
        if not norms:
            return
        self.ran("model.batchnorm-batch1")
        first = tensors(self.batches[0].inputs, "inputs")
        if first and first[0][1].dim() > 0 and first[0][1].shape[0] == 1:
            when = {"en": "your batch", "zh": "你的 batch "}
            self.add("model.batchnorm-batch1", values={"module": norms[0], "when": when})

    def _check_last_batch(self, data: Any) -> None:
        """A DataLoader whose last batch holds one sample fails only at the end of the epoch."""
        if not isinstance(data, torch.utils.data.DataLoader) or data.drop_last:
            return
        size, dataset = data.batch_size, data.dataset
        if not size or size < 2 or not hasattr(dataset, "__len__"):
            return
        norms = _batchnorms(self.model)
        if norms and len(dataset) % size == 1:
            when = {
                "en": f"the last batch of each epoch ({len(dataset)} samples, batch_size={size}, "
                "drop_last=False)",
                "zh": f"每个 epoch 的最后一个 batch（{len(dataset)} 个样本，batch_size={size}，"
                "drop_last=False）",
            }
            self.add("model.batchnorm-batch1", values={"module": norms[0], "when": when})

    # targets ------------------------------------------------------------------------------

    def check_targets(self, data: Any) -> None:
        self._check_last_batch(data)
        targets = [b.target for b in self.batches if isinstance(b.target, torch.Tensor)]
        out = self.output
        if not targets or out is None:
            return
        if self.kind in ("ce", "nll") and out.dim() >= 2:
            self.classes = int(out.shape[1])
            self.ran("model.one-output")
            if self.classes == 1:
                # log_softmax over one value is 0: the loss is 0 and every gradient is zero,
                # which would otherwise read as dead ReLUs; the targets can only be 0.
                self.add("model.one-output", values={"loss": _name(self.loss_fn)})
                return
            self._check_class_range(targets)
        if self.kind in ("ce", "nll", "bce", "bce_logits"):
            self._check_one_class(targets)
            self._check_imbalance(targets)
        if self.kind in _ELEMENTWISE:
            self._check_target_shape(targets[0])
            self.ran("model.batch-collapsed")
            found = collapsed_output(self.batches[0].inputs, out, targets[0])
            if found is not None:
                self.report.add(found)

    def _check_class_range(self, targets: list[torch.Tensor]) -> None:
        if self.classes is None or any(t.is_floating_point() for t in targets):
            return  # float targets are class probabilities; their dtype is the loss's business
        self.ran("data.target-range")
        ignore = getattr(self.loss_fn, "ignore_index", -100)
        valid = torch.cat([t.flatten() for t in targets])
        valid = valid[valid != ignore]
        if valid.numel() == 0:
            return
        low, high = int(valid.min()), int(valid.max())
        if low < 0 or high >= self.classes:
            values = {"min": low, "max": high, "classes": self.classes, "last": self.classes - 1}
            self.add("data.target-range", values=values)

    def _check_one_class(self, targets: list[torch.Tensor]) -> None:
        flat = torch.cat([t.flatten() for t in targets])
        if flat.numel() < 8:
            return  # too few samples to call it a pattern
        self.ran("data.one-class")
        if bool((flat == flat[0]).all()):
            self.add(
                "data.one-class", values={"count": flat.numel(), "value": _fmt(float(flat[0]))}
            )

    def _check_imbalance(self, targets: list[torch.Tensor]) -> None:
        # One label per sample only: per-pixel or per-token targets are mostly background or
        # padding by nature, and class probabilities are not labels.
        if any(t.dim() > 2 or (t.dim() == 2 and t.shape[1] != 1) for t in targets):
            return
        if any(getattr(self.loss_fn, name, None) is not None for name in ("weight", "pos_weight")):
            return  # the loss is weighted: the user knows
        flat = torch.cat([t.flatten() for t in targets])
        if flat.numel() < _IMBALANCE_LABELS:
            return
        self.ran("data.imbalance")
        labels, counts = torch.unique(flat, return_counts=True)
        top = int(counts.argmax())
        share = float(counts[top]) / flat.numel()
        if len(labels) > 1 and share >= _IMBALANCE_SHARE:
            values = {
                "share": f"{share:.0%}",
                "count": flat.numel(),
                "value": _fmt(float(labels[top])),
            }
            self.add("data.imbalance", values=values)

    def _check_target_shape(self, target: torch.Tensor) -> None:
        out = self.output
        assert out is not None
        self.ran("data.target-shape")
        if out.shape == target.shape:
            return
        squeeze = [d for d in out.shape if d != 1] == [d for d in target.shape if d != 1]
        try:
            broadcast = torch.broadcast_shapes(out.shape, target.shape)
        except RuntimeError:
            return  # the loss itself will raise, and loss.compute explains it
        if squeeze and math.prod(broadcast) > max(out.numel(), target.numel()):
            values = {
                "output": str(tuple(out.shape)),
                "target": str(tuple(target.shape)),
                "broadcast": str(tuple(broadcast)),
            }
            self.add("data.target-shape", values=values)

    # one training step ----------------------------------------------------------------------

    def _loss(self, batch: Batch) -> torch.Tensor:
        if self.compute_loss is not None:
            return scalar_loss(self.compute_loss(batch.raw))
        assert self.loss_fn is not None
        return scalar_loss(self.loss_fn(call(self.model, batch.inputs), batch.target))

    def train_step(self) -> bool:
        """Forward, loss and backward in train mode; True when gradients were computed."""
        if self.loss_fn is None and self.compute_loss is None:
            return False
        if self.failed("data.target-range"):
            return False  # on CUDA the loss would be a device-side assert that kills the process
        self.model.train()
        for p in self.model.parameters():
            p.grad = None
        batch = self.batches[0]
        if self.compute_loss is not None:
            self.ran("loss.compute")
            try:
                loss = scalar_loss(self.compute_loss(batch.raw))
            except Exception as exc:
                self.exception("loss.compute", exc)
                return False
        else:
            try:  # train mode can fail where eval mode did not (BatchNorm on one sample)
                output = call(self.model, batch.inputs)
            except Exception as exc:
                self.exception("model.forward", exc)
                return False
            self.ran("loss.compute")
            try:
                assert self.loss_fn is not None
                loss = scalar_loss(self.loss_fn(output, batch.target))
            except Exception as exc:
                self.exception("loss.compute", exc)
                return False
        self._check_loss(loss)
        self.ran("grad.backward")
        try:
            loss.backward()
        except Exception as exc:
            self.exception("grad.backward", exc)
            return False
        self._check_grads()
        return True

    def _check_loss(self, loss: torch.Tensor) -> None:
        if loss.numel() != 1:
            return  # backward explains a non-scalar loss (grad.backward)
        value = float(loss.detach())
        self.loss = value
        self.report.stats["loss"] = value
        self.ran("loss.nonfinite")
        if not math.isfinite(value):
            self.add("loss.nonfinite", values={"loss": str(value)})
            return
        if self.kind is not None:
            self.ran("loss.negative")
            if value < 0:
                self.add(
                    "loss.negative", values={"loss_fn": _name(self.loss_fn), "loss": _fmt(value)}
                )
        if self.kind == "ce" and self.classes and self.classes >= 2:
            self.ran("loss.initial")
            expected = math.log(self.classes)
            if value > 3 * expected and value > expected + 2:
                values = {"loss": _fmt(value), "classes": self.classes, "expected": _fmt(expected)}
                self.add("loss.initial", values=values)

    def _check_grads(self) -> None:
        named = list(self.model.named_parameters())
        trainable = [(n, p) for n, p in named if p.requires_grad]
        frozen = [n for n, p in named if not p.requires_grad]
        if self.optimizer is not None:
            # an optimizer built over the trainable parameters alone (the fine-tuning idiom,
            # `filter(lambda p: p.requires_grad, ...)`) says the freezing is deliberate
            held = {id(p) for g in self.optimizer.param_groups for p in g["params"]}
            if not any(id(p) in held for _, p in named if not p.requires_grad):
                frozen = []
        self.ran("grad.none", "grad.frozen", "grad.nonfinite", "grad.zero", "grad.large")
        if frozen and trainable:
            values = {"count": len(frozen), "total": len(named), "params": listed(frozen)}
            self.add("grad.frozen", values=values)
        missing = [n for n, p in trainable if p.grad is None]
        if missing:
            self.add("grad.none", values={"count": len(missing), "params": listed(missing)})
        norms = {
            n: float(p.grad.detach().float().norm()) for n, p in trainable if p.grad is not None
        }
        nonfinite = [n for n, v in norms.items() if not math.isfinite(v)]
        if nonfinite:
            self.add(
                "grad.nonfinite", values={"count": len(nonfinite), "params": listed(nonfinite)}
            )
        zero = [
            n
            for n, p in trainable
            if p.grad is not None and p.numel() > 0 and not bool(p.grad.detach().any())
        ]
        if zero and not self.failed("model.one-output"):
            self.add("grad.zero", values={"count": len(zero), "params": listed(zero)})
        finite = sorted(((v, n) for n, v in norms.items() if math.isfinite(v)), reverse=True)
        self.report.stats["largest_grad_norms"] = {n: v for v, n in finite[:_SHOWN]}
        if finite and finite[0][0] > _LARGE_GRAD:
            self.add("grad.large", values={"norm": _fmt(finite[0][0]), "param": finite[0][1]})

    # optimizer ----------------------------------------------------------------------------

    def check_lr(self, trained: bool) -> None:
        if self.optimizer is None:
            return
        self.ran("optim.missing")
        held = {id(p) for g in self.optimizer.param_groups for p in g["params"]}
        missing = [
            n for n, p in self.model.named_parameters() if p.requires_grad and id(p) not in held
        ]
        if missing:
            self.add("optim.missing", values={"count": len(missing), "params": listed(missing)})
        self.ran("optim.float16-weights")
        names = {id(p): n for n, p in self.model.named_parameters()}
        named = [
            (names.get(id(p), "?"), p) for g in self.optimizer.param_groups for p in g["params"]
        ]
        half = float16_weights(self.optimizer, named, None)
        if half is not None:
            self.report.add(half)
        name = type(self.optimizer).__name__
        if name not in _LR_RANGE:
            return
        self.ran("optim.lr")
        low, high = _LR_RANGE[name]
        for group in self.optimizer.param_groups:
            lr = _rate(group)
            if low <= lr <= high:
                continue
            too_high = lr > high
            if too_high and trained and self._rate_trains():
                continue  # above the usual range but it trains here, as lr_find may have found
            how = {"en": "too high", "zh": "太大"} if too_high else {"en": "too low", "zh": "太小"}
            values = {"lr": _fmt(lr), "how": how, "optimizer": name, "low": low, "high": high}
            self.add("optim.lr", values=values, entry_override="nan-loss" if too_high else None)
            break

    def _mean_loss(self) -> float:
        with torch.no_grad():
            return sum(float(self._loss(b)) for b in self.batches) / len(self.batches)

    def _rate_trains(self) -> bool:
        """Whether one step per batch checked, at the optimizer's own rates, lowers the mean loss
        over those batches from the untrained weights. A rate that diverges makes it rise (or
        NaN) within a few steps."""
        assert self.optimizer is not None
        self.model.train()
        try:
            with preserved(self.model, self.optimizer):  # the step check needs them as they were
                before = self._mean_loss()
                for b in self.batches:
                    self.optimizer.zero_grad()
                    self._loss(b).backward()
                    step(self.optimizer, partial(self._loss, b))
                after = self._mean_loss()
        except Exception:  # the step check runs it again and explains what fails
            return False
        return math.isfinite(after) and after < before

    def check_optimizer_step(self) -> None:
        if self.optimizer is None:
            return
        self.ran("optim.frozen")
        names = {id(p): n for n, p in self.model.named_parameters()}
        everything = [p for g in self.optimizer.param_groups for p in g["params"]]
        held = [p for p in everything if p.requires_grad]
        if everything and not held:
            params = listed([names.get(id(p), "?") for p in everything])
            self.add("optim.frozen", values={"count": len(everything), "params": params})
            return
        self.ran("optim.step")
        before = [p.detach().clone() for p in held]
        # a warm-up from lr 0 moves nothing at its first step, by design: step at its peak
        warming = [(g, g["lr"]) for g in self.optimizer.param_groups if float(g["lr"]) == 0]
        for group, _ in warming:
            group["lr"] = _rate(group)
        try:
            step(self.optimizer, lambda: self._loss(self.batches[0]))
        finally:
            for group, lr in warming:
                group["lr"] = lr
        if held and all(torch.equal(b, p.detach()) for b, p in zip(before, held, strict=True)):
            lrs = sorted({_fmt(float(g["lr"])) for g in self.optimizer.param_groups})
            self.add("optim.step", values={"lr": "/".join(lrs)})

    # optional -----------------------------------------------------------------------------

    def overfit(self, steps: int) -> None:
        from .helpers import overfit_one_batch

        assert self.optimizer is not None
        self.ran("overfit")
        batch = self.batches[0]
        losses = overfit_one_batch(
            self.model,
            batch.raw,
            self.loss_fn,
            self.optimizer,
            steps=steps,
            compute_loss=self.compute_loss,
            restore=False,
        )
        if not losses.fell:
            values = {"steps": steps, "first": _fmt(losses[0]), "last": _fmt(losses[-1])}
            self.add("overfit", values=values)
        self.report.stats["overfit_losses"] = [losses[0], losses[-1]]

    def timing(self, data: Any) -> None:
        # The first batch pays for starting the workers; later ones show the steady rate.
        waits = [b.load_seconds for b in self.batches[1:]] or [self.batches[0].load_seconds]
        data_s = sorted(waits)[len(waits) // 2]
        self.model.train()
        self._loss(self.batches[0]).backward()  # warm-up: the first backward builds caches
        computes = []
        for b in self.batches[:3]:
            start = time.perf_counter()
            self._loss(b).backward()
            if self.device.type == "cuda":
                torch.cuda.synchronize(self.device)
            computes.append(time.perf_counter() - start)
        compute_s = sorted(computes)[len(computes) // 2]
        self.ran("timing")
        self.report.stats["data_seconds"] = data_s
        self.report.stats["compute_seconds"] = compute_s
        if data_s <= max(compute_s, _WORKER_HANDOFF_S) or not isinstance(data, Iterable):
            return
        workers = getattr(data, "num_workers", None)
        cpus = os.cpu_count() or 1
        if workers == 0:
            suggestion = {
                "en": f"set num_workers={min(cpus, 8)} and pin_memory=True in the DataLoader "
                f"(this machine has {cpus} CPUs)",
                "zh": f"在 DataLoader 里设置 num_workers={min(cpus, 8)} 和 pin_memory=True"
                f"（这台机器有 {cpus} 个 CPU）",
            }
        else:
            suggestion = {
                "en": f"raise num_workers above {workers}, or cache or simplify the decoding",
                "zh": f"把 num_workers 调到 {workers} 以上，或者缓存、简化数据解码",
            }
        values = {"data": _fmt(data_s), "compute": _fmt(compute_s), "suggestion": suggestion}
        self.add("timing", values=values)

    def memory(self) -> None:
        self.ran("memory")
        torch.cuda.reset_peak_memory_stats(self.device)
        self.model.train()
        self._loss(self.batches[0]).backward()
        if self.optimizer is not None:
            step(self.optimizer, lambda: self._loss(self.batches[0]))
        peak = torch.cuda.max_memory_allocated(self.device) / 2**20
        total = torch.cuda.get_device_properties(self.device).total_memory / 2**20
        self.report.stats["peak_memory_mb"] = peak
        if peak > 0.9 * total:
            self.add("memory", values={"peak": f"{peak:.0f}", "total": f"{total:.0f}"})
