"""preflight reads the ids entering each nn.Embedding/EmbeddingBag and stops the forward before an
out-of-range lookup (on the GPU a device-side assert that ends the process), naming the table."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

from diagnoser import preflight  # noqa: E402


class _Tagger(nn.Module):
    """Token ids in, one class per sequence out; positions from a table of its own."""

    def __init__(self, vocab: int, positions: int = 16) -> None:
        super().__init__()
        self.tokens = nn.Embedding(vocab, 8, padding_idx=0)
        self.positions = nn.Embedding(positions, 8)
        self.head = nn.Linear(8, 3)
        self.lookups: list[int] = []  # a list: preflight puts plain attributes back
        self.tokens.register_forward_hook(lambda *_: self.lookups.append(1))

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        where = torch.arange(ids.shape[1], device=ids.device)
        return self.head((self.tokens(ids) + self.positions(where)).mean(1))


def _batch(high: int, length: int = 12) -> tuple[torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    return torch.randint(0, high, (16, length)), torch.arange(16) % 3


def _found(report: object, check: str) -> list:
    return [f for f in report.findings if f.check == check]  # type: ignore[attr-defined]


def test_torch_raises_on_the_cpu_for_an_id_past_the_table() -> None:
    """What preflight forestalls: the lookup itself fails (on the GPU, a device-side assert)."""
    model = _Tagger(vocab=100)
    ids, _ = _batch(high=120)
    with pytest.raises(IndexError, match="index out of range in self"):
        model(ids)


def test_an_id_past_the_vocabulary_is_named_before_the_lookup() -> None:
    model = _Tagger(vocab=100)
    ids, labels = _batch(high=120)
    report = preflight(model, (ids, labels), nn.CrossEntropyLoss())
    [finding] = _found(report, "data.token-range")
    assert finding.entry == "embedding-index-out-of-range"
    assert finding.values["layer"] == "tokens (Embedding)"
    assert finding.values["num"] == 100
    assert finding.values["max"] == int(ids.max())
    assert not _found(report, "model.forward")  # stopped by the check, not by torch's IndexError
    assert "num_embeddings=100" in finding.message("en")
    assert "num_embeddings=100" in finding.message("zh")
    assert not model.tokens._forward_pre_hooks  # the check's hooks are gone


def test_negative_ids_are_named() -> None:
    model = _Tagger(vocab=100)
    ids, labels = _batch(high=50)
    ids[3, 4] = -1
    report = preflight(model, (ids, labels), nn.CrossEntropyLoss())
    [finding] = _found(report, "data.token-range")
    assert finding.values["min"] == -1


def test_a_sequence_longer_than_the_position_table_is_named() -> None:
    model = _Tagger(vocab=100, positions=8)
    report = preflight(model, _batch(high=100, length=12), nn.CrossEntropyLoss())
    [finding] = _found(report, "data.token-range")
    assert finding.values["layer"] == "positions (Embedding)"
    assert finding.values["max"] == 11 and finding.values["num"] == 8


def test_an_embedding_bag_is_checked() -> None:
    model = nn.Sequential(nn.EmbeddingBag(50, 8, mode="mean"), nn.Linear(8, 2))
    ids = torch.randint(0, 60, (16, 5))
    ids[0, 0] = 55
    report = preflight(model, (ids, torch.arange(16) % 2), nn.CrossEntropyLoss())
    [finding] = _found(report, "data.token-range")
    assert finding.values["layer"] == "0 (EmbeddingBag)"


def test_ids_that_fit_are_quiet_and_training_is_checked() -> None:
    model = _Tagger(vocab=100)
    ids, labels = _batch(high=100)
    ids[:, -2:] = 0  # padding at padding_idx
    report = preflight(model, (ids, labels), nn.CrossEntropyLoss())
    assert "data.token-range" in report.ran
    assert not _found(report, "data.token-range")
    assert "grad.backward" in report.ran  # the rest of preflight went on
    assert model.lookups


def test_a_model_without_embeddings_does_not_run_the_check() -> None:
    model = nn.Linear(4, 3)
    report = preflight(model, (torch.randn(8, 4), torch.arange(8) % 3), nn.CrossEntropyLoss())
    assert "data.token-range" not in report.ran


@pytest.mark.skipif(not torch.cuda.is_available(), reason="the device-side assert needs a GPU")
def test_on_the_gpu_the_process_survives_to_say_it() -> None:
    """On CUDA the lookup would be a device-side assert, after which no CUDA call works: the
    check stops the forward first, so preflight reports and the GPU is still usable."""
    model = _Tagger(vocab=100).cuda()
    ids, labels = _batch(high=120)
    report = preflight(model, (ids.cuda(), labels.cuda()), nn.CrossEntropyLoss())
    [finding] = _found(report, "data.token-range")
    assert finding.values["num"] == 100
    assert torch.ones(4, device="cuda").sum().item() == 4.0
