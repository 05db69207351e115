"""The runtime tools on karpathy/nanoGPT's own model.py (tests/data/nanogpt, vendored as written),
at a small config: trace, watch(stats=True, export=...), preflight, overfit_one_batch and lr_find
run on it, leave no hook behind, and do not change its next training steps (issue 26)."""

from __future__ import annotations

import io
import random
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")
nn = torch.nn

import diagnoser  # noqa: E402
from tests.data.nanogpt.model import GPT, GPTConfig  # noqa: E402

_CONFIG = {"n_layer": 2, "n_head": 2, "n_embd": 64, "block_size": 32, "vocab_size": 65}


def _model_and_optimizer() -> tuple[GPT, torch.optim.Optimizer]:
    torch.manual_seed(0)
    with redirect_stdout(io.StringIO()):  # nanoGPT prints its parameter count and optimizer
        model = GPT(GPTConfig(dropout=0.1, **_CONFIG))  # dropout: the steps draw random numbers
        opt = model.configure_optimizers(0.1, 1e-3, (0.9, 0.95), "cpu")
    return model, opt


def _batches(n: int = 4) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """Batches as nanoGPT's train.py get_batch makes them, from random text over
    shakespeare_char's 65 symbols."""
    g = torch.Generator().manual_seed(1)
    data = torch.randint(0, 65, (2000,), generator=g)
    out = []
    for _ in range(n):
        ix = torch.randint(len(data) - 32, (4,), generator=g)
        x = torch.stack([data[i : i + 32] for i in ix])
        y = torch.stack([data[i + 1 : i + 1 + 32] for i in ix])
        out.append((x, y))
    return out


def _loss(model: GPT) -> Any:
    return lambda batch: model(batch[0], batch[1])[1]


def _train(model: GPT, opt: torch.optim.Optimizer, w: Any = None) -> None:
    """Three steps of nanoGPT's train.py loop (clip at 1.0, zero_grad(set_to_none=True))."""
    model.train()
    for x, y in _batches(3):
        _, loss = model(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        if w is not None:
            w.step(loss)


def _hooks(model: nn.Module, opt: torch.optim.Optimizer) -> int:
    """Every hook a tool could leave: on modules, parameters, the optimizer, and global ones."""
    from torch.nn.modules import module as nn_module
    from torch.optim import optimizer as optim_module

    per_module = sum(
        len(m._forward_hooks)
        + len(m._forward_pre_hooks)
        + len(m._backward_hooks)
        + len(m._backward_pre_hooks)
        + len(m._state_dict_hooks)
        for m in model.modules()
    )
    per_param = sum(len(p._backward_hooks or {}) for p in model.parameters())
    per_opt = len(opt._optimizer_step_pre_hooks) + len(opt._optimizer_step_post_hooks)
    global_ = (
        len(nn_module._global_forward_hooks)
        + len(nn_module._global_forward_pre_hooks)
        + len(nn_module._global_backward_hooks)
        + len(optim_module._global_optimizer_pre_hooks)
        + len(optim_module._global_optimizer_post_hooks)
    )
    return per_module + per_param + per_opt + global_


def _rng() -> tuple[Any, ...]:
    return (torch.random.get_rng_state(), random.getstate(), np.random.get_state()[1].copy())


def _same_rng(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return torch.equal(a[0], b[0]) and a[1] == b[1] and bool((a[2] == b[2]).all())


def test_the_tools_run_on_nanogpt_and_leave_its_next_steps_unchanged(tmp_path: Path) -> None:
    random.seed(3)
    np.random.seed(3)
    model, opt = _model_and_optimizer()
    _train(model, opt)
    without = [p.detach().clone() for p in model.parameters()]
    rng_without = _rng()

    random.seed(3)
    np.random.seed(3)
    model, opt = _model_and_optimizer()
    hooks = _hooks(model, opt)
    batch = _batches(1)[0]

    t = diagnoser.trace(model, batch, file=None)
    assert t.rows[-1].name == "(output)" and t.rows[-1].shapes == ((4, 32, 65), ())
    assert {"transformer.h.1", "transformer.h.1.attn"} <= {r.name for r in t.rows}
    report = diagnoser.preflight(
        model, _batches(), optimizer=opt, compute_loss=_loss(model), overfit_steps=5
    )
    assert "parameters" in report.context
    fit = diagnoser.overfit_one_batch
    losses = fit(model, batch, None, opt, steps=20, compute_loss=_loss(model))
    assert losses.fell, losses
    found = diagnoser.lr_find(model, _batches(), None, opt, steps=15, compute_loss=_loss(model))
    assert len(found.lrs) >= 3
    assert _hooks(model, opt) == hooks

    with diagnoser.watch(model, stats=True, export=tmp_path, every=1, on_finding="quiet") as w:
        assert _hooks(model, opt) > hooks  # attached while the loop runs
        _train(model, opt, w)
    assert _hooks(model, opt) == hooks
    assert w.step_count == 3 and w.layer_stats is not None
    assert any(r.name == "transformer.h.0.mlp.c_fc" for r in w.layer_stats.rows)
    assert any(tmp_path.iterdir())  # the export was written

    with_tools = [p.detach().clone() for p in model.parameters()]
    assert all(torch.equal(a, b) for a, b in zip(without, with_tools, strict=True))
    assert _same_rng(rng_without, _rng())
