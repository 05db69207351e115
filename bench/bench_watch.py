"""What diagnoser.watch costs: training steps per second with watch, against plain training and
against torch.autograd.detect_anomaly, all measured in the same run, reported as ratios.

The model is a small CNN (conv, batchnorm, ReLU, pooling, linear), trained with SGD on random
data: enough layers for the per-module hooks to matter. A tiny MLP, trained the same way, shows
watch's fixed cost per step (its hooks, its optimizer step hooks, its once-per-step read),
which a tiny model cannot hide: reported as microseconds per step, beside the CNN's overhead in
percent. On a GPU the data lives on the device and time is wall-clock time; on the CPU it runs
on one thread and time is the process's CPU time, so that other work on a shared machine does
not blur the ratios.

Usage: python bench/bench_watch.py [--steps N] [--repeats N] [--device cpu|cuda] [--batch N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

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


def _clock(device: torch.device) -> float:
    return time.perf_counter() if device.type == "cuda" else time.process_time()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--width", type=int, default=16)
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
    tiny: dict[str, list[float]] = {"plain": [], "watch": []}
    for _ in range(args.repeats):
        for variant in tiny:
            seconds = _seconds(variants[variant], 10 * args.steps, device, args.batch, 0, True)
            tiny[variant].append(seconds)
    plain_tiny, watch_tiny = (statistics.median(tiny[v]) for v in ("plain", "watch"))
    fixed = 1e6 * (watch_tiny - plain_tiny) / (10 * args.steps)
    print(
        f"watch's fixed cost per step (tiny MLP): {fixed:.0f} us "
        f"({watch_tiny / plain_tiny:.2f}x of its {1e6 * plain_tiny / (10 * args.steps):.0f} us)"
    )


if __name__ == "__main__":
    main()
