"""preflight's defects found side by side with the founding guides (issue 26 item 5): each test
here failed before its fix. Real torch, tiny models; the timing one runs on a test clock."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

from diagnoser import preflight  # noqa: E402
from diagnoser.runtime.helpers import lr_find  # noqa: E402


def _mlp(features: int = 10, classes: int = 4, seed: int = 0) -> nn.Module:
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(features, 16), nn.ReLU(), nn.Linear(16, classes))


def _checks(report: object) -> set[str]:
    return {f.check for f in report.findings}  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(20))
def test_nll_on_raw_logits_is_caught_whatever_the_sign_of_the_first_loss(seed: int) -> None:
    # Before: only "loss.negative" caught it, on 9 of these 20 seeds.
    g = torch.Generator().manual_seed(seed)
    batch = (torch.randn(16, 10, generator=g), torch.arange(16) % 4)
    report = preflight(_mlp(seed=seed), batch, nn.NLLLoss())
    found = {f.check: f for f in report.findings}
    assert "model.log-probabilities" in found, report.to_text("en")
    assert found["model.log-probabilities"].entry == "loss-negative"


def test_nll_on_log_softmax_is_silent() -> None:
    model = nn.Sequential(_mlp(), nn.LogSoftmax(dim=1))
    report = preflight(model, (torch.randn(16, 10), torch.arange(16) % 4), nn.NLLLoss())
    assert report.findings == [], report.to_text("en")
    assert "model.log-probabilities" in report.ran


def test_cross_entropy_on_one_output_is_reported_as_that_not_as_dead_relus() -> None:
    # CrossEntropyLoss over one class is log_softmax of one value: always 0, no gradient at all.
    data = (torch.randn(16, 10), torch.zeros(16, dtype=torch.long))
    report = preflight(_mlp(classes=1), data, nn.CrossEntropyLoss())
    checks = _checks(report)
    assert "model.one-output" in checks, report.to_text("en")
    assert "grad.zero" not in checks
    [finding] = [f for f in report.findings if f.check == "model.one-output"]
    assert finding.entry == "loss-all-zero"


def test_the_rate_lr_find_suggests_is_not_then_called_too_high() -> None:
    torch.manual_seed(0)
    x = torch.randn(256, 10)
    y = (x[:, 0] > 0).long() + 2 * (x[:, 1] > 0).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = _mlp()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    found = lr_find(model, loader, nn.CrossEntropyLoss(), opt, steps=60)
    assert found.suggestion is not None
    for group in opt.param_groups:
        group["lr"] = found.suggestion
    report = preflight(model, loader, nn.CrossEntropyLoss(), opt)
    assert "optim.lr" in report.ran
    too_high = [
        f for f in report.findings if f.check == "optim.lr" and f.values["how"]["en"] == "too high"
    ]
    assert too_high == [], (found.suggestion, report.to_text("en"))


def test_a_rate_that_diverges_is_still_too_high() -> None:
    model = _mlp()
    data = DataLoader(TensorDataset(torch.randn(64, 10), torch.arange(64) % 4), batch_size=16)
    report = preflight(
        model, data, nn.CrossEntropyLoss(), torch.optim.Adam(model.parameters(), lr=5.0)
    )
    [finding] = [f for f in report.findings if f.check == "optim.lr"]
    assert finding.values["how"]["en"] == "too high" and finding.entry == "nan-loss"


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


def test_a_fast_in_memory_loader_is_not_told_to_use_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Loading takes 0.2 ms a batch, a tiny model's step 0.1 ms: a worker process hands each batch
    # over through a queue and shared memory, which costs more than that (46x slower, issue 26).
    from diagnoser.runtime import batches
    from diagnoser.runtime import preflight as preflight_module

    clock = _Clock()
    for module in (batches, preflight_module):
        monkeypatch.setattr(module, "time", clock)
    real_next = DataLoader.__iter__

    def timed_iter(self: DataLoader) -> object:  # type: ignore[type-arg]
        for b in real_next(self):
            clock.now += 2e-4
            yield b

    monkeypatch.setattr(DataLoader, "__iter__", timed_iter)
    real_loss = preflight_module._Run._loss

    def loss(self: object, batch: object) -> torch.Tensor:
        clock.now += 1e-4
        return real_loss(self, batch)  # type: ignore[arg-type]

    monkeypatch.setattr(preflight_module._Run, "_loss", loss)
    loader = DataLoader(TensorDataset(torch.randn(256, 10), torch.arange(256) % 4), batch_size=32)
    report = preflight(_mlp(), loader, nn.CrossEntropyLoss(), timing=True)
    assert "timing" in report.ran
    assert report.stats["data_seconds"] > report.stats["compute_seconds"]
    assert "timing" not in _checks(report), report.to_text("en")


def test_a_dataset_with_95_percent_of_one_label_is_reported() -> None:
    torch.manual_seed(0)
    y = torch.zeros(1000, dtype=torch.long)
    y[torch.randperm(1000)[:50]] = torch.randint(1, 4, (50,))
    loader = DataLoader(TensorDataset(torch.randn(1000, 10), y), batch_size=32, shuffle=True)
    report = preflight(_mlp(), loader, nn.CrossEntropyLoss())
    [finding] = [f for f in report.findings if f.check == "data.imbalance"]
    assert finding.values["value"] == "0"
    assert finding.message("zh")


def test_balanced_labels_are_silent() -> None:
    loader = DataLoader(
        TensorDataset(torch.randn(1000, 10), torch.arange(1000) % 4), batch_size=32, shuffle=True
    )
    report = preflight(_mlp(), loader, nn.CrossEntropyLoss())
    assert report.findings == [] and "data.imbalance" in report.ran


def test_parameter_count_is_in_the_report() -> None:
    model = _mlp()
    model[0].weight.requires_grad_(False)
    report = preflight(model, (torch.randn(16, 10), torch.arange(16) % 4), nn.CrossEntropyLoss())
    assert report.context["parameters"] == "244 (84 trainable, 160 frozen)"


def test_the_users_own_device_placement_is_checked_not_redone() -> None:
    # "meta" is a second device a CPU-only machine has: the user's code puts the inputs there,
    # not on the model's device; preflight used to move them to the model's device itself.
    loader = DataLoader(TensorDataset(torch.randn(64, 10), torch.arange(64) % 4), batch_size=16)
    to_meta = lambda b: (b[0].to("meta"), b[1])  # noqa: E731
    report = preflight(_mlp(), loader, nn.CrossEntropyLoss(), move=to_meta)
    [finding] = report.findings
    assert finding.check == "data.device" and finding.entry == "device-mismatch"
    assert finding.values["device"] == "meta" and finding.values["model"] == "cpu"
    assert "model.forward" not in report.ran  # it would only fail on the same mistake


@pytest.mark.skipif(not torch.cuda.is_available(), reason="a model on a GPU needs a GPU")
def test_a_loop_that_forgets_to_move_the_inputs_to_the_gpu() -> None:
    model = _mlp().cuda()
    loader = DataLoader(TensorDataset(torch.randn(64, 10), torch.arange(64) % 4), batch_size=16)
    report = preflight(model, loader, nn.CrossEntropyLoss(), move=lambda b: (b[0], b[1].cuda()))
    [finding] = report.findings
    assert finding.check == "data.device" and finding.values["device"] == "cpu"
    assert preflight(model, loader, nn.CrossEntropyLoss(), move=lambda b: [t.cuda() for t in b]).ok


def test_batches_placed_by_the_users_code_on_the_models_device_pass() -> None:
    loader = DataLoader(TensorDataset(torch.randn(64, 10), torch.arange(64) % 4), batch_size=16)
    seen: list[object] = []

    def move(batch: list[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        seen.append(batch)
        return batch[0].to("cpu"), batch[1].to("cpu")

    report = preflight(_mlp(), loader, nn.CrossEntropyLoss(), move=move)
    assert report.findings == [] and "data.device" in report.ran
    assert len(seen) == 4  # every batch read went through the user's own code
