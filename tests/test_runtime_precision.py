"""Mixed precision that does not apply, found by watch: autocast opened for the wrong device
type, or a float64 model inside autocast. Correct AMP loops, and deliberate float32 islands,
stay quiet."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

from diagnoser import watch  # noqa: E402


def _train(
    model: nn.Module, x: torch.Tensor, context: Callable[[], AbstractContextManager[object]]
) -> list[str]:
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    with watch(model, on_finding="quiet") as w:
        for _ in range(4):
            with context():
                loss = model(x).float().pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return [f.check for f in w.findings]


def _mlp() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))


def _cnn() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(
        nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.LazyLinear(2)
    )


def test_a_float64_model_inside_cpu_autocast_is_reported() -> None:
    model = _mlp().double()
    x = torch.randn(4, 8, dtype=torch.float64)
    found = _train(model, x, lambda: torch.autocast("cpu", dtype=torch.bfloat16))
    assert found == ["watch.autocast-off"]


def test_the_finding_names_the_layer_and_its_entry() -> None:
    model = _mlp().double()
    findings = []
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    with watch(model, on_finding=findings.append):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = model(torch.randn(4, 8, dtype=torch.float64)).sum()
        loss.backward()
        optimizer.step()
    [finding] = findings
    assert finding.entry == "autocast-not-applied"
    assert finding.location == "0 (Linear)"
    assert "float64" in finding.message("en") and "float64" in finding.message("zh")


@pytest.mark.skipif(not hasattr(torch, "is_autocast_enabled"), reason="old torch")
def test_autocast_opened_for_another_device_type_is_reported() -> None:
    """What `torch.autocast("cuda")` around a CPU model does on a GPU machine: autocast on for
    one device type, the layers computing on another. Emulated with the CPU and an autocast
    state for "cuda" set directly, since this machine has no GPU."""
    context: Callable[[], AbstractContextManager[object]] = _cuda_autocast_flag
    if torch.cuda.is_available():
        context = _cuda_autocast
    found = _train(_mlp(), torch.randn(4, 8), context)
    assert found == ["watch.autocast-off"]


def _cuda_autocast() -> AbstractContextManager[object]:
    return torch.autocast("cuda")


class _cuda_autocast_flag:  # used like torch.autocast
    def __enter__(self) -> None:
        self.before = torch.is_autocast_enabled("cuda")
        torch.set_autocast_enabled("cuda", True)

    def __exit__(self, *exc: object) -> None:
        torch.set_autocast_enabled("cuda", self.before)


@pytest.mark.parametrize(
    ("make", "context"),
    [
        (_mlp, lambda: torch.autocast("cpu", dtype=torch.bfloat16)),  # AMP that works
        (_cnn, lambda: torch.autocast("cpu", dtype=torch.bfloat16)),
        (_mlp, nullcontext),  # no AMP at all
        (lambda: _mlp().double(), nullcontext),  # float64 without autocast: a choice
        (_mlp, lambda: torch.autocast("cpu", enabled=False)),  # a deliberate float32 island
    ],
)
def test_correct_programs_stay_quiet(
    make: Callable[[], nn.Module], context: Callable[[], AbstractContextManager[object]]
) -> None:
    model = make()
    dtype = next(model.parameters()).dtype if not isinstance(model[-1], nn.LazyLinear) else None
    x = torch.randn(4, 3, 8, 8) if isinstance(model[0], nn.Conv2d) else torch.randn(4, 8)
    if dtype is not None:
        x = x.to(dtype)
    assert _train(model, x, context) == []
