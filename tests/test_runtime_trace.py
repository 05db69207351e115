"""trace: a row per layer of real models (nanoGPT, a timm-style CNN, a Hugging Face-style model
returning a dict), read as data; the model, its mode, its buffers and the random state are as
before, and no hook stays behind."""

from __future__ import annotations

import io
import math
from collections import OrderedDict

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

from diagnoser import trace  # noqa: E402
from tests.data.nanogpt.model import GPT, GPTConfig  # noqa: E402


def _gpt() -> GPT:
    torch.manual_seed(0)
    return GPT(GPTConfig(block_size=16, vocab_size=50, n_layer=2, n_head=2, n_embd=16, dropout=0.1))


def _hooks(model: nn.Module) -> int:
    return sum(
        len(m._forward_hooks) + len(m._forward_pre_hooks) + len(m._backward_hooks)
        for m in model.modules()
    )


def test_nanogpt_rows_shapes_and_tied_weights() -> None:
    model = _gpt()
    idx = torch.randint(0, 50, (2, 8))
    t = trace(model, (idx, idx), file=None)
    rows = {r.name: r for r in t.rows}
    assert rows["transformer.wte"].shapes == ((2, 8, 16),)
    assert rows["transformer.h.1.attn.c_attn"].shapes == ((2, 8, 48),)
    assert rows["transformer.h.0.mlp.gelu"].params == 0
    # the tied embedding is counted once, where it is first registered
    assert rows["transformer.wte"].params == 50 * 16
    assert rows["lm_head"].params == 0 and rows["lm_head"].tied_to == "transformer.wte"
    assert t.total_params == sum(p.numel() for p in model.parameters())
    # the model's output: (logits, loss), both shown; the last row
    out = t.rows[-1]
    assert out.name == "(output)" and out.shapes == ((2, 8, 50), ())
    with torch.no_grad():
        logits, _ = model(idx, idx)  # the same dropout masks: trace put the random state back
    assert out.stats is not None
    assert math.isclose(out.stats.max, float(logits.max()), rel_tol=1e-5)


def test_model_rng_buffers_and_hooks_unchanged() -> None:
    model = _gpt()
    model.train()
    idx = torch.randint(0, 50, (2, 8))
    before = {k: v.clone() for k, v in model.state_dict().items()}
    hooks = _hooks(model)
    rng = torch.random.get_rng_state()
    trace(model, idx, file=None)
    assert model.training
    assert torch.equal(torch.random.get_rng_state(), rng)  # dropout drew, then put back
    assert _hooks(model) == hooks
    for k, v in model.state_dict().items():
        assert torch.equal(v, before[k]), k
    assert all(p.grad is None for p in model.parameters())


class _ConvBnAct(nn.Module):
    def __init__(self, cin: int, cout: int) -> None:
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(self.bn(self.conv(x)))


class _TimmStyle(nn.Module):
    """timm's layout: stem, stages, forward_features / forward_head."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = _ConvBnAct(3, 8)
        self.stages = nn.Sequential(_ConvBnAct(8, 8), _ConvBnAct(8, 16))
        self.global_pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(16, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stages(self.stem(x))
        return self.head(self.global_pool(x).flatten(1))


def test_cnn_in_train_mode_keeps_batchnorm_statistics() -> None:
    torch.manual_seed(0)
    model = _TimmStyle().train()
    running = model.stem.bn.running_mean.clone()
    t = trace(model, torch.randn(4, 3, 8, 8), file=None)
    assert torch.equal(model.stem.bn.running_mean, running)
    assert int(model.stem.bn.num_batches_tracked) == 0
    relu = next(r for r in t.rows if r.name == "stem.act")
    assert relu.stats is not None and relu.stats.min == 0.0 and 0 < relu.stats.zeros < 1
    assert relu.shapes == ((4, 8, 8, 8),)
    assert t.rows[-1].shapes == ((4, 10),)


class _HFStyle(nn.Module):
    """A Hugging Face-style model: keyword inputs, a dict (ModelOutput is an OrderedDict)."""

    def __init__(self) -> None:
        super().__init__()
        self.embeddings = nn.Embedding(30, 8)
        self.layers = nn.ModuleDict({"query": nn.Linear(8, 8), "out": nn.Linear(8, 3)})

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> OrderedDict:
        h = self.embeddings(input_ids) * attention_mask[..., None]
        logits = self.layers["out"](self.layers["query"](h)).mean(1)
        return OrderedDict(logits=logits, hidden_states=(h,))


def test_hf_style_dict_batch_and_output() -> None:
    model = _HFStyle().eval()
    batch = {"input_ids": torch.randint(0, 30, (2, 5)), "attention_mask": torch.ones(2, 5)}
    t = trace(model, batch, file=None)
    assert [r.name for r in t.rows] == ["embeddings", "layers.query", "layers.out", "(output)"]
    assert t.rows[-1].shapes == ((2, 3), (2, 5, 8))
    assert not model.training


def test_first_nonfinite_layer_is_marked() -> None:
    model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 4), nn.ReLU())
    with torch.no_grad():
        model[1].weight[0, 0] = float("nan")
    t = trace(model, torch.ones(2, 4), file=None)
    bad = t.first_nonfinite()
    assert bad is not None and bad.name == "1"
    assert bad.stats is not None and bad.stats.nonfinite == 2
    assert math.isfinite(bad.stats.mean)  # the statistics of the finite elements


def test_printed_table_in_both_languages() -> None:
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU())
    out = io.StringIO()
    t = trace(model, torch.ones(2, 4), file=out, lang="en")
    lines = out.getvalue().splitlines()
    assert lines[0].split()[:3] == ["layer", "type", "output"]
    assert lines[1].split()[:3] == ["0", "Linear", "2×3"]
    assert "parameters: 15 (15 trainable)" in lines[-1]
    zh = t.table("zh").splitlines()
    assert zh[0].split()[:3] == ["层", "类型", "输出形状"]
    assert "参数量 15（可训练 15）" in zh[-1]
    # aligned: the dtype column starts at the same column on every row
    assert (
        len({line.index("dtype" if i == 0 else "float32") for i, line in enumerate(lines[:-1])})
        == 1
    )


def test_a_failing_forward_removes_its_hooks() -> None:
    model = nn.Sequential(nn.Linear(4, 3), nn.Linear(5, 2))
    with pytest.raises(RuntimeError, match="shapes cannot be multiplied"):
        trace(model, torch.ones(2, 4), file=None)
    assert _hooks(model) == 0
