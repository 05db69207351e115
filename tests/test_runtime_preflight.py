"""preflight: each check catches a deliberately broken set-up (tiny models, real torch) and stays
silent on a healthy one; nothing it does is left behind in the model, optimizer or RNG."""

from __future__ import annotations

import json
import random

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
from torch.utils.data import DataLoader, Dataset, TensorDataset  # noqa: E402

from diagnoser import preflight  # noqa: E402
from diagnoser.knowledge.index import load_index  # noqa: E402
from diagnoser.runtime.catalog import BY_ID, CHECKS  # noqa: E402


def _data(n: int = 32, features: int = 10, classes: int = 4, seed: int = 0) -> DataLoader:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, features, generator=g)
    y = torch.arange(n) % classes  # every class present
    return DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)


def _mlp(features: int = 10, classes: int = 4) -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(features, 16), nn.ReLU(), nn.Linear(16, classes))


def _checks(report: object) -> set[str]:
    return {f.check for f in report.findings}  # type: ignore[attr-defined]


def test_healthy_setup_is_silent_on_every_check(monkeypatch: pytest.MonkeyPatch) -> None:
    _test_clock(
        monkeypatch, loss_seconds=1.0
    )  # computing is slower than loading, whatever the load
    model = _mlp()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    report = preflight(model, _data(), nn.CrossEntropyLoss(), opt, overfit_steps=20, timing=True)
    assert report.findings == [], report.to_text("en")
    assert report.ok
    expected = {
        "data.nonfinite",
        "data.scale",
        "data.target-range",
        "data.one-class",
        "model.forward",
        "model.output-nonfinite",
        "model.probabilities",
        "loss.compute",
        "loss.nonfinite",
        "loss.negative",
        "loss.initial",
        "grad.backward",
        "grad.none",
        "grad.nonfinite",
        "grad.zero",
        "grad.large",
        "optim.missing",
        "optim.lr",
        "optim.step",
        "overfit",
        "timing",
    }
    assert expected <= set(report.ran)
    text = report.to_text("en")
    assert text.startswith("Preflight: passed")
    assert "✓ class targets fit the model's outputs" in text
    assert report.to_text("zh").startswith("训练前检查：通过")


def test_regression_and_binary_setups_are_silent() -> None:
    torch.manual_seed(0)
    x = torch.randn(32, 5)
    reg = nn.Sequential(nn.Linear(5, 1))
    y = torch.randn(32, 1)
    report = preflight(reg, (x, y), nn.MSELoss(), torch.optim.SGD(reg.parameters(), lr=0.01))
    assert report.findings == [] and "data.target-shape" in report.ran
    binary = nn.Linear(5, 1)
    yb = (torch.arange(32) % 2).float().unsqueeze(1)
    opt = torch.optim.SGD(binary.parameters(), lr=0.1)
    report = preflight(binary, (x, yb), nn.BCEWithLogitsLoss(), opt)
    assert report.findings == [] and "model.probabilities" in report.ran


# data --------------------------------------------------------------------------------------


def test_nan_in_inputs() -> None:
    x = torch.randn(16, 10)
    x[3, 2] = float("nan")
    report = preflight(_mlp(), (x, torch.arange(16) % 4), nn.CrossEntropyLoss())
    [finding] = [f for f in report.findings if f.check == "data.nonfinite"]
    assert finding.entry == "nan-loss" and finding.values["count"] == 1
    assert "1 NaN/inf values out of 160" in finding.message("en")
    assert not report.ok


def test_unnormalised_pixels() -> None:
    x = torch.randint(0, 256, (16, 10)).float()  # raw 0-255 pixel values
    report = preflight(_mlp(), (x, torch.arange(16) % 4), nn.CrossEntropyLoss())
    [finding] = [f for f in report.findings if f.check == "data.scale"]
    assert float(finding.values["min"]) >= 0
    assert float(finding.values["max"]) > 200
    standardised = torch.randn(16, 10)
    standardised[0, 0] = 30.0  # one outlier in normalised data is not a scale problem
    report = preflight(_mlp(), (standardised, torch.arange(16) % 4), nn.CrossEntropyLoss())
    assert "data.scale" in report.ran and report.findings == []


def test_target_out_of_bounds_is_caught_before_the_loss_runs() -> None:
    y = torch.arange(16) % 5  # five classes, the model has four outputs
    report = preflight(_mlp(), (torch.randn(16, 10), y), nn.CrossEntropyLoss())
    [finding] = [f for f in report.findings if f.check == "data.target-range"]
    assert finding.entry == "target-out-of-bounds"
    assert finding.values == {"min": 0, "max": 4, "classes": 4, "last": 3}
    assert "loss.compute" not in report.ran  # on CUDA it would be a device-side assert


def test_target_range_respects_ignore_index() -> None:
    y = torch.arange(16) % 4
    y[:3] = -100  # padding, ignored by the loss
    report = preflight(_mlp(), (torch.randn(16, 10), y), nn.CrossEntropyLoss())
    assert "data.target-range" in report.ran and "data.target-range" not in _checks(report)


def test_one_class_only() -> None:
    report = preflight(
        _mlp(), (torch.randn(16, 10), torch.zeros(16, dtype=torch.long)), nn.NLLLoss()
    )
    assert "data.one-class" in _checks(report)


def test_mse_target_shape_broadcast() -> None:
    torch.manual_seed(0)
    model = nn.Linear(5, 1)
    report = preflight(model, (torch.randn(8, 5), torch.randn(8)), nn.MSELoss())
    [finding] = [f for f in report.findings if f.check == "data.target-shape"]
    assert finding.values == {"output": "(8, 1)", "target": "(8,)", "broadcast": "(8, 8)"}
    assert finding.entry == "bce-target-size"


def test_target_dtype_is_explained_from_torchs_own_error() -> None:
    y = (torch.arange(16) % 4).float()  # class indices as float: CrossEntropyLoss rejects them
    report = preflight(_mlp(), (torch.randn(16, 10), y), nn.CrossEntropyLoss(), timing=True)
    [finding] = [f for f in report.findings if f.check == "loss.compute"]
    assert finding.entry == "ce-target-dtype", finding.values
    assert finding.values["error"].startswith("RuntimeError: ")


# model -------------------------------------------------------------------------------------


def test_forward_failure_is_explained() -> None:
    report = preflight(_mlp(features=10), (torch.randn(16, 12), torch.arange(16) % 4))
    [finding] = report.findings
    assert finding.check == "model.forward" and finding.entry == "shape-matmul"
    assert "16x12" in finding.message("en")


def test_output_nan() -> None:
    model = _mlp()
    with torch.no_grad():
        model[2].bias[0] = float("inf")
    report = preflight(model, (torch.randn(16, 10), torch.arange(16) % 4), nn.CrossEntropyLoss())
    assert {"model.output-nonfinite", "loss.nonfinite"} <= _checks(report)


def test_softmax_before_cross_entropy() -> None:
    model = nn.Sequential(_mlp(), nn.Softmax(dim=1))
    report = preflight(model, (torch.randn(16, 10), torch.arange(16) % 4), nn.CrossEntropyLoss())
    [finding] = [f for f in report.findings if f.check == "model.probabilities"]
    assert "softmax" in finding.message("en") and "CrossEntropyLoss" in finding.message("en")
    assert "softmax" in finding.message("zh")


def test_softmax_before_nll_gives_a_negative_loss() -> None:
    model = nn.Sequential(_mlp(), nn.Softmax(dim=1))
    report = preflight(model, (torch.randn(16, 10), torch.arange(16) % 4), nn.NLLLoss())
    found = {f.check: f for f in report.findings}
    assert found["model.probabilities"].entry == "loss-negative"
    assert found["loss.negative"].entry == "loss-negative"


def test_sigmoid_before_bce_with_logits() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 1), nn.Sigmoid())
    y = (torch.arange(16) % 2).float().unsqueeze(1)
    report = preflight(model, (torch.randn(16, 5), y), nn.BCEWithLogitsLoss())
    assert "model.probabilities" in _checks(report)


def test_batchnorm_with_a_batch_of_one() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 8), nn.BatchNorm1d(8), nn.Linear(8, 4))
    report = preflight(model, (torch.randn(1, 10), torch.tensor([1])), nn.CrossEntropyLoss())
    found = {f.check: f for f in report.findings}
    assert found["model.batchnorm-batch1"].values["module"] == "1"
    # the train-mode forward then fails with torch's own error, explained by the same entry
    assert found["model.forward"].entry == "batchnorm-single-sample"


def test_batchnorm_and_a_last_batch_of_one() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 8), nn.BatchNorm1d(8), nn.Linear(8, 4))
    loader = DataLoader(TensorDataset(torch.randn(33, 10), torch.arange(33) % 4), batch_size=16)
    report = preflight(model, loader, nn.CrossEntropyLoss())
    [finding] = report.findings
    assert finding.check == "model.batchnorm-batch1" and "33 samples" in finding.message("en")
    loader = DataLoader(loader.dataset, batch_size=16, drop_last=True)
    assert preflight(model, loader, nn.CrossEntropyLoss()).findings == []


# loss --------------------------------------------------------------------------------------


def test_initial_loss_far_above_log_c() -> None:
    model = _mlp()
    with torch.no_grad():
        model[2].weight.mul_(200)  # over-confident logits at init
    report = preflight(model, (torch.randn(16, 10), torch.arange(16) % 4), nn.CrossEntropyLoss())
    [finding] = [f for f in report.findings if f.check == "loss.initial"]
    assert finding.values["expected"] == "1.386" and finding.values["classes"] == 4


def test_non_scalar_loss_fails_backward() -> None:
    loss_fn = nn.CrossEntropyLoss(reduction="none")
    report = preflight(_mlp(), (torch.randn(16, 10), torch.arange(16) % 4), loss_fn)
    [finding] = report.findings
    assert finding.check == "grad.backward" and finding.entry == "grad-non-scalar"


# gradients ---------------------------------------------------------------------------------


class _Unused(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.used = nn.Linear(10, 4)
        self.unused = nn.Linear(10, 4)  # defined, never called

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.used(x)


def test_parameter_without_gradient() -> None:
    report = preflight(
        _Unused(), (torch.randn(16, 10), torch.arange(16) % 4), nn.CrossEntropyLoss()
    )
    [finding] = [f for f in report.findings if f.check == "grad.none"]
    assert finding.values["params"] == "unused.weight, unused.bias"


def test_frozen_parameters_are_reported_as_information() -> None:
    model = _mlp()
    model[0].requires_grad_(False)
    report = preflight(model, (torch.randn(16, 10), torch.arange(16) % 4), nn.CrossEntropyLoss())
    [finding] = report.findings
    assert finding.check == "grad.frozen" and finding.severity == "info" and report.ok


def test_frozen_parameters_left_out_of_the_optimizer_are_deliberate() -> None:
    model = _mlp()
    model[0].requires_grad_(False)
    batch = (torch.randn(16, 10), torch.arange(16) % 4)
    trainable = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
    assert preflight(model, batch, nn.CrossEntropyLoss(), trainable).findings == []
    everything = torch.optim.SGD(model.parameters(), lr=0.1)  # holds the frozen ones too
    checks = [f.check for f in preflight(model, batch, nn.CrossEntropyLoss(), everything).findings]
    assert checks == ["grad.frozen"]


def test_a_warm_up_from_lr_zero_is_judged_at_the_rate_it_warms_up_to() -> None:
    model = _mlp()
    batch = (torch.randn(16, 10), torch.arange(16) % 4)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    warmup = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, s / 10))
    assert optimizer.param_groups[0]["lr"] == 0  # what the scheduler set for its first step
    assert preflight(model, batch, nn.CrossEntropyLoss(), optimizer).findings == []
    assert optimizer.param_groups[0]["lr"] == 0 and warmup.last_epoch == 0
    stuck = torch.optim.AdamW(model.parameters(), lr=0.0)  # lr 0 with no schedule: never moves
    checks = [f.check for f in preflight(model, batch, nn.CrossEntropyLoss(), stuck).findings]
    assert checks == ["optim.lr", "optim.step"]


def test_everything_frozen_fails_backward_with_its_entry() -> None:
    model = _mlp().requires_grad_(False)
    report = preflight(model, (torch.randn(16, 10), torch.arange(16) % 4), nn.CrossEntropyLoss())
    [finding] = report.findings
    assert finding.check == "grad.backward" and finding.entry == "no-grad-fn"
    assert "does not require grad" in finding.message("zh")


def test_nan_and_zero_gradients() -> None:
    class Sqrt(nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.where(x > 0, x.sqrt(), torch.zeros_like(x))  # nan * 0 in backward

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 8), Sqrt(), nn.Linear(8, 4))
    report = preflight(model, (torch.randn(16, 10), torch.arange(16) % 4), nn.CrossEntropyLoss())
    assert "grad.nonfinite" in _checks(report)

    dead = _mlp()
    with torch.no_grad():
        dead[0].bias.fill_(-100.0)  # every ReLU is dead
    report = preflight(dead, (torch.randn(16, 10), torch.arange(16) % 4), nn.CrossEntropyLoss())
    [finding] = [f for f in report.findings if f.check == "grad.zero"]
    assert finding.values["params"] == "0.weight, 0.bias, 2.weight"


def test_large_gradient() -> None:
    x = torch.randn(16, 10) * 1e4
    report = preflight(_mlp(), (x, torch.arange(16) % 4), nn.CrossEntropyLoss())
    assert "grad.large" in _checks(report)


# optimizer ---------------------------------------------------------------------------------


def test_parameters_missing_from_the_optimizer() -> None:
    model = _mlp()
    opt = torch.optim.SGD(model[0].parameters(), lr=0.1)  # the head is never trained
    report = preflight(model, _data(), nn.CrossEntropyLoss(), opt)
    [finding] = [f for f in report.findings if f.check == "optim.missing"]
    assert finding.values["params"] == "2.weight, 2.bias"


@pytest.mark.parametrize(
    ("make", "how", "entry"),
    [
        (lambda p: torch.optim.Adam(p, lr=0.5), "too high", "nan-loss"),
        (lambda p: torch.optim.SGD(p, lr=1e-8), "too low", "loss-not-decreasing"),
    ],
)
def test_learning_rate_for_its_optimizer(make: object, how: str, entry: str) -> None:
    model = _mlp()
    report = preflight(model, _data(), nn.CrossEntropyLoss(), make(model.parameters()))  # type: ignore[operator]
    [finding] = [f for f in report.findings if f.check == "optim.lr"]
    assert finding.values["how"]["en"] == how and finding.entry == entry


def test_step_that_changes_nothing() -> None:
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    report = preflight(model, _data(), nn.CrossEntropyLoss(), opt)
    assert {"optim.step", "optim.lr"} <= _checks(report)


# optional checks ---------------------------------------------------------------------------


def test_cannot_overfit_one_batch() -> None:
    model = _mlp()
    # every single check passes, yet weight decay this strong pins the weights at zero
    opt = torch.optim.SGD(model.parameters(), lr=0.1, weight_decay=50.0)
    report = preflight(model, _data(), nn.CrossEntropyLoss(), opt, overfit_steps=15)
    [finding] = report.findings
    assert finding.check == "overfit" and finding.entry == "loss-not-decreasing"
    first, last = report.stats["overfit_losses"]
    assert last > 0.9 * first


class _Clock:
    """preflight's clock, advanced only by what the test says takes time: the comparison of data
    and compute time is checked without timing anything real, so a busy machine cannot flip it."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


class _SlowDataset(Dataset):  # type: ignore[type-arg]
    def __init__(self, clock: _Clock, seconds: float) -> None:
        self.clock, self.seconds = clock, seconds

    def __len__(self) -> int:
        return 64

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        self.clock.now += self.seconds  # decoding an image from disk
        return torch.randn(10), i % 4


def _test_clock(monkeypatch: pytest.MonkeyPatch, loss_seconds: float = 0.0) -> _Clock:
    """preflight's clock, replaced by one the test advances; each loss computed takes
    loss_seconds on it."""
    from diagnoser.runtime import batches
    from diagnoser.runtime import preflight as preflight_module

    clock = _Clock()
    for module in (batches, preflight_module):
        monkeypatch.setattr(module, "time", clock)
    if loss_seconds:
        real_loss = preflight_module._Run._loss

        def slow_loss(self: object, batch: object) -> torch.Tensor:
            clock.now += loss_seconds
            return real_loss(self, batch)  # type: ignore[arg-type]

        monkeypatch.setattr(preflight_module._Run, "_loss", slow_loss)
    return clock


@pytest.mark.parametrize(("per_sample", "slow"), [(0.01, True), (0.0, False)])
def test_data_loading_slower_than_compute(
    per_sample: float, slow: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _test_clock(monkeypatch, loss_seconds=0.0 if slow else 1.0)
    loader = DataLoader(_SlowDataset(clock, per_sample), batch_size=8)
    report = preflight(_mlp(), loader, nn.CrossEntropyLoss(), timing=True)
    assert "timing" in report.ran
    if not slow:
        assert report.findings == []
        return
    [finding] = report.findings
    assert finding.check == "timing" and finding.entry == "slow-training-dataloader"
    assert "num_workers=" in finding.message("en")
    assert report.stats["data_seconds"] == pytest.approx(0.08)
    assert report.stats["compute_seconds"] == 0.0


@pytest.mark.skipif(not torch.cuda.is_available(), reason="peak GPU memory needs a GPU")
def test_peak_gpu_memory_of_one_step() -> None:
    model = _mlp().cuda()
    report = preflight(model, _data(), nn.CrossEntropyLoss(), memory=True)
    assert "memory" in report.ran and report.stats["peak_memory_mb"] > 0
    assert report.findings == []  # a tiny model leaves the GPU almost empty


def test_model_returning_a_tuple_gets_its_output_to_the_loss_as_returned() -> None:
    class TwoHeads(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = _mlp()

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            out = self.net(x)
            return out, out.detach()

    def loss_fn(output: tuple[torch.Tensor, torch.Tensor], y: torch.Tensor) -> torch.Tensor:
        return nn.functional.cross_entropy(output[0], y)

    report = preflight(TwoHeads(), _data(), loss_fn)
    assert report.findings == [] and "grad.none" in report.ran


# state, output, input ----------------------------------------------------------------------


def test_nothing_is_left_changed() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 16), nn.BatchNorm1d(16), nn.Dropout(0.5), nn.Linear(16, 4))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    nn.functional.cross_entropy(model(torch.randn(8, 10)), torch.arange(8) % 4).backward()
    opt.step()  # the optimizer has state, the parameters have gradients
    model.eval()
    model[2].train()  # a mixed state, to see each module's own flag restored
    numpy = pytest.importorskip("numpy")
    before = {
        "params": {k: v.clone() for k, v in model.state_dict().items()},
        "grads": {n: p.grad.clone() for n, p in model.named_parameters()},
        "modes": [m.training for m in model.modules()],
        "opt": json.dumps(opt.state_dict()["param_groups"]),
        "exp_avg": [opt.state[p]["exp_avg"].clone() for p in model.parameters()],
        "torch": torch.get_rng_state(),
        "python": random.getstate(),
        "numpy": numpy.random.get_state()[1].copy(),
    }
    preflight(model, _data(), nn.CrossEntropyLoss(), opt, overfit_steps=5, timing=True)
    after = {k: v for k, v in model.state_dict().items()}
    assert all(torch.equal(before["params"][k], after[k]) for k in after)
    assert all(torch.equal(before["grads"][n], p.grad) for n, p in model.named_parameters())
    assert [m.training for m in model.modules()] == before["modes"]
    assert json.dumps(opt.state_dict()["param_groups"]) == before["opt"]
    assert all(
        torch.equal(a, opt.state[p]["exp_avg"])
        for a, p in zip(before["exp_avg"], model.parameters(), strict=True)
    )
    assert torch.equal(torch.get_rng_state(), before["torch"])
    assert random.getstate() == before["python"]
    assert (numpy.random.get_state()[1] == before["numpy"]).all()


def test_dict_batches_go_to_the_model_as_keywords() -> None:
    class Classifier(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(50, 8)
            self.out = nn.Linear(8, 3)

        def forward(self, input_ids: torch.Tensor, mask: torch.Tensor) -> dict[str, torch.Tensor]:
            pooled = (self.embed(input_ids) * mask.unsqueeze(-1)).mean(1)
            return {"logits": self.out(pooled)}

    torch.manual_seed(0)
    batch = {
        "input_ids": torch.randint(0, 50, (12, 7)),
        "mask": torch.ones(12, 7),
        "labels": torch.arange(12) % 4,  # a fourth class the head does not have
    }

    def loss_fn(output: dict[str, torch.Tensor], labels: torch.Tensor) -> torch.Tensor:
        return nn.functional.cross_entropy(output["logits"], labels)

    report = preflight(Classifier(), batch, loss_fn)
    assert report.context["inputs['input_ids']"] == "tensor<(12, 7), int64, cpu>"
    assert report.findings and report.findings[0].check == "loss.compute"
    assert report.findings[0].entry == "target-out-of-bounds"


def test_report_json_and_text_in_both_languages() -> None:
    y = torch.arange(16) % 5
    report = preflight(_mlp(), (torch.randn(16, 10), y), nn.CrossEntropyLoss())
    data = json.loads(report.to_json())
    assert data["ok"] is False
    [finding] = data["findings"]
    assert finding["check"] == "data.target-range" and finding["entry"] == "target-out-of-bounds"
    assert "0 到 4" in finding["message"]["zh"]
    assert finding["url"].endswith("/entries/target-out-of-bounds/")
    assert "✗ data.target-range" in report.to_text("en")
    assert report.to_text("zh").startswith("训练前检查：1 个问题")


def test_bad_input_gets_a_clear_error() -> None:
    with pytest.raises(TypeError, match=r"torch\.nn\.Module"):
        preflight("model", [])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no batch"):
        preflight(_mlp(), DataLoader(TensorDataset(torch.randn(0, 10)), batch_size=4))
    with pytest.raises(TypeError, match="a batch must be"):
        preflight(_mlp(), [object()])
    with pytest.raises(ValueError, match="batches >= 1"):
        preflight(_mlp(), _data(), batches=0)


def test_every_check_points_at_an_entry_that_exists() -> None:
    ids = {e.id for e in load_index().entries}
    assert all(c.entry is None or c.entry in ids for c in CHECKS)
    assert len(BY_ID) == len(CHECKS)
    for check in CHECKS:
        for lang in ("en", "zh"):
            assert check.title[lang] and check.message[lang]


class _NoForward(nn.Module):
    """Layers and no forward: the loss is computed elsewhere (a Lightning training_step)."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.body = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
        self.head = nn.Linear(16, 4)


def test_a_module_without_forward_is_checked_through_compute_loss() -> None:
    model = _NoForward()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def loss_of(batch: object) -> torch.Tensor:
        x, y = batch  # type: ignore[misc]
        return nn.functional.cross_entropy(model.head(model.body(x)), y)

    report = preflight(model, _data(), optimizer=opt, compute_loss=loss_of)
    assert report.findings == [], report.to_text("en")
    assert "model.forward" not in report.ran
    assert {"loss.compute", "loss.nonfinite", "grad.backward", "grad.none"} <= set(report.ran)

    def calls_forward(batch: object) -> torch.Tensor:  # the missing forward is a real bug here
        x, y = batch  # type: ignore[misc]
        return nn.functional.cross_entropy(model(x), y)

    found = preflight(model, _data(), optimizer=opt, compute_loss=calls_forward).findings
    assert [(f.check, f.entry) for f in found] == [("loss.compute", "module-missing-forward")]
    # without compute_loss the forward is the model's only way in: still a finding
    found = preflight(model, _data(), nn.CrossEntropyLoss(), opt).findings
    assert [(f.check, f.entry) for f in found] == [("model.forward", "module-missing-forward")]


def test_a_report_has_a_short_repr_and_keeps_everything() -> None:
    model = nn.Sequential(nn.Linear(10, 4), nn.Softmax(dim=1))
    extra = nn.Linear(4, 4)  # trainable, never in the optimizer
    model.append(extra)
    opt = torch.optim.Adam(model[0].parameters(), lr=1e-2)
    report = preflight(model, _data(), nn.CrossEntropyLoss(), opt)
    checks = [f.check for f in report.findings]
    assert "optim.missing" in checks and len(report.ran) > 10
    text = repr(report)
    assert len(text) < 200, text
    assert text.startswith(f"Report(ok={report.ok}, {len(report.ran)} checks ran")
    assert all(check in text for check in checks[:5])
    assert report.to_text("en") in str(report) or str(report).startswith("Preflight")
