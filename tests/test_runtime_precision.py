"""Mixed precision that does not apply, found by watch: autocast opened for the wrong device
type, or a float64 model inside autocast. Correct AMP loops, and deliberate float32 islands,
stay quiet."""

from __future__ import annotations

import warnings
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


# autocast that torch itself switched off ------------------------------------------------------

_NO_CUDA = pytest.mark.skipif(
    torch.cuda.is_available(), reason="with CUDA, torch keeps autocast('cuda') on"
)


# a low-precision dtype CPU autocast does not support (torch >= 2.1 has it)
_FLOAT8 = pytest.mark.skipif(not hasattr(torch, "float8_e4m3fn"), reason="torch < 2.1")


def _in_autocast(make: Callable[[], AbstractContextManager[object]]) -> list[str]:
    """Four steps of the nanoGPT loop's shape: the context opened around forward and loss."""
    return _train(_mlp(), torch.randn(4, 8), make)


@_NO_CUDA
@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.amp.autocast(device_type="cuda", dtype=torch.bfloat16),  # nanoGPT's
        lambda: torch.autocast("cuda"),  # float16 by default
        lambda: torch.cuda.amp.autocast(),  # the deprecated subclass calls the base __init__
    ],
)
def test_cuda_autocast_on_a_machine_without_cuda_is_reported(
    make: Callable[[], AbstractContextManager[object]],
) -> None:
    with pytest.warns(UserWarning, match="Disabling autocast"):
        assert _in_autocast(make) == ["watch.autocast-disabled"]


@_FLOAT8
def test_a_dtype_the_device_does_not_support_is_reported() -> None:
    """The other way torch switches autocast off, on any machine."""
    make = lambda: torch.autocast("cpu", dtype=torch.float8_e4m3fn)  # noqa: E731
    with pytest.warns(UserWarning, match="target dtype is not supported"):
        assert _in_autocast(make) == ["watch.autocast-disabled"]


@_NO_CUDA
def test_a_switched_off_autocast_inside_the_model_is_reported_with_what_was_asked() -> None:
    """FastVideo's block: the hard-coded context is in forward, around part of the layers."""

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.mlp = nn.Linear(8, 8)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
                return x + self.mlp(x)

    findings = []
    model = Block()
    with pytest.warns(UserWarning), watch(model, on_finding=findings.append) as w:
        for _ in range(3):
            model(torch.randn(2, 8)).sum().backward()
            w.step()
    [finding] = findings
    assert finding.entry == "autocast-not-applied"
    assert finding.values["step"] == 0
    for lang in ("en", "zh"):
        text = finding.message(lang)
        assert 'device_type="cuda"' in text and "bfloat16" in text and "cpu" in text


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.autocast("cuda", enabled=False),  # enabled=use_amp, use_amp False
        lambda: torch.autocast("cuda", torch.float16, False),  # the same, positional
        lambda: torch.cuda.amp.autocast(False),
        lambda: torch.autocast("cpu", dtype=torch.bfloat16),  # AMP that works
        lambda: torch.autocast("cpu", dtype=torch.float32),  # full precision, as asked
        nullcontext,
    ],
)
def test_autocast_not_switched_off_by_torch_stays_quiet(
    make: Callable[[], AbstractContextManager[object]],
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the deprecation and float32 warnings are torch's
        assert _in_autocast(make) == []


@_FLOAT8
def test_torch_s_own_warning_still_names_the_user_s_line() -> None:
    """The wrapper is a frame between torch's warn(stacklevel=2) and the caller: the warning
    must still point where it does without watch."""

    def warnings_of(watched: bool) -> list[tuple[str, str, int]]:
        model = _mlp()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with watch(model, on_finding="quiet") if watched else nullcontext():
                torch.autocast("cpu", dtype=torch.float8_e4m3fn)
        return [(str(w.message), w.filename, w.lineno) for w in caught]

    plain = warnings_of(False)
    assert plain and plain[0][1] == __file__
    watched = warnings_of(True)
    assert [(m, f) for m, f, _ in watched] == [(m, f) for m, f, _ in plain]


def test_torch_s_autocast_is_restored_on_the_last_detach_even_after_an_error() -> None:
    from torch.amp import autocast_mode

    init = autocast_mode.autocast.__init__
    assert autocast_mode.__dict__["warnings"] is warnings
    with pytest.raises(ZeroDivisionError), watch(_mlp(), on_finding="quiet"):
        with watch(_mlp(), on_finding="quiet"):
            assert autocast_mode.autocast.__init__ is not init
        assert autocast_mode.autocast.__init__ is not init  # one watch still attached
        1 / 0  # noqa: B018
    assert autocast_mode.autocast.__dict__["__init__"] is init
    assert autocast_mode.__dict__["warnings"] is warnings


def test_torch_compile_of_a_model_with_autocast_inside_is_unchanged() -> None:
    """Dynamo builds autocast from the class, never calling the wrapped __init__."""

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(8, 8)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            with torch.autocast("cpu", dtype=torch.bfloat16):
                return self.fc(x)

    torch.manual_seed(0)
    model, x = Net(), torch.randn(4, 8)
    expected = model(x)
    compiled = torch.compile(model, backend="aot_eager", fullgraph=True)
    with watch(model, on_finding="quiet") as w:
        out = compiled(x)
    assert out.dtype == torch.bfloat16
    assert torch.equal(out, expected)
    assert w.findings == []


@_NO_CUDA
def test_on_finding_raise_stops_the_run_at_the_switched_off_autocast() -> None:
    from diagnoser.runtime.findings import TrainingFindingError

    model = _mlp()
    with (
        pytest.warns(UserWarning),
        watch(model, on_finding="raise"),
        pytest.raises(TrainingFindingError, match="autocast-disabled"),
    ):
        torch.autocast("cuda", dtype=torch.bfloat16)
