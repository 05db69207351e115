"""float16 weights that the optimizer updates directly (model.half(), then training, no float32
master copy): preflight and watch say so once; bfloat16 weights and float32 weights under
autocast stay quiet."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

from diagnoser import preflight, watch  # noqa: E402


def _model(dtype: torch.dtype) -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(dtype)


def _train(model: nn.Module, dtype: torch.dtype, steps: int, *, autocast: bool = False) -> None:
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
    for _ in range(steps):
        x, y = torch.randn(8, 16, dtype=dtype), torch.randint(0, 4, (8,))
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            loss = nn.functional.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def test_the_harm_updates_below_float16_resolution_round_away() -> None:
    """torch's own arithmetic: a float16 weight of 1.0 does not move by 1e-4, a float32 one does."""
    for dtype, moves in ((torch.float16, False), (torch.float32, True)):
        w = torch.ones(4, dtype=dtype)
        assert bool((w - 1e-4 != w).all()) is moves


def test_watch_reports_float16_weights_once() -> None:
    model = _model(torch.float16)
    with watch(model, on_finding="quiet") as w:
        _train(model, torch.float16, steps=5)
    [finding] = [f for f in w.findings if f.check == "watch.float16-weights"]
    assert finding.entry == "optimizer-step-no-update"
    assert finding.values["count"] == 4 and finding.values["optimizer"] == "SGD"
    assert finding.values["step"] == 0
    assert "float16" in finding.message("zh")


@pytest.mark.parametrize("autocast", [False, True])
def test_watch_is_quiet_on_float32_weights(autocast: bool) -> None:
    model = _model(torch.float32)
    with watch(model, on_finding="quiet") as w:
        _train(model, torch.float32, steps=5, autocast=autocast)
    assert "watch.float16-weights" not in {f.check for f in w.findings}


def test_watch_is_quiet_on_bfloat16_weights() -> None:
    """Pure bfloat16 training is a recipe torch's own libraries use (torchtune); the steps whose
    updates do round away are watch.step-no-update's to report."""
    model = _model(torch.bfloat16)
    with watch(model, on_finding="quiet") as w:
        _train(model, torch.bfloat16, steps=3)
    assert "watch.float16-weights" not in {f.check for f in w.findings}


def test_preflight_reports_float16_weights() -> None:
    model = _model(torch.float16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    batch = (torch.randn(8, 16, dtype=torch.float16), torch.randint(0, 4, (8,)))
    report = preflight(model, batch, nn.CrossEntropyLoss(), optimizer)
    [finding] = [f for f in report.findings if f.check == "optim.float16-weights"]
    assert finding.values["optimizer"] == "AdamW" and finding.values["params"].startswith(
        "0.weight"
    )


def test_preflight_is_quiet_when_the_float16_parameters_are_frozen() -> None:
    model = _model(torch.float32)
    model[0].half().requires_grad_(False)  # a frozen float16 part is never updated
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    report = preflight(model, (torch.randn(8, 16), torch.randint(0, 4, (8,))), None, optimizer)
    assert "optim.float16-weights" in report.ran
    assert "optim.float16-weights" not in {f.check for f in report.findings}


class _Block(nn.Module):
    def __init__(self, d: int = 32) -> None:
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.fc = nn.Linear(d, d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.fc(self.ln(x))


def _train_block(dtype: torch.dtype, lr: float, *, autocast: bool = False) -> list:
    torch.manual_seed(0)
    model = nn.Sequential(_Block(), _Block()).to(dtype)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    g = torch.Generator().manual_seed(1)
    with watch(model, on_finding="quiet") as w:
        for _ in range(4):
            x = torch.randn(8, 32, generator=g)
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
                out = model(x.to(dtype))
            loss = (out.float() - x.roll(1, -1)).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            w.step(loss)
    return w.findings


def test_bfloat16_layernorm_gains_whose_adam_updates_round_away() -> None:
    """The rest of each group moves, so no group is stuck: the LayerNorm gains (1.0, where
    bfloat16 values are 0.0078 apart) do not, at lr 6e-4."""
    assert bool((torch.ones(4, dtype=torch.bfloat16) - 6e-4 == 1).all())  # torch's rounding
    [finding] = _train_block(torch.bfloat16, 6e-4)
    assert finding.check == "watch.bfloat16-rounded" and finding.entry == "optimizer-step-no-update"
    assert finding.values["params"] == "0.ln.weight, 1.ln.weight" and finding.values["step"] == 0
    assert "float32" in finding.message("zh")


def test_float32_weights_under_bfloat16_autocast_stay_quiet() -> None:
    assert _train_block(torch.float32, 6e-4, autocast=True) == []


def test_bfloat16_weights_whose_updates_show_stay_quiet() -> None:
    assert _train_block(torch.bfloat16, 3e-2) == []


def test_bfloat16_weights_at_lr_0_stay_quiet() -> None:
    """A warm-up that starts from lr 0 moves nothing by design."""
    assert _train_block(torch.bfloat16, 0.0) == []
