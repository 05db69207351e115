"""Train/eval mode checks: randomness at eval found by preflight (two eval forwards of one batch),
Dropout layers left in train mode under an eval-mode model found by watch."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
F = nn.functional

from diagnoser import preflight, watch  # noqa: E402


class _FunctionalDropout(nn.Module):
    def __init__(self, fixed: bool) -> None:
        super().__init__()
        self.hidden, self.out, self.fixed = nn.Linear(8, 16), nn.Linear(16, 3), fixed

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.hidden(x))
        h = F.dropout(h, 0.5, training=self.training) if self.fixed else F.dropout(h, 0.5)
        return self.out(h)


def _batch() -> tuple[torch.Tensor, torch.Tensor]:
    return torch.randn(16, 8), torch.arange(16) % 3


@pytest.mark.parametrize("fixed", [False, True])
def test_preflight_finds_dropout_at_eval(fixed: bool) -> None:
    torch.manual_seed(0)
    model = _FunctionalDropout(fixed)
    report = preflight(model, _batch(), nn.CrossEntropyLoss())
    found = [f for f in report.findings if f.check == "model.eval-random"]
    assert "model.eval-random" in report.ran
    if fixed:
        assert not found
    else:
        [finding] = found
        assert finding.entry == "dropout-active-at-eval"
        assert finding.values["module"] == "out (Linear)"


def test_preflight_with_dropout_layers_and_batchnorm_is_silent() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.Dropout(0.3), nn.Linear(16, 3))
    report = preflight(model, _batch(), nn.CrossEntropyLoss())
    assert "model.eval-random" not in {f.check for f in report.findings}


def test_watch_finds_a_dropout_left_training_under_eval() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.5)), nn.ReLU(), nn.Linear(16, 3)
    )
    with watch(model, on_finding="quiet") as w:
        model.train()
        model(torch.randn(4, 8)).sum().backward()
        model.eval()
        model[0].train()  # an evaluation helper that switched only a part back
        with torch.no_grad():
            model(torch.randn(4, 8))
    [finding] = w.findings
    assert finding.check == "watch.eval-dropout" and finding.entry == "dropout-active-at-eval"
    assert finding.values["layers"] == "0.1"


def test_watch_eval_with_everything_in_eval_is_silent() -> None:
    model = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.5), nn.Linear(16, 3))
    with watch(model, on_finding="quiet") as w:
        for _ in range(3):
            model.train()
            model(torch.randn(4, 8)).sum().backward()
            model.eval()
            with torch.no_grad():
                model(torch.randn(4, 8))
    assert w.findings == []
