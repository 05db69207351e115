"""Training behaviours with no exception: recognised from a log's numbers or from a sentence.

Each detector reads the series that training_log.py extracted and, when it sees its symptom,
returns the evidence as named values ("at", "value", ...). The words around those values live in
the entry's `symptoms.evidence` templates, in both languages, like every other text.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from ..knowledge.records import dataclass
from ..knowledge.regex_cache import compile_cached
from .training_log import Point, TrainingLog, finite


@dataclass(frozen=True)
class Finding:
    signal: str
    score: int
    values: dict[str, str]


def fmt(x: float) -> str:
    if not math.isfinite(x):
        return str(x)
    if x != 0 and (abs(x) >= 1e5 or abs(x) < 1e-3):
        return f"{x:.1e}"
    return f"{x:.4g}"


def _by_length(full: int, n: int) -> int:
    """A trend read from a handful of numbers is a guess: full confidence from ten readings on,
    less for each one short of that (five wobbling readings are no plateau to bet on)."""
    return full - 3 * max(0, 10 - n)


def _loss(log: TrainingLog) -> list[Point]:
    return log.series.get("loss") or log.series.get("val_loss") or []


def _exploded_to_chance(log: TrainingLog) -> Finding | None:
    """A loss that jumped by orders of magnitude, then sat flat at ln(classes), worse than before
    the jump: the updates blew the weights up and the model now outputs one constant
    distribution (uniform logits, or one class), the loss of guessing. Without grad norms in the
    log, the loss tells the explosion this way."""
    points = finite(_loss(log))
    if len(points) < 8:
        return None
    peak_i = max(range(len(points)), key=lambda i: points[i].value)
    peak, first = points[peak_i], points[0]
    before, after = points[:peak_i], points[peak_i + 1 :]
    if not before or len(after) < 5 or peak.value < 10 * max(p.value for p in before):
        return None
    tail = [p.value for p in after[-max(5, len(after) // 2) :]]
    level = _median(tail)
    if level <= 0 or max(tail) - min(tail) > 0.01 * level or level <= min(p.value for p in before):
        return None
    classes = round(math.exp(level))
    if classes < 2 or abs(math.log(classes) - level) > 0.01 * level:
        return None
    flat_from = next(p for p in after if abs(p.value - level) <= 0.01 * level)
    values = {
        "loss_first": fmt(first.value),
        "loss_peak": fmt(peak.value),
        "loss_peak_at": peak.at,
        "chance": fmt(level),
        "classes": str(classes),
        "flat_from": flat_from.at,
    }
    return Finding("grad-explodes", 85, values)


_HUGE_GRAD_NORM = 1e6


def _layer_grads_huge(log: TrainingLog) -> Finding | None:
    """Gradient norms printed per parameter after backward(), two weights' or more at a million
    and beyond (or inf/nan): as for the total norm, no healthy model's gradients are that large,
    whichever layer they are read at, even in a log of one step (vanishing gradients are the
    other end: _grad_vanishes)."""
    norms = {name: vals[-1] for name, vals in log.param_grads.items() if "weight" in name}
    huge = {n: v for n, v in norms.items() if not math.isfinite(v) or abs(v) >= _HUGE_GRAD_NORM}
    if len(huge) < 2:
        return None
    param, peak = max(huge.items(), key=lambda kv: abs(kv[1]) if math.isfinite(kv[1]) else math.inf)
    values = {
        "huge_params": str(len(huge)),
        "weights": str(len(norms)),
        "peak": fmt(peak),
        "peak_param": param,
    }
    return Finding("grad-explodes", 92, values)


def _grad_explodes(log: TrainingLog) -> Finding | None:
    points = log.series.get("grad_norm", [])
    good = finite(points)
    # Dynamic loss scaling (AMP's GradScaler, mmcv's fp16 hook) logs an inf or nan norm for each
    # step it skips and trains on: only a norm still non-finite at the end blew up.
    recovered = bool(points) and math.isfinite(points[-1].value)
    nonfinite = None if recovered else next((p for p in points if not math.isfinite(p.value)), None)
    if len(points) < 2 or not good:
        return _layer_grads_huge(log) or _exploded_to_chance(log)
    first, peak = good[0], max(good, key=lambda p: p.value)
    # One spike that recovers at once is noise; explosion is growth that stays (or goes non-finite).
    high = _jumped(good)
    # A log that starts after the blow-up has no small norm to grow from: norms of a million and
    # more, twice, are no healthy model's (unclipped norms of one run in the tens at most).
    huge = [p for p in good if p.value >= _HUGE_GRAD_NORM]
    if not (nonfinite or len(high) >= 2 or len(huge) >= 2):
        return _layer_grads_huge(log) or _exploded_to_chance(log)
    values = {
        "first": fmt(first.value),
        "first_at": first.at,
        "peak": fmt(peak.value),
        "peak_at": peak.at,
    }
    if nonfinite:
        values["nonfinite_at"] = nonfinite.at
    return Finding("grad-explodes", 92, values)


def _jumped(good: list[Point]) -> list[Point]:
    """The finite grad norms a hundred times the first one, and large."""
    first = good[0].value if good else 0.0
    return [p for p in good if p.value >= 1e3 and p.value >= 100 * max(first, 1e-12)]


def _spikes(log: TrainingLog) -> bool:
    """A grad norm that jumped (_jumped): too little to call an explosion from the numbers alone
    (one spike may recover at once), but no log that denies one either (mmengine's
    "grad_norm: 3.4572" then "grad_norm: 31101415.5974", the paste cut there)."""
    return bool(_jumped(finite(log.series.get("grad_norm", []))))


def _nan(log: TrainingLog) -> Finding | None:
    points = _loss(log)
    for i, p in enumerate(points):
        if math.isfinite(p.value):
            continue
        values = {"value": fmt(p.value), "at": p.at}
        before = finite(points[:i])
        if before:
            prev, first = before[-1], before[0]
            exploded = abs(prev.value) > 1e4 or abs(prev.value) > 100 * abs(first.value) + 1
            values["exploded_from" if exploded else "prev"] = fmt(prev.value)
            values["first"] = fmt(first.value)
        # When the grad norm blew up first, that is the diagnosis; nan is its consequence.
        return Finding("nan", 85 if _grad_explodes(log) else 90, values)
    return None


def _zero(log: TrainingLog) -> Finding | None:
    points = _loss(log)
    if len(points) >= 2 and all(abs(p.value) < 1e-6 for p in points):
        values = {"n": str(len(points)), "from_at": points[0].at, "to_at": points[-1].at}
        digits = log.decimals.get("loss" if "loss" in log.series else "val_loss", 6)
        if digits <= 3:  # "0.00" is any loss below 0.005: small, not necessarily zero
            values["printed"] = f"{0:.{digits}f}"
            return Finding("zero", 75, values)
        return Finding("zero", 90, values)
    if len(points) == 1 and points[0].value == 0 and _no_gradient_at(log, points[0].line):
        # one reading, as an HF Trainer's single log line shows it ({'loss': 0.0, 'grad_norm':
        # 0.0, ...}): a loss printed as exactly zero beside a gradient norm of exactly zero is a
        # loss that is zero, not one rounded down
        return Finding("zero", 75, {"alone_at": points[0].at})
    return None


def _no_gradient_at(log: TrainingLog, line: int) -> bool:
    """The log prints a gradient norm of exactly zero on that line."""
    return any(p.line == line and p.value == 0 for p in log.series.get("grad_norm", []))


def _negative(log: TrainingLog) -> Finding | None:
    negatives = [p for p in finite(_loss(log)) if p.value < -1e-4]
    if not negatives:
        return None
    first = negatives[0]
    return Finding(
        "negative", 90, {"value": fmt(first.value), "at": first.at, "n": str(len(negatives))}
    )


def _flat(log: TrainingLog) -> Finding | None:
    """Five readings within 2% of each other, or three identical ones (a log's "..." hides the
    rest). A series still falling at every reading is slow, not stuck; a high accuracy is done."""
    acc = finite(log.series.get("acc", []) or log.series.get("val_acc", []))
    if acc and _fraction(acc)[-1] >= 0.95:  # 0.97 or 97 (%)
        return None
    for metric in ("loss", "acc", "val_loss"):
        points = finite(log.series.get(metric, []))
        if len(points) < 3 or all(abs(p.value) < 1e-6 for p in points):
            continue
        vals = [p.value for p in points]
        spread = (max(vals) - min(vals)) / max(abs(sum(vals) / len(vals)), 1e-8)
        still_falling = all(b < a for a, b in itertools.pairwise(vals))
        if (
            spread < 1e-4
            or (len(points) >= 5 and spread < 0.02)
            or (metric == "loss" and _noisy_at_chance(vals, acc))
        ) and not (still_falling or _leaves_at_the_end(vals)):
            first, last = points[0], points[-1]
            if first.step is not None and (first.epoch, first.step) == (last.epoch, last.step):
                continue  # one step redrawn (a progress bar's updates): no span to be flat over
            return Finding(
                "flat",
                _by_length(85, len(points)),
                {
                    "metric": metric,
                    "first": fmt(first.value),
                    "last": fmt(last.value),
                    "n": str(len(points)),
                    "from_at": first.at,
                    "to_at": last.at,
                },
            )
    return None


def _noisy_at_chance(loss: list[float], acc: list[Point]) -> bool:
    """A loss that wanders within a tenth of its level over eight readings or more, ending
    where it began, while the accuracy never leaves zero (Chainer's `7.69  0`, `7.33  0.007`):
    noise around a plateau the model has not left, where a band of 2% is too narrow to see it."""
    if len(loss) < 8 or len(acc) < 8 or max(_fraction(acc)) > 0.02:
        return False
    mean = sum(loss) / len(loss)
    return (max(loss) - min(loss)) < 0.1 * abs(mean) and loss[-1] >= 0.95 * loss[0]


def _leaves_at_the_end(vals: list[float]) -> bool:
    """The last two readings both beyond every earlier one, the same way: a plateau that the run
    has just left (rising out of it, or falling), not one it is stuck on."""
    if len(vals) < 4:
        return False
    before, last = vals[:-2], vals[-2:]
    rising = min(before) < max(before) < last[0] < last[1]
    falling = max(before) > min(before) > last[0] > last[1]
    return rising or falling


def _val_diverges(log: TrainingLog) -> Finding | None:
    train, val = finite(log.series.get("loss", [])), finite(log.series.get("val_loss", []))
    if len(train) >= 2 and len(val) >= 2:
        best = min(val, key=lambda p: p.value)
        last = val[-1]
        train_falls = train[-1].value < 0.8 * train[0].value
        val_rises = last is not best and last.value > 1.1 * best.value + 1e-3
        if train_falls and val_rises:
            return Finding(
                "val-diverges",
                _by_length(88, len(val)),
                {
                    "train_from": fmt(train[0].value),
                    "train_to": fmt(train[-1].value),
                    "val_best": fmt(best.value),
                    "val_best_at": best.at,
                    "val_last": fmt(last.value),
                    "val_last_at": last.at,
                },
            )
    acc, val_acc = finite(log.series.get("acc", [])), finite(log.series.get("val_acc", []))
    if acc and val_acc and acc[-1].value - val_acc[-1].value > 0.2 * max(acc[-1].value, 1e-8):
        return Finding(
            "val-diverges",
            _by_length(85, len(val_acc)),
            {"train_acc": fmt(acc[-1].value), "val_acc": fmt(val_acc[-1].value)},
        )
    return None


def _memory_grows(log: TrainingLog) -> Finding | None:
    points = finite(log.series.get("memory", []))
    if len(points) < 4:
        return None
    steps = [b.value - a.value for a, b in itertools.pairwise(points)]
    rising = sum(s > 0 for s in steps) >= 0.8 * len(steps)
    first, last = points[0], points[-1]
    if rising and last.value >= 1.25 * first.value and last.value - first.value >= 10:
        per_step = (last.value - first.value) / len(steps)
        return Finding(
            "memory-grows",
            88,
            {
                "first": fmt(first.value),
                "last": fmt(last.value),
                "n": str(len(points)),
                "first_at": first.at,
                "last_at": last.at,
                "per_step": fmt(per_step),
            },
        )
    return None


_PHASES = {
    "compute_time": "forward",
    "backward_time": "backward",
    "optimizer_time": "optimizer step",
    "metrics_time": "metrics / logging",
}


def _phase_means(log: TrainingLog) -> dict[str, float]:
    """The typical time of each timed phase of a step the log reports, data loading included:
    the median, because one stall of a busy machine lands in whichever phase was running."""
    means = {}
    for key in ("data_time", *_PHASES):
        points = finite(log.series.get(key, []))
        if points:
            means[key] = _median([p.value for p in points])
    return means


def _median(values: list[float]) -> float:
    """statistics.median, without its import (fractions, decimal, random: ~3 ms a start)."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


# Founding guide 001's benchmark_dataloader: a loader that takes over 100 ms a batch on its own
# is worth more workers.
_SLOW_LOADER_MS = 100.0


def _slow_loader(log: TrainingLog) -> Finding | None:
    """The DataLoader timed alone: slow at the fewest workers tried, and (when several were
    tried) how fast the best setting was."""
    timed = [(w, ms) for w, ms in log.loader_ms if math.isfinite(ms)]
    if not timed:
        return None
    workers, ms = min(timed, key=lambda t: -1 if t[0] is None else t[0])
    if ms < _SLOW_LOADER_MS:
        return None
    values = {"loader_ms": f"{ms:.0f}"}
    best_workers, best_ms = min(timed, key=lambda t: t[1])
    if workers is not None and best_workers is not None and best_workers != workers:
        values |= {
            "workers": str(workers),
            "best_workers": str(best_workers),
            "best_ms": f"{best_ms:.0f}",
        }
    return Finding("data-bound", 85, values)


def _data_bound(log: TrainingLog) -> Finding | None:
    if log.loader_ms:
        return _slow_loader(log)
    util = finite(log.series.get("gpu_util", []))
    if util:
        # nvidia-smi: a GPU that holds a model but computes little (or in bursts) waits for data
        low = [p for p in util if p.value <= 30]
        if 2 * len(low) >= len(util):
            mean = sum(p.value for p in util) / len(util)
            score = 75 if len(util) == 1 else 85  # one snapshot may be a pause between epochs
            return Finding("data-bound", score, {"gpu_util": f"{mean:.0f}", "n": str(len(util))})
        return None
    wait = finite(log.series.get("data_wait_pct", []))
    if wait:
        pct = sum(p.value for p in wait) / len(wait)
    else:
        # The step's compute is every timed phase: forward, backward, optimizer, metrics.
        means = _phase_means(log)
        d, c = means.pop("data_time", None), sum(means.values())
        if d is None or not means:
            return None
        pct = 100 * d / max(d + c, 1e-12)
    return Finding("data-bound", 90, {"pct": f"{pct:.0f}"}) if pct >= 50 else None


def _grad_none(log: TrainingLog) -> Finding | None:
    if not log.grad_none:
        return None
    shown = ", ".join(log.grad_none[:5]) + (", ..." if len(log.grad_none) > 5 else "")
    return Finding(
        "grad-none",
        90,
        {"count": str(len(log.grad_none)), "params": shown, "with_grad": str(len(log.grad_set))},
    )


def _oscillates(log: TrainingLog) -> Finding | None:
    """Eight or more readings that keep changing direction with big swings and make no net
    progress. A healthy run's noisy per-batch losses still fall clearly from the first third of
    the log to the last; a diverging run grows without turning back (grad-explodes, nan)."""
    points = _loss(log)
    if len(points) < 8 or len(finite(points)) < len(points):
        return None
    vals = [p.value for p in points]
    diffs = [b - a for a, b in itertools.pairwise(vals) if b != a]
    if len(diffs) < 6:
        return None
    turns = sum((a > 0) != (b > 0) for a, b in itertools.pairwise(diffs))
    level = sorted(abs(v) for v in vals)[len(vals) // 2]
    swing = sorted(abs(d) for d in diffs)[len(diffs) // 2]
    third = len(vals) // 3
    first, last = sum(vals[:third]) / third, sum(vals[-third:]) / third
    if (
        turns >= 0.4 * (len(diffs) - 1)
        and swing >= 0.25 * max(level, 1e-8)
        and first > 0
        and 0.7 * first <= last <= 10 * first
    ):
        return Finding(
            "oscillates",
            85,
            {
                "n": str(len(points)),
                "low": fmt(min(vals)),
                "high": fmt(max(vals)),
                "from_at": points[0].at,
                "to_at": points[-1].at,
            },
        )
    return None


def _rises_off_a_plateau(log: TrainingLog) -> Finding | None:
    """Five or more readings on a plateau (within 2% of each other), then the last two or more
    each higher than the one before and above the plateau, the last by at least three times the
    plateau's own wobble and a hundredth of its level: the loss that sat still has turned upwards,
    the jump a sentence calls "the loss suddenly increases" (not a rise by orders of magnitude:
    grad-explodes, nan). The training loss only: a validation loss that rises off its plateau
    is overfitting's shape."""
    points = log.series.get("loss", [])
    if len(points) < 7 or len(finite(points)) < len(points):
        return None
    vals = [p.value for p in points]
    n = len(vals)
    rising = 1  # the readings at the end that each rise above the one before
    while rising < n and vals[n - rising - 1] < vals[n - rising]:
        rising += 1
    highest = list(itertools.accumulate(vals, max))  # highest[i]: the highest of vals[: i + 1]
    # the longest rise first, whose first reading is above everything before it (linear: a log
    # of 150,000 readings took minutes when each length was checked from scratch)
    for k in range(min(rising, n - 5), 1, -1):
        if vals[n - k] > highest[n - k - 1]:
            break
    else:
        return None
    plateau = vals[:-k]
    high = highest[n - k - 1]
    low, level = min(plateau), sum(plateau) / len(plateau)
    if level <= 0 or high - low >= 0.02 * level:
        return None
    rise = vals[-1] - high
    if rise < 3 * (high - low) or rise < 0.01 * level or vals[-1] > 10 * level:
        return None
    last_flat = points[len(plateau) - 1]
    return Finding(
        "oscillates",
        80,
        {
            "level": fmt(level),
            "n": str(len(plateau)),
            "from_at": points[0].at,
            "flat_to": last_flat.at,
            "high": fmt(vals[-1]),
            "to_at": points[-1].at,
        },
    )


def _fraction(points: list[Point]) -> list[float]:
    """Accuracies as fractions, whether the log prints 0.64 or 64.0 (%)."""
    vals = [p.value for p in points]
    return [v / 100 for v in vals] if vals and max(vals) > 1.0 else vals


def _underfit(log: TrainingLog) -> Finding | None:
    """The training loss fell and then levelled off while the training accuracy is still low:
    the model has learned what it can and it is not enough. A validation accuracy far above the
    training one means training-mode noise (dropout, BatchNorm), not a weak model."""
    loss, acc_points = finite(log.series.get("loss", [])), finite(log.series.get("acc", []))
    if len(loss) < 5 or len(acc_points) < 3:
        return None
    acc = _fraction(acc_points)
    window = max(3, len(loss) // 3)
    tail = [p.value for p in loss[-window:]]
    levelled = (max(tail) - min(tail)) <= 0.03 * max(abs(sum(tail) / len(tail)), 1e-8)
    fell = loss[-1].value <= 0.9 * loss[0].value
    # an accuracy that still rises at every reading is a model still learning, not one at its limit
    rising = all(b > a for a, b in itertools.pairwise(acc[-window:]))
    if not (fell and levelled and acc[-1] < 0.8) or rising:
        return None
    values = {
        "loss_first": fmt(loss[0].value),
        "loss_last": fmt(loss[-1].value),
        "acc": fmt(acc[-1]),
        "at": acc_points[-1].at,
    }
    val_points = finite(log.series.get("val_acc", []))
    if val_points:
        val = _fraction(val_points)[-1]
        if abs(val - acc[-1]) > 0.1:
            return None  # overfitting, or a training mode that handicaps the model
        values["val_acc"] = fmt(val)
    return Finding("underfit", 85, values)


def _grad_vanishes(log: TrainingLog) -> Finding | None:
    """Per-parameter gradient norms that shrink by orders of magnitude towards the input."""
    norms = {name: vals[-1] for name, vals in log.param_grads.items() if "weight" in name}
    if len(norms) < 3 or not all(math.isfinite(v) for v in norms.values()):
        return None
    names = list(norms)
    first, last = names[0], names[-1]
    ratio = norms[first] / max(norms[last], 1e-30)
    if norms[last] > 0 and ratio <= 1e-3:
        return Finding(
            "grad-vanishes",
            90,
            {
                "first_param": first,
                "first_norm": fmt(norms[first]),
                "last_param": last,
                "last_norm": fmt(norms[last]),
                "ratio": fmt(ratio),
            },
        )
    return None


def _readings(points: list[Point], metric: str) -> list[float]:
    return _fraction(points) if metric == "acc" else [p.value for p in points]


def _apart(train: float, val: float, metric: str) -> bool:
    """Accuracies 10 points apart; losses where one is 1.5 times the other."""
    if metric == "acc":
        return abs(train - val) > 0.1
    return abs(train - val) > 0.5 * max(min(train, val), 1e-8)


def _bn_small_batch(log: TrainingLog) -> Finding | None:
    """A model with BatchNorm, trained on batches of at most 8, whose training-mode and
    eval-mode numbers disagree from the first epoch on: per-batch statistics of so few samples
    are too noisy to stand for the data (overfitting, by contrast, starts with the two close)."""
    sizes = finite(log.series.get("batch_size", []))
    if not (log.batchnorm and sizes and min(p.value for p in sizes) <= 8):
        return None
    for train_key, val_key in (("acc", "val_acc"), ("loss", "val_loss")):
        train, val = finite(log.series.get(train_key, [])), finite(log.series.get(val_key, []))
        if len(train) < 2 or len(val) < 2:
            continue
        tv, vv = _readings(train, train_key), _readings(val, train_key)
        if _apart(tv[0], vv[0], train_key) and _apart(tv[-1], vv[-1], train_key):
            return Finding(
                "bn-small-batch",
                90,
                {
                    "batch_size": f"{min(p.value for p in sizes):.0f}",
                    "metric": train_key,
                    "train": fmt(tv[-1]),
                    "val": fmt(vv[-1]),
                    "at": val[-1].at,
                },
            )
    return None


def _step_overhead(log: TrainingLog) -> Finding | None:
    """A step timed by phase where the optimizer step or the metrics/logging code, not the
    forward and backward passes, takes most of the time (and data loading is not to blame)."""
    means = _phase_means(log)
    fb = means.get("compute_time", 0.0) + means.get("backward_time", 0.0)
    total = sum(means.values())
    if fb <= 0 or total <= 0 or means.get("data_time", 0.0) >= 0.2 * total:
        return None
    key, slowest = max(
        ((k, v) for k, v in means.items() if k in ("optimizer_time", "metrics_time")),
        key=lambda kv: kv[1],
        default=("", 0.0),
    )
    if key and slowest >= 0.5 * total:
        return Finding(
            "step-overhead",
            88,
            {
                "phase": _PHASES[key],
                "pct": f"{100 * slowest / total:.0f}",
                "phase_ms": f"{1000 * slowest:.3g}",
                "fb_ms": f"{1000 * fb:.3g}",
            },
        )
    return None


def learning(log: TrainingLog) -> bool:
    """The training loss falls at every reading the log prints, by a tenth or more from the
    first to the last: whatever a sentence says is stuck (a validation accuracy, a "not
    changing" metric), the model is learning, so the paste is about something else (overfitting,
    a validation path that differs)."""
    points = finite(log.series.get("loss", [])) if log else []
    if len(points) < 3:
        return False
    vals = [p.value for p in points]
    return all(b < a for a, b in itertools.pairwise(vals)) and vals[-1] <= 0.9 * vals[0]


# The series a detector needs, and how many readings of each, to see its signal when it is there:
# a log that holds them and shows no such signal says the signal is not there.
_READS: dict[str, tuple[tuple[tuple[str, ...], int], ...]] = {
    "val-diverges": ((("loss", "val_loss"), 3), (("acc", "val_acc"), 3)),
    "flat": ((("loss",), 5),),
    "nan": ((("loss",), 3),),
    "zero": ((("loss",), 3),),
    "memory-grows": ((("memory",), 4),),
    "grad-explodes": ((("grad_norm",), 3),),  # two beside a skipped step: see shown_otherwise
}


def shown_otherwise(log: TrainingLog, signal: str, findings: dict[str, Finding]) -> bool:
    """The log holds enough readings of what `signal`'s detector reads and does not show it: a
    guess at it ("Is it overfitting?" under epochs whose validation loss falls with the training
    loss) is what the numbers deny."""
    if not log or signal in findings:
        return False
    if signal == "grad-explodes":
        if _spikes(log):
            return False  # a norm that jumped, whatever followed: the sentence says it went on
        norms = log.series.get("grad_norm", [])
        if len(finite(norms)) == 2 and len(norms) > 2:
            # fp16's loss scaling skipped a step ("grad_norm: nan") and the run went on: two
            # finite norms around it show what the nan was; two alone are too few to deny
            return True
    return any(
        all(len(finite(log.series.get(name, []))) >= n for name in names)
        for names, n in _READS.get(signal, ())
    )


DETECTORS: dict[str, Callable[[TrainingLog], Finding | None]] = {
    "nan": _nan,
    "flat": _flat,
    "val-diverges": _val_diverges,
    "zero": _zero,
    "negative": _negative,
    "grad-explodes": _grad_explodes,
    "grad-none": _grad_none,
    "memory-grows": _memory_grows,
    "data-bound": _data_bound,
    "oscillates": lambda log: _oscillates(log) or _rises_off_a_plateau(log),
    "underfit": _underfit,
    "grad-vanishes": _grad_vanishes,
    "bn-small-batch": _bn_small_batch,
    "step-overhead": _step_overhead,
}


def detect(log: TrainingLog) -> dict[str, Finding]:
    """Each signal the log shows, with its evidence; each model diagnoser.watch labelled is read
    on its own, and the surest finding of a signal is kept."""
    if not log:  # a traceback: no detector has anything to read
        return {}
    found: dict[str, Finding] = {}
    for one in (log, *log.models.values()):
        for signal, detector in DETECTORS.items():
            finding = detector(one) if one else None
            if finding and (signal not in found or finding.score > found[signal].score):
                found[signal] = finding
    return found


# -- sentences ----------------------------------------------------------------------------------

_WORD = compile_cached(r"[a-z]{4,}")


# Typos are corrected only in what reads like a sentence: in a log, "Overwriting checkpoint"
# must not become "overfitting". A short text is a sentence; in a longer one, a line in which the
# writer speaks of themselves ("in all these cases the val_accuracy stagates at 50%. I read...")
# is theirs, not the log's.
_MAX_CORRECTED = 300
_PERSONAL_LINE = compile_cached(r"(?im)^(?=[^\n]{0,300}?\b(?:i|i'm|my|we|our|me)\b)[^\n]{1,1000}$")


def fold(text: str) -> str:
    """Full-width to ASCII and lower case: "ＣＵＤＡ" is "cuda"."""
    return unicodedata.normalize("NFKC", text).lower()


# A loss named by its part or its variable is still a loss: "clsLoss gradually increases", "the
# loss_cls does not decrease", "box_loss keeps going up", "loss_cp一直是固定值" are read as "cls
# Loss", "loss cls", "box loss", "loss cp", so that the patterns' whole word "loss" sees them. Only
# a name the prose goes on from (a word or Chinese after it): in code ("print(running_loss)",
# "total_loss += loss") and a log's fields ("val_loss: 0.52") the name stays whole. A camelCase
# name starts lower case: "CrossEntropyLoss" is a class, no loss that moves. A loss's settings
# ("loss_fn", "loss_scale", "loss_weight") are no loss.
_GLUED_LOSS = compile_cached(
    r"(?<![\w.])(?:(?P<camel>[a-z][a-z0-9]{0,15})(?P<camel_loss>Loss(?:es)?)"
    r"|(?P<prefix>[A-Za-z][A-Za-z0-9_]{0,20}?)_(?P<prefix_loss>[Ll]oss(?:es)?)"
    r"|(?P<loss>[Ll]oss(?:es)?)_(?P<suffix>[A-Za-z0-9][A-Za-z0-9_]{0,20}))"
    # a glob for the family of them ("`unsup_loss_*` are always 0"), and a name quoted as code
    # (its closing mark goes with it: the patterns read "unsup loss are always 0")
    r"(?:_?\*)?[`'\"]?(?=[^\S\n]+[A-Za-z\u4e00-\u9fff]|[\u4e00-\u9fff])"
)
_LOSS_SETTINGS = re.compile(
    r"(?:fn|func|function|fun|scale|scaler|scaling|weights?|type|name|cfg|config|kwargs|args|dict"
    r"|module|class|factor|coef\w*|lambda|rate|mult\w*|ratio)(?:_\w*)?"
)


def _unglued(m: re.Match[str]) -> str:
    if m["camel"]:
        return f"{m['camel']} {m['camel_loss']}"
    if m["prefix"]:
        return f"{m['prefix']} {m['prefix_loss']}"
    if _LOSS_SETTINGS.fullmatch(m["suffix"].lower()):
        return m[0]
    return f"{m['loss']} {m['suffix']}"


def unglue_losses(text: str) -> str:
    """Each loss glued to its name in prose, apart (see _GLUED_LOSS)."""
    return _GLUED_LOSS.sub(_unglued, text) if "oss" in text else text


def normalise(text: str, vocabulary: frozenset[str]) -> str:
    """Full-width to ASCII, lower case, a loss glued to its name apart ("clsLoss" -> "cls loss"),
    and, in a short text, English typos corrected towards the words our phrases use ("decresing"
    -> "decreasing")."""
    text = fold(unglue_losses(text))

    def corrected(m: re.Match[str]) -> str:
        return _WORD.sub(lambda w: _correct(w.group(0), vocabulary), m.group(0))

    if len(text) > _MAX_CORRECTED:
        return _PERSONAL_LINE.sub(corrected, text)
    return _WORD.sub(lambda m: _correct(m.group(0), vocabulary), text)


# Spaces are optional between Chinese and anything else: "CUDA 内存不足" and "CUDA内存不足" are one.
_CJK_SPACE = compile_cached(
    r"(?<!\s)\s+(?=[\u3000-\u9fff\uff00-\uffef])|(?<=[\u3000-\u9fff\uff00-\uffef])\s+"
)
_SPACES = compile_cached(r"\s+")


def compact(text: str) -> str:
    """One space between words, none around Chinese characters: the form phrases are compared in."""
    return _CJK_SPACE.sub("", _SPACES.sub(" ", text)).strip()


def _correct(word: str, vocabulary: frozenset[str]) -> str:
    if word in vocabulary or len(word) < 5:
        return word
    return _closest(word, vocabulary) or word


@lru_cache(maxsize=4096)
def _closest(word: str, vocabulary: frozenset[str]) -> str | None:
    """A typo keeps its first letter and most of the rest; "never" is no typo of "every"."""
    from ..knowledge.fuzzy import fuzz, process

    candidates = [
        v for v in vocabulary if _may_be_typo_of(word, v) and not _kept_typo(v, vocabulary)
    ]
    hit = process.extractOne(word, candidates, scorer=fuzz.ratio, score_cutoff=85)
    if hit:
        return hit[0]
    # two neighbouring letters typed in turn ("trian"), which the ratio scores as two edits
    return next((v for v in candidates if _one_swap(word, v)), None)


def _one_swap(word: str, other: str) -> bool:
    differ = [i for i, (a, b) in enumerate(zip(word, other, strict=False)) if a != b]
    return (
        len(word) == len(other)
        and len(differ) == 2
        and differ[1] == differ[0] + 1
        and word[differ[0]] == other[differ[1]]
        and word[differ[1]] == other[differ[0]]
    )


def _kept_typo(word: str, vocabulary: frozenset[str]) -> bool:
    """A vocabulary word that is another one with its last letter doubled ("untill"): a typo a
    phrase quotes as users write it, no word to correct towards ("gpu utill 0" is no "untill")."""
    return len(word) > 4 and word[-1] == word[-2] and word[:-1] in vocabulary


def _may_be_typo_of(word: str, other: str) -> bool:
    """Same first letter, similar length, and no inflection ("epochs" is no typo of "epoch")."""
    return (
        word[0] == other[0]
        and abs(len(word) - len(other)) <= 2
        and not word.startswith(other)
        and not other.startswith(word)
    )
