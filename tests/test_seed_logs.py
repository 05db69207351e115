"""Logs that the founding guides' own tools print, made by running those tools: seed 001's
benchmark_dataloader (copied as written there, its Chinese lines and all), read as a slow
DataLoader, and quiet when the loader is fast."""

from __future__ import annotations

import contextlib
import io
import re
import time

import pytest

torch = pytest.importorskip("torch")

from torch.utils.data import DataLoader, Dataset  # noqa: E402

from diagnoser import diagnose  # noqa: E402


def benchmark_dataloader(dataloader, n_batches=100):  # type: ignore[no-untyped-def]
    """测试 DataLoader 性能"""
    start = time.time()

    for i, batch in enumerate(dataloader):  # noqa: B007 (as the guide writes it)
        if i >= n_batches:
            break

    elapsed = time.time() - start
    print(f"加载 {n_batches} 批次用时: {elapsed:.2f}s")
    print(f"每批次: {elapsed / n_batches * 1000:.2f}ms")

    # 建议
    batch_time = elapsed / n_batches
    if batch_time > 0.1:  # 超过 100ms
        print("建议: 考虑卢加 num_workers")


class _Slow(Dataset):  # type: ignore[type-arg]
    """Each sample costs `delay` seconds to load (decoding an image, reading a file)."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def __len__(self) -> int:
        return 10_000

    def __getitem__(self, i: int) -> torch.Tensor:
        time.sleep(self.delay)
        return torch.zeros(3)


def _benchmark(delay: float, workers: list[int]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for num_workers in workers:
            loader = DataLoader(_Slow(delay), batch_size=32, num_workers=num_workers)
            print(f"\nnum_workers={num_workers}:")
            benchmark_dataloader(loader, n_batches=4)
    return out.getvalue()


def test_a_slow_loader_names_the_dataloader_and_the_better_worker_count() -> None:
    text = _benchmark(0.005, [0, 2])  # 32 x 5 ms: about 160 ms a batch in the main process
    assert "建议: 考虑卢加 num_workers" in text
    top = diagnose(text, lang="en")["matches"][0]
    assert top["id"] == "slow-training-dataloader"
    timed = [float(ms) for ms in re.findall(r"每批次: ([\d.]+)ms", text)]
    assert f"takes {timed[0]:.0f} ms per batch" in top["explanation"]
    # on a busy machine two workers' start-up can outweigh what they save in 4 batches
    if timed[1] < timed[0]:
        assert f"{timed[1]:.0f} ms with num_workers=2" in top["explanation"]
    assert "单独给 DataLoader 计时" in diagnose(text, lang="zh")["matches"][0]["explanation"]


def test_a_fast_loader_is_no_symptom() -> None:
    text = _benchmark(0.0, [0])
    matches = diagnose(text, lang="en")["matches"]
    assert all(m["id"] != "slow-training-dataloader" for m in matches)


def _log(losses: list[float]) -> str:
    return "".join(f"step {i} | loss {v:.4f}\n" for i, v in enumerate(losses))


def test_a_loss_that_exploded_then_sat_at_chance_is_an_explosion() -> None:
    # ten classes: chance is ln(10) = 2.3026, printed as a run that collapsed prints it
    losses = [2.3 - 0.02 * i for i in range(20)] + [23.0, 2.3e3, 4.1e4] + [2.3026] * 30
    top = diagnose(_log(losses), lang="en")["matches"][0]
    assert top["id"] == "gradient-explosion"
    assert "ln(10)" in top["explanation"] and "step 22" in top["explanation"]


@pytest.mark.parametrize(
    "losses",
    [
        [2.3026] * 40,  # a run that never learns: flat at chance, no explosion
        [2.3 - 0.02 * i for i in range(20)] + [40.0] + [1.9 - 0.01 * i for i in range(20)],
        [2.3 - 0.02 * i for i in range(20)] + [40.0] + [1.5] * 20,  # flat, but not at ln(k)
    ],
)
def test_no_explosion_without_a_jump_and_a_chance_plateau(losses: list[float]) -> None:
    matches = diagnose(_log(losses), lang="en")["matches"]
    assert all(m["id"] != "gradient-explosion" for m in matches)
