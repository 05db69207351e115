"""What diagnoser.watch costs, as ratios measured in one run: training steps with watch against
the same steps without it, on the same model, optimizer and batch, in one process.

Each model trains in blocks of steps: a block without watch, a block with it (the same Watch,
attached for its block and detached after it, so that its step count and sampling go on as in one
long run), in turn, the order alternating from round to round (A/B then B/A) so that whatever the
first block of a round pays, or a drift of the machine, does not land on one side. A block is a
whole number of watch's sampling periods (`every` steps, one sampled step each); the first block
of each variant warms up (watch's first three steps, always sampled, are in it) and is not
measured. A round gives one ratio, watched time over plain time; the report is the median of the
rounds' ratios with a distribution-free 95% interval (order statistics of the binomial), and
whether its upper bound is within the goal.

- a tiny MLP, whose own step is short: watch's fixed cost per step, in microseconds (goal: 50);
- a small CNN (conv, batchnorm, ReLU, pooling, linear), also against
  torch.autograd.detect_anomaly;
- three realistic models, each with its usual optimizer (goal: at most 3% of training time):
  pytorch-examples' MNIST CNN (Adadelta, batch 64), a small nanoGPT (6 layers, 256 wide, 4 heads,
  block 128, AdamW, batch 8) and a small ResNet (basic blocks 16-32-64 on 32x32 images, SGD with
  momentum, batch 32).

On a GPU the data lives on the device and time is wall-clock time after a synchronize; on the CPU
it runs on one thread and time is the process's CPU time, so that other work on a shared machine
blurs the ratios less. Watch is detached during the plain blocks, its global optimizer hooks
too: they cost the plain blocks nothing.

Each model gets as many rounds as fit in --seconds (60) by its warm-up round's time, at least
--least (20) and at most 200: a cheap model's interval narrows with more rounds, nanoGPT stays at
the least. About 6 minutes in all on one CPU thread.

Usage: python bench/bench_watch.py [--seconds S] [--least N] [--quick] [--device cpu|cuda]
       [--every N] [--only tiny,cnn,mnist-cnn,nanogpt,resnet]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

import diagnoser
from diagnoser.runtime.watch import Watch

_CONFIDENCE = 0.95
_FIXED_GOAL_US = 50.0
_OVERHEAD_GOAL = 0.03


def _cnn(width: int = 16) -> nn.Module:
    def block(i: int, o: int) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU()]

    return nn.Sequential(
        *block(3, width),
        *block(width, width),
        nn.MaxPool2d(2),
        *block(width, 2 * width),
        *block(2 * width, 2 * width),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(2 * width, 10),
    )


def _tiny() -> nn.Module:
    return nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))


class _MnistNet(nn.Module):
    """pytorch-examples' mnist/main.py Net."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.conv1(x))
        x = torch.max_pool2d(torch.relu(self.conv2(x)), 2)
        x = torch.flatten(self.dropout1(x), 1)
        x = self.dropout2(torch.relu(self.fc1(x)))
        return torch.log_softmax(self.fc2(x), dim=1)


class _Block(nn.Module):
    """nanoGPT's transformer block: pre-norm causal self-attention and a 4x MLP."""

    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(width)
        self.c_attn = nn.Linear(width, 3 * width)
        self.c_proj = nn.Linear(width, width)
        self.ln_2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(
            nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width), nn.Dropout(0.0)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        y = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.c_proj(y.transpose(1, 2).contiguous().view(b, t, c))
        return x + self.mlp(self.ln_2(x))  # type: ignore[no-any-return]


class _GPT(nn.Module):
    def __init__(self, vocab: int = 512, block: int = 128, layers: int = 6, width: int = 256):
        super().__init__()
        self.wte = nn.Embedding(vocab, width)
        self.wpe = nn.Embedding(block, width)
        self.h = nn.ModuleList(_Block(width, 4) for _ in range(layers))
        self.ln_f = nn.LayerNorm(width)
        self.lm_head = nn.Linear(width, vocab, bias=False)
        self.lm_head.weight = self.wte.weight  # weight tying, as nanoGPT does

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        pos = torch.arange(idx.shape[1], device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))  # type: ignore[no-any-return]


class _Basic(nn.Module):
    def __init__(self, i: int, o: int, stride: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(i, o, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(o)
        self.conv2 = nn.Conv2d(o, o, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(o)
        self.shortcut = (
            nn.Sequential(nn.Conv2d(i, o, 1, stride, bias=False), nn.BatchNorm2d(o))
            if stride != 1 or i != o
            else nn.Identity()
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(out)) + self.shortcut(x))


def _resnet() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, 1, 1, bias=False),
        nn.BatchNorm2d(16),
        nn.ReLU(),
        _Basic(16, 16, 1),
        _Basic(16, 16, 1),
        _Basic(16, 32, 2),
        _Basic(32, 32, 1),
        _Basic(32, 64, 2),
        _Basic(64, 64, 1),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(64, 10),
    )


@dataclass
class _Setup:
    model: nn.Module
    optimizer: Any
    x: torch.Tensor
    y: torch.Tensor
    loss_fn: Any  # (output, target) -> loss


def _setup(name: str, device: torch.device) -> _Setup:
    """The model, its optimizer, one batch and the loss, as each project trains it."""
    torch.manual_seed(0)
    if name == "tiny":
        model: nn.Module = _tiny().to(device)
        x = torch.randn(32, 32, device=device)
        y = torch.randint(0, 10, (32,), device=device)
        sgd = torch.optim.SGD(model.parameters(), lr=0.01)
        return _Setup(model, sgd, x, y, nn.functional.cross_entropy)
    if name == "cnn":
        model = _cnn().to(device)
        x = torch.randn(32, 3, 32, 32, device=device)
        y = torch.randint(0, 10, (32,), device=device)
        sgd = torch.optim.SGD(model.parameters(), lr=0.01)
        return _Setup(model, sgd, x, y, nn.functional.cross_entropy)
    if name == "mnist-cnn":
        model = _MnistNet().to(device)
        opt: Any = torch.optim.Adadelta(model.parameters(), lr=1.0)
        x = torch.randn(64, 1, 28, 28, device=device)
        y = torch.randint(0, 10, (64,), device=device)
        return _Setup(model, opt, x, y, nn.functional.nll_loss)
    if name == "nanogpt":
        model = _GPT().to(device)
        opt = torch.optim.AdamW(model.parameters(), lr=6e-4, weight_decay=0.1)
        x = torch.randint(0, 512, (8, 128), device=device)
        y = torch.randint(0, 512, (8, 128), device=device)

        def lm_loss(out: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
            return nn.functional.cross_entropy(out.view(-1, out.shape[-1]), t.view(-1))

        return _Setup(model, opt, x, y, lm_loss)
    model = _resnet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    x = torch.randn(32, 3, 32, 32, device=device)
    y = torch.randint(0, 10, (32,), device=device)
    return _Setup(model, opt, x, y, nn.functional.cross_entropy)


def _block(
    run: _Setup, context: AbstractContextManager[Any], steps: int, device: torch.device
) -> float:
    """Seconds for `steps` training steps inside `context` (watch, detect_anomaly or nothing);
    attaching and detaching are not counted: a run does them once."""
    with context as w:
        if device.type == "cuda":
            torch.cuda.synchronize()
        start = _clock(device)
        for _ in range(steps):
            loss = run.loss_fn(run.model(run.x), run.y)
            run.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            run.optimizer.step()
            if isinstance(w, Watch):
                w.step(loss)
            loss.item()  # a real loop reads the loss: one sync per step in every variant
        if device.type == "cuda":
            torch.cuda.synchronize()
        return _clock(device) - start


@dataclass
class _Plan:
    seconds: float  # measured time per model, roughly
    least: int  # rounds
    most: int

    def rounds(self, warm_up: float) -> int:
        """As many rounds as fit in the time, by the warm-up round's seconds."""
        fit = int(self.seconds / warm_up) if warm_up > 0 else self.most
        return min(self.most, max(self.least, fit))


def _rounds(
    name: str, others: list[str], steps: int, plan: _Plan, every: int, device: torch.device
) -> tuple[list[float], dict[str, list[float]]]:
    """(plain seconds per block, {variant: its seconds per block}), one block of each variant per
    round, in an order that turns around every round; after one unmeasured block of each."""
    run = _setup(name, device)
    watch = diagnoser.watch(run.model, on_finding="quiet", every=every)
    contexts: dict[str, Callable[[], AbstractContextManager[Any]]] = {
        "plain": nullcontext,
        "watch": lambda: watch,  # the same Watch each time: attached for its block only
        "detect_anomaly": lambda: torch.autograd.detect_anomaly(check_nan=True),
    }
    variants = ["plain", *others]
    warm_up = sum(_block(run, contexts[variant](), steps, device) for variant in variants)
    times: dict[str, list[float]] = {v: [] for v in variants}
    for i in range(plan.rounds(warm_up)):
        for variant in variants if i % 2 == 0 else variants[::-1]:
            times[variant].append(_block(run, contexts[variant](), steps, device))
    plain = times.pop("plain")
    return plain, times


def median_interval(values: list[float], confidence: float = _CONFIDENCE) -> tuple[float, float]:
    """A distribution-free interval for the median: the k-th smallest and k-th largest values,
    for the largest k at which the median lies outside with probability at most 1 - confidence
    (the count of values below the median is binomial(n, 1/2)). The whole range when n is too
    small for that."""
    ordered = sorted(values)
    n = len(ordered)
    tail = 0.0
    k = 0
    while k < n // 2:
        tail_next = tail + math.comb(n, k) / 2**n
        if 2 * tail_next > 1 - confidence:
            break
        tail = tail_next
        k += 1
    k = max(k, 1)
    return ordered[k - 1], ordered[n - k]


def _percent(r: float) -> str:
    return f"{100 * (r - 1):+.1f}%"


def _report_fixed(plan: _Plan, steps: int, every: int, device: torch.device) -> None:
    plain, times = _rounds("tiny", ["watch"], steps, plan, every, device)
    extra = [1e6 * (w - p) / steps for p, w in zip(plain, times["watch"], strict=True)]
    low, high = median_interval(extra)
    verdict = "within" if high <= _FIXED_GOAL_US else "NOT within"
    print(
        f"  tiny MLP   plain {1e6 * statistics.median(plain) / steps:6.0f} us/step, watch's fixed "
        f"cost {statistics.median(extra):4.0f} us/step (95% {low:.0f} to {high:.0f}; "
        f"{verdict} the {_FIXED_GOAL_US:.0f} us goal; {len(plain)} rounds)"
    )


def _report_overhead(
    name: str, others: list[str], plan: _Plan, steps: int, every: int, device: torch.device
) -> None:
    plain, times = _rounds(name, others, steps, plan, every, device)
    parts = []
    for variant, seconds in times.items():
        ratios = [v / p for p, v in zip(plain, seconds, strict=True)]
        low, high = median_interval(ratios)
        middle = _percent(statistics.median(ratios))
        part = f"{variant} {middle} (95% {_percent(low)} to {_percent(high)})"
        if variant == "watch" and name != "cnn":
            part += "; goal 3%: " + ("met" if high - 1 <= _OVERHEAD_GOAL else "NOT shown")
        parts.append(part)
    ms = 1000 * statistics.median(plain) / steps
    print(f"  {name:10s} plain {ms:6.1f} ms/step, " + ", ".join(parts) + f"; {len(plain)} rounds")


def _clock(device: torch.device) -> float:
    return time.perf_counter() if device.type == "cuda" else time.process_time()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="measured time per model")
    parser.add_argument("--least", type=int, default=20, help="rounds per model at least")
    parser.add_argument("--every", type=int, default=10, help="watch's sampling period")
    parser.add_argument("--quick", action="store_true", help="6 rounds each: a smoke run")
    parser.add_argument("--only", default="tiny,cnn,mnist-cnn,nanogpt,resnet")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    device = torch.device(args.device)
    if device.type == "cpu":
        torch.set_num_threads(1)
    warnings.filterwarnings("ignore", "Anomaly Detection has been enabled")  # asked for here
    plan = _Plan(0, 6, 6) if args.quick else _Plan(args.seconds, args.least, 200)
    every = args.every
    only = args.only.split(",")
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu, one thread"
    print(
        f"device: {name}, torch {torch.__version__}; blocks of "
        f"{every} steps ({10 * every} for the tiny MLP), watch's every={every}; medians of the "
        "rounds' ratios with 95% intervals"
    )
    started = time.perf_counter()
    if "tiny" in only:
        _report_fixed(plan, 10 * every, every, device)
    if "cnn" in only:
        _report_overhead("cnn", ["watch", "detect_anomaly"], plan, every, every, device)
    for model in ("mnist-cnn", "nanogpt", "resnet"):
        if model in only:
            _report_overhead(model, ["watch"], plan, every, every, device)
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
