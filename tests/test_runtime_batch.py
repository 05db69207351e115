"""model.batch-collapsed: preflight reports an output that lost the batch dimension (one sample
for a batch of many, which MSE-style losses broadcast against every target) and stays quiet on
correct models of several shapes."""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

from diagnoser import preflight  # noqa: E402


def _collapsed(report: object) -> list[object]:
    return [f for f in report.findings if f.check == "model.batch-collapsed"]  # type: ignore[attr-defined]


class _PoolOverBatch(nn.Module):
    """Global average pooling that also averages dim 0, the batch."""

    def __init__(self, dims: tuple[int, ...]) -> None:
        super().__init__()
        self.dims = dims
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.head = nn.Linear(4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.conv(x).mean(dim=self.dims, keepdim=True)
        return self.head(h.flatten(1))


def _images(n: int = 16) -> DataLoader:
    g = torch.Generator().manual_seed(0)
    x = torch.rand(n, 1, 8, 8, generator=g)
    return DataLoader(TensorDataset(x, x.mean(dim=(1, 2, 3)).unsqueeze(1)), batch_size=8)


def test_pooling_over_the_batch_is_reported_and_torch_only_warns() -> None:
    torch.manual_seed(0)
    model = _PoolOverBatch((0, 2, 3))
    x, y = next(iter(_images()))
    with warnings.catch_warnings(record=True) as caught:  # torch's own reaction: a warning
        warnings.simplefilter("always")
        nn.MSELoss()(model(x), y)
    assert any("different to the input size" in str(w.message) for w in caught)
    [finding] = _collapsed(preflight(model, _images(), nn.MSELoss()))
    assert finding.values == {"samples": 8, "output": "(1, 1)", "target": "(8, 1)"}  # type: ignore[attr-defined]
    assert finding.entry == "batch-collapsed"  # type: ignore[attr-defined]


def test_view_one_row_is_reported_with_l1() -> None:
    class Flat(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.head = nn.Linear(8 * 5, 3)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(x.view(1, -1))  # the whole batch as one row

    report = preflight(Flat(), (torch.randn(8, 5), torch.randn(8, 3)), nn.L1Loss())
    assert len(_collapsed(report)) == 1


def test_correct_pooling_is_quiet() -> None:
    torch.manual_seed(0)
    report = preflight(_PoolOverBatch((2, 3)), _images(), nn.MSELoss())
    assert "model.batch-collapsed" in report.ran
    assert _collapsed(report) == []


def test_cnn_with_batchnorm_float64_is_quiet() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(1, 4, 3),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(4, 2),
    ).double()
    x = torch.randn(8, 1, 8, 8, dtype=torch.float64)
    report = preflight(model, (x, torch.randn(8, 2, dtype=torch.float64)), nn.MSELoss())
    assert _collapsed(report) == []


def test_transformer_with_dropout_and_dict_batch_is_quiet() -> None:
    class Encoder(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(20, 16)
            layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.1, batch_first=True)
            self.encoder = nn.TransformerEncoder(layer, 1)
            self.head = nn.Linear(16, 1)

        def forward(self, ids: torch.Tensor) -> torch.Tensor:
            return self.head(self.encoder(self.embed(ids)).mean(dim=1))

    torch.manual_seed(0)
    batch = {"ids": torch.randint(0, 20, (6, 7)), "labels": torch.randn(6, 1)}
    report = preflight(Encoder(), batch, nn.MSELoss())
    assert "model.batch-collapsed" in report.ran
    assert _collapsed(report) == []


def test_model_without_parameters_is_quiet() -> None:
    report = preflight(nn.Tanh(), (torch.randn(8, 3), torch.randn(8, 3)), nn.MSELoss())
    assert _collapsed(report) == []


def test_a_batch_of_one_sample_is_quiet() -> None:
    report = preflight(nn.Linear(3, 1), (torch.randn(1, 3), torch.randn(1, 1)), nn.MSELoss())
    assert _collapsed(report) == []


def test_time_first_output_is_quiet() -> None:
    class Rnn(nn.Module):
        """(time, batch, features) in, one value per step and sample out: dim 0 is time."""

        def __init__(self) -> None:
            super().__init__()
            self.rnn = nn.GRU(3, 8)
            self.head = nn.Linear(8, 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.rnn(x)[0]).squeeze(-1)

    torch.manual_seed(0)
    x, y = torch.randn(5, 4, 3), torch.randn(5, 4)  # 5 steps, 4 samples
    report = preflight(Rnn(), (x, y), nn.MSELoss())
    assert _collapsed(report) == []


def test_one_row_that_broadcasts_along_another_dimension_is_quiet() -> None:
    """An output (1, 8) against a target (8,): broadcasting lines 8 up with 8, no harm here."""

    class Row(nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x.sum(dim=1).unsqueeze(0)

    report = preflight(Row(), (torch.randn(8, 3), torch.randn(8)), nn.MSELoss())
    assert _collapsed(report) == []
