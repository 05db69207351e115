"""What diagnoser.watch costs: training steps per second with watch, against plain training and
against torch.autograd.detect_anomaly, all measured in the same run, reported as ratios.

The model is a small CNN (conv, batchnorm, ReLU, pooling, linear), trained with SGD on random
data: enough layers for the per-module hooks to matter. A tiny MLP, trained the same way, shows
watch's fixed cost per step (its hooks, its optimizer step hooks, its once-per-step read),
which a tiny model cannot hide: reported as microseconds per step, beside the CNN's overhead in
percent. On a GPU the data lives on the device and time is wall-clock time; on the CPU it runs
on one thread and time is the process's CPU time, so that other work on a shared machine does
not blur the ratios.

Then watch's overhead in percent of training time on three realistic models, each trained with
its usual optimizer (goal: at most 3%): pytorch-examples' MNIST CNN (Adadelta, batch 64), a small
nanoGPT (6 layers, 256 wide, 4 heads, block 128, AdamW, batch 8) and a small ResNet (basic
blocks 16-32-64 on 32x32 images, SGD with momentum, batch 32).

Usage: python bench/bench_watch.py [--steps N] [--repeats N] [--device cpu|cuda] [--batch N]
       [--realistic-steps N] (0 skips the realistic models)
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import torch
from torch import nn

import diagnoser
from diagnoser.runtime.watch import Watch


def _model(width: int) -> nn.Module:
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


def _seconds(
    setup: Callable[[nn.Module], AbstractContextManager[object]],
    steps: int,
    device: torch.device,
    batch: int,
    width: int,
    tiny: bool = False,
) -> float:
    torch.manual_seed(0)
    model = (_tiny() if tiny else _model(width)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    shape = (batch, 32) if tiny else (batch, 3, 32, 32)
    x = torch.randn(*shape, device=device)
    y = torch.randint(0, 10, (batch,), device=device)
    loss_fn = nn.CrossEntropyLoss()
    with setup(model) as w:
        for i in range(steps + 3):  # 3 warm-up steps
            if i == 3:
                if device.type == "cuda":
                    torch.cuda.synchronize()
                start = _clock(device)
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if isinstance(w, Watch):
                w.step(loss)
            loss.item()  # a real loop reads the loss: one sync per step in every variant
    if device.type == "cuda":
        torch.cuda.synchronize()
    return _clock(device) - start


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


def _realistic(name: str, device: torch.device) -> tuple[nn.Module, Any, Any, Any, Any]:
    """(model, optimizer, input, target, loss function) as each project trains it."""
    torch.manual_seed(0)
    if name == "mnist-cnn":
        model: nn.Module = _MnistNet().to(device)
        opt: Any = torch.optim.Adadelta(model.parameters(), lr=1.0)
        x = torch.randn(64, 1, 28, 28, device=device)
        y = torch.randint(0, 10, (64,), device=device)
        return model, opt, x, y, nn.functional.nll_loss
    if name == "nanogpt":
        model = _GPT().to(device)
        opt = torch.optim.AdamW(model.parameters(), lr=6e-4, weight_decay=0.1)
        x = torch.randint(0, 512, (8, 128), device=device)
        y = torch.randint(0, 512, (8, 128), device=device)
        return (
            model,
            opt,
            x,
            y,
            lambda out, t: nn.functional.cross_entropy(out.view(-1, out.shape[-1]), t.view(-1)),
        )
    model = _resnet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    x = torch.randn(32, 3, 32, 32, device=device)
    y = torch.randint(0, 10, (32,), device=device)
    return model, opt, x, y, nn.functional.cross_entropy


def _realistic_seconds(name: str, watched: bool, steps: int, device: torch.device) -> float:
    model, opt, x, y, loss_fn = _realistic(name, device)
    setup: AbstractContextManager[Any] = (
        diagnoser.watch(model, on_finding="quiet") if watched else nullcontext()
    )
    with setup as w:
        for i in range(steps + 3):  # 3 warm-up steps
            if i == 3:
                if device.type == "cuda":
                    torch.cuda.synchronize()
                start = _clock(device)
            loss = loss_fn(model(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            if w is not None:
                w.step(loss)
            loss.item()
    if device.type == "cuda":
        torch.cuda.synchronize()
    return _clock(device) - start


def _report_realistic(steps: int, repeats: int, device: torch.device) -> None:
    print(
        f"watch's overhead on realistic models ({steps} steps x {repeats}, every=10; "
        "median of the paired ratios, each pair run back to back):"
    )
    for name in ("mnist-cnn", "nanogpt", "resnet"):
        _realistic_seconds(name, False, 3, device)  # the model's first run pays for warming up
        plain: list[float] = []
        ratios: list[float] = []
        for i in range(repeats):
            run = functools.partial(_realistic_seconds, name, steps=steps, device=device)
            pair = _pair(run, i)
            plain.append(pair[0])
            ratios.append(pair[1] / pair[0])
        spread = ", ".join(f"{100 * (r - 1):+.1f}" for r in sorted(ratios))
        print(
            f"  {name:10s} plain {1000 * statistics.median(plain) / steps:7.2f} ms/step, "
            f"watch {100 * (statistics.median(ratios) - 1):+.1f}% (pairs: {spread})"
        )


def _pair(run: Callable[[bool], float], i: int) -> tuple[float, float]:
    """(plain seconds, watched seconds), run back to back, plain first on even i and watched
    first on odd i, so that whatever the first of two runs pays (or the machine's drift) does
    not land on one side."""
    if i % 2:
        watched = run(True)
        return run(False), watched
    plain = run(False)
    return plain, run(True)


def _clock(device: torch.device) -> float:
    return time.perf_counter() if device.type == "cuda" else time.process_time()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--realistic-steps", type=int, default=20)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    device = torch.device(args.device)
    if device.type == "cpu":
        torch.set_num_threads(1)
    variants: dict[str, Callable[[nn.Module], AbstractContextManager[object]]] = {
        "plain": lambda m: nullcontext(),
        "watch": lambda m: diagnoser.watch(m, on_finding="quiet"),
        "detect_anomaly": lambda m: torch.autograd.detect_anomaly(check_nan=True),
    }
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(args.repeats):  # interleaved, so a slow moment of the machine hits all alike
        for name, setup in variants.items():
            times[name].append(_seconds(setup, args.steps, device, args.batch, args.width))
    median = {name: statistics.median(t) for name, t in times.items()}
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
    print(f"device: {name}, torch {torch.__version__}, {args.steps} steps x {args.repeats}")
    for variant, seconds in median.items():
        print(f"  {variant:15s} {1000 * seconds / args.steps:8.2f} ms/step")
    plain = median["plain"]
    print(f"watch / plain:          {median['watch'] / plain:.2f}x")
    print(f"detect_anomaly / plain: {median['detect_anomaly'] / plain:.2f}x")
    watch_extra = median["watch"] - plain
    anomaly_extra = median["detect_anomaly"] - plain
    if anomaly_extra > 0:
        print(f"watch's overhead / detect_anomaly's: {watch_extra / anomaly_extra:.2f}")
    print(f"watch's overhead on the CNN: {100 * watch_extra / plain:+.1f}% of training time")
    tiny_steps = 10 * args.steps
    tiny_plain: list[float] = []
    extra: list[float] = []  # watch's seconds minus plain's, per pair run back to back
    setups = {False: variants["plain"], True: variants["watch"]}

    def tiny_run(watched: bool) -> float:
        return _seconds(setups[watched], tiny_steps, device, args.batch, 0, True)

    for i in range(args.repeats):
        pair = _pair(tiny_run, i)
        tiny_plain.append(pair[0])
        extra.append(pair[1] - pair[0])
    fixed = 1e6 * statistics.median(extra) / tiny_steps
    spread = ", ".join(f"{1e6 * e / tiny_steps:.0f}" for e in sorted(extra))
    print(
        f"watch's fixed cost per step (tiny MLP, median of pairs): {fixed:.0f} us "
        f"(pairs: {spread}; plain {1e6 * statistics.median(tiny_plain) / tiny_steps:.0f} us)"
    )
    if args.realistic_steps:
        _report_realistic(args.realistic_steps, args.repeats, device)


if __name__ == "__main__":
    main()
