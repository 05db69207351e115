"""preflight, overfit_one_batch and watch never crash the program they check and leave it as it
was: float64, bfloat16 and complex models, closure optimizers (LBFGS), sparse and nested inputs,
dict inputs with tuple and list outputs, models without parameters, several optimizers, DDP- and
FSDP-wrapped models (gloo, one process), and a model whose train()
override freezes a stage."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

import diagnoser  # noqa: E402
from diagnoser import preflight, watch  # noqa: E402


def _batch(n: int = 16, features: int = 4, classes: int = 3) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    return torch.randn(n, features, generator=g), torch.arange(n) % classes


def _watched(model: nn.Module, make_input, steps: int = 4, **options: object) -> object:
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with watch(model, every=1, **options) as w:
        for _ in range(steps):
            out = model(make_input())
            loss = out.abs().pow(2).mean().real if out.is_complex() else out.pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            w.step(loss)
    return w


@pytest.mark.parametrize("dtype", [torch.float64, torch.bfloat16, torch.complex64])
def test_watch_reads_every_dtype(dtype: torch.dtype) -> None:
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # complex modules are "a new feature"
        model = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 2)).to(dtype)
    w = _watched(model, lambda: torch.randn(8, 4, dtype=dtype))
    assert w.findings == [] and w.step_count == 4  # type: ignore[attr-defined]


@pytest.mark.parametrize("dtype", [torch.float64, torch.complex64])
def test_watch_still_finds_a_nan_in_float64_and_complex(dtype: torch.dtype) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = nn.Sequential(nn.Linear(4, 2)).to(dtype)
    bad = torch.randn(8, 4, dtype=dtype)
    bad[0, 0] = float("nan")
    w = _watched(model, lambda: bad, steps=1)
    assert [f.check for f in w.findings] == ["watch.nonfinite"]  # type: ignore[attr-defined]


def test_watch_does_not_overflow_on_large_finite_float64() -> None:
    model = nn.Sequential(nn.Linear(4, 2)).double()
    w = _watched(model, lambda: torch.full((8, 4), 1e30, dtype=torch.float64), steps=1)
    assert not [f for f in w.findings if f.check == "watch.nonfinite"]  # type: ignore[attr-defined]


def test_closure_optimizer_lbfgs() -> None:
    torch.manual_seed(0)
    model = nn.Linear(4, 3)
    opt = torch.optim.LBFGS(model.parameters(), max_iter=2)
    report = preflight(model, _batch(), nn.CrossEntropyLoss(), opt, overfit_steps=3)
    assert report.ok and "optim.step" in report.ran, report.to_text("en")
    losses = diagnoser.overfit_one_batch(model, _batch(), nn.CrossEntropyLoss(), opt, steps=3)
    assert losses.fell
    found = diagnoser.lr_find(model, [_batch()], nn.CrossEntropyLoss(), opt, steps=4)
    assert len(found.lrs) >= 2


class _Densify(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x.to_dense())


def test_sparse_inputs() -> None:
    x, y = _batch()
    sparse = x.relu().to_sparse()
    model = _Densify()
    opt = torch.optim.SGD(model.parameters(), lr=1.0)
    report = preflight(model, (sparse, y), nn.CrossEntropyLoss(), opt, overfit_steps=20)
    assert report.ok, report.to_text("en")
    assert "data.nonfinite" in report.ran
    bad = x.relu()
    bad[0, 0] = float("nan")
    report = preflight(model, (bad.to_sparse(), y), nn.CrossEntropyLoss(), opt)
    assert "data.nonfinite" in {f.check for f in report.findings}
    w = _watched(model, lambda: sparse)
    assert w.findings == []  # type: ignore[attr-defined]


def test_sparse_gradients() -> None:
    model = nn.Sequential(nn.Embedding(10, 4, sparse=True), nn.Flatten(), nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with watch(model, every=1) as w:
        for _ in range(3):
            loss = model(torch.randint(0, 10, (5, 2))).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            w.step(loss)
    assert w.findings == []


class _Nested(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.stack([self.fc(part).mean(0) for part in x.unbind()])


def test_nested_inputs() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nested tensors are a prototype
        nested = torch.nested.nested_tensor([torch.randn(2, 4), torch.randn(3, 4)])
    model = _Nested()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    report = preflight(model, (nested, torch.tensor([0, 1])), nn.CrossEntropyLoss(), opt)
    assert report.ok, report.to_text("en")
    w = _watched(model, lambda: nested)
    assert w.step_count == 4  # type: ignore[attr-defined]


def test_model_without_parameters() -> None:
    model = nn.Sequential(nn.ReLU())
    with watch(model, every=1) as w:
        for _ in range(3):
            w.step(model(torch.randn(4, 3)).sum())
    assert w.findings == [] and w.step_count == 3
    report = preflight(model, _batch(features=3), nn.CrossEntropyLoss())
    assert "model.forward" in report.ran


def test_several_optimizers() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    first = torch.optim.SGD(model[0].parameters(), lr=0.1)
    second = torch.optim.Adam(model[2].parameters(), lr=1e-2)
    with watch(model, every=1) as w:
        for _ in range(4):
            x, y = _batch()
            loss = nn.functional.cross_entropy(model(x), y)
            first.zero_grad()
            second.zero_grad()
            loss.backward()
            first.step()
            second.step()
            w.step(loss)
    assert w.findings == []
    report = preflight(model, _batch(), nn.CrossEntropyLoss(), second)
    assert "optim.missing" in {f.check for f in report.findings}  # layer 0 is another's


def _ddp_worker(rank: int, store: str) -> None:
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=1)
    try:
        torch.manual_seed(0)
        model = nn.parallel.DistributedDataParallel(nn.Linear(4, 3))
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        report = preflight(model, _batch(), nn.CrossEntropyLoss(), opt)
        assert report.ok, report.to_text("en")
        with watch(model, every=1) as w:
            for _ in range(3):
                x, y = _batch()
                loss = nn.functional.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                w.step(loss)
        assert w.findings == [], w.findings
    finally:
        dist.destroy_process_group()


def test_ddp_wrapped_model(tmp_path: Path) -> None:
    import torch.distributed as dist

    if not dist.is_available():
        pytest.skip("torch.distributed is not available")
    os.environ.pop("MASTER_ADDR", None)
    _ddp_worker(0, str(tmp_path / "store"))


class _StagedNet(nn.Module):
    """A backbone frozen in train(), as detection codebases freeze their first stages."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Linear(4, 8)
        self.head = nn.Linear(8, 3)
        self.frozen_stages = 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.stem(x).relu())

    def train(self, mode: bool = True) -> _StagedNet:
        super().train(mode)
        if mode and self.frozen_stages:
            self.stem.requires_grad_(False)
            self.stem_frozen = True
        return self


def test_a_train_override_is_undone() -> None:
    torch.manual_seed(0)
    model = _StagedNet()
    model.eval()
    model.stem_frozen = False
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    preflight(model, _batch(), nn.CrossEntropyLoss(), opt, overfit_steps=2)
    assert all(p.requires_grad for p in model.parameters())
    assert not model.training and model.stem_frozen is False
    diagnoser.overfit_one_batch(model, _batch(), nn.CrossEntropyLoss(), opt, steps=2)
    assert all(p.requires_grad for p in model.parameters())
    assert not model.training and model.stem_frozen is False


def test_preflight_on_lazy_modules() -> None:
    """LazyLinear (which the shape-matmul fix recommends) has no values before its first forward:
    preflight saves around it instead of raising, and training goes on afterwards."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.LazyLinear(16), torch.nn.ReLU(), torch.nn.LazyLinear(3))
    x, y = torch.randn(64, 10), torch.randint(0, 3, (64,))
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=16)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    diagnoser.preflight(model, loader, torch.nn.CrossEntropyLoss(), optimizer)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    assert torch.isfinite(loss)


class _Containers(nn.Module):
    """A dict in, a dict holding a tuple and a list out, as detection and HF models do."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, batch: dict[str, torch.Tensor]) -> dict[str, object]:
        h = self.fc(batch["x"])
        return {"logits": (h, h.detach()), "extra": [h.sum(), {"ids": batch["ids"]}]}


def test_container_inputs_and_outputs() -> None:
    torch.manual_seed(0)
    model = _Containers()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = _batch()
    batch = {"x": x, "ids": torch.arange(16)}
    with watch(model, every=1) as w:
        for _ in range(4):
            out = model(batch)
            loss = nn.functional.cross_entropy(out["logits"][0], y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            w.step(loss)
    assert w.findings == [] and w.step_count == 4
    report = preflight(
        model, (batch, y), lambda out, t: nn.functional.cross_entropy(out["logits"][0], t), opt
    )
    assert "model.forward" in report.ran


def _fsdp_worker(store: str) -> None:
    import torch.distributed as dist
    from torch.distributed.fsdp import FullyShardedDataParallel

    dist.init_process_group("gloo", init_method=f"file://{store}", rank=0, world_size=1)
    try:
        torch.manual_seed(0)
        inner = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
        # world size 1: FSDP falls back to NO_SHARD (it warns), its flat parameters and hooks stay
        model = FullyShardedDataParallel(inner, device_id=torch.device("cpu"))
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        report = preflight(model, _batch(), nn.CrossEntropyLoss(), opt)
        assert "model.forward" in report.ran
        with watch(model, every=1) as w:
            for _ in range(3):
                x, y = _batch()
                loss = nn.functional.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                w.step(loss)
        assert w.step_count == 3
        assert w.findings == [], w.findings
    finally:
        dist.destroy_process_group()


def test_fsdp_wrapped_model(tmp_path: Path) -> None:
    import torch.distributed as dist

    if not dist.is_available():
        pytest.skip("torch.distributed is not available")
    os.environ.pop("MASTER_ADDR", None)
    _fsdp_worker(str(tmp_path / "store"))
