"""Side by side with the founding guides' own tools (issue 26 Acceptance), on the same broken
set-ups: ours must catch at least what the guide's catches. The model is a tiny GPT written here
in the shape of nanoGPT's model.py (token and position embeddings, causal self-attention blocks,
a tied lm_head, forward(idx, targets) -> (logits, loss)); the tracer tests use nanoGPT's own
model.py (tests/data/nanogpt)."""

from __future__ import annotations

import io
import math
import random
import warnings
from contextlib import redirect_stdout
from typing import Any

import pytest

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")
nn = torch.nn
F = torch.nn.functional

from diagnoser import preflight  # noqa: E402
from diagnoser.runtime.helpers import set_seed  # noqa: E402

_VOCAB, _BLOCK, _EMBD = 32, 8, 16


class _Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(_EMBD), nn.LayerNorm(_EMBD)
        self.c_attn, self.c_proj = nn.Linear(_EMBD, 3 * _EMBD), nn.Linear(_EMBD, _EMBD)
        self.mlp = nn.Sequential(
            nn.Linear(_EMBD, 4 * _EMBD), nn.GELU(), nn.Linear(4 * _EMBD, _EMBD)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(c, dim=2)
        heads = [z.view(b, t, 2, c // 2).transpose(1, 2) for z in (q, k, v)]
        y = F.scaled_dot_product_attention(*heads, is_causal=True)
        x = x + self.c_proj(y.transpose(1, 2).reshape(b, t, c))
        return x + self.mlp(self.ln_2(x))


class _GPT(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.wte, self.wpe = nn.Embedding(_VOCAB, _EMBD), nn.Embedding(_BLOCK, _EMBD)
        self.h = nn.ModuleList([_Block(), _Block()])
        self.ln_f = nn.LayerNorm(_EMBD)
        self.lm_head = nn.Linear(_EMBD, _VOCAB, bias=False)
        self.wte.weight = self.lm_head.weight  # nanoGPT ties them

    def forward(self, idx: torch.Tensor, targets: torch.Tensor | None = None) -> Any:
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1], device=idx.device))
        for block in self.h:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        loss = None if targets is None else F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        return logits, loss


def _batches(n: int = 4) -> list[tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(1)
    data = torch.randint(0, _VOCAB, (n, 4, _BLOCK + 1), generator=g)
    return [(d[:, :-1], d[:, 1:]) for d in data]


def _compute_loss(model: nn.Module) -> Any:
    return lambda batch: model(batch[0], batch[1])[1]


def _train(model: nn.Module, steps: int) -> list[torch.Tensor]:
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for x, y in _batches(steps):
        _, loss = model(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return [p.detach().clone() for p in model.parameters()]


# The guide's set_seed: seed 000, 实践2 可复现性 (copied as written).
def _guide_set_seed(seed: int = 42) -> None:
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    np.random.seed(seed)
    random.seed(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


# The guide's gradient check: seed 003, DebugChecklist.check_gradients (loss from the model here,
# as nanoGPT computes it; the rest as written).
def _guide_check_gradients(model: nn.Module, batch: tuple[torch.Tensor, torch.Tensor]) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        model.train()
        model.zero_grad()
        model(*batch)[1].backward()
        for name, param in model.named_parameters():
            if param.grad is None:
                print(f"   ❌ {name}: No gradient")
            else:
                if torch.isnan(param.grad).any():
                    print(f"   ❌ {name}: NaN gradient")
                if param.grad.norm().item() == 0:
                    print(f"   ⚠️  {name}: Zero gradient")
    model.zero_grad()
    return out.getvalue()


def test_set_seed_repeats_a_run_as_the_guides_does() -> None:
    flags = (torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
    try:
        runs = {}
        for name, seed_fn in (("guide", _guide_set_seed), ("ours", set_seed)):
            seed_fn(0)
            first = _train(_GPT(), 3)
            guide_flags = (torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
            seed_fn(0)
            second = _train(_GPT(), 3)
            runs[name] = (
                all(torch.equal(a, b) for a, b in zip(first, second, strict=True)),
                guide_flags,
            )
        assert runs["guide"] == (True, (True, False))
        assert runs["ours"] == runs["guide"]
    finally:
        torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = flags


@pytest.mark.parametrize("broken", ["nan-weight", "detached-block"])
def test_gradient_problems_the_guides_check_finds_preflight_finds(broken: str) -> None:
    torch.manual_seed(0)
    model = _GPT()
    if broken == "nan-weight":
        with torch.no_grad():
            model.h[0].c_attn.weight[0, 0] = float("nan")
    else:  # a block whose output is cut from the graph: its parameters get no gradient
        real = model.h[1].forward
        model.h[1].forward = lambda x: real(x).detach()  # type: ignore[method-assign]
    guide = _guide_check_gradients(model, _batches(1)[0])
    assert "❌" in guide  # the guide's check sees it
    report = preflight(model, _batches(), compute_loss=_compute_loss(model))
    expected = {
        "nan-weight": {"grad.nonfinite", "model.output-nonfinite"},
        "detached-block": {"grad.none"},
    }
    assert expected[broken] & {f.check for f in report.findings}, report.to_text("en")


def test_preflight_on_the_gpt_leaves_its_next_training_steps_unchanged() -> None:
    torch.manual_seed(0)
    model = _GPT()
    state = {k: v.clone() for k, v in model.state_dict().items()}
    torch.manual_seed(5)
    without = _train(model, 3)
    model.load_state_dict(state)
    opt_probe = torch.optim.AdamW(model.parameters(), lr=1e-2)
    report = preflight(
        model, _batches(), optimizer=opt_probe, compute_loss=_compute_loss(model), overfit_steps=5
    )
    assert report.ok, report.to_text("en")
    torch.manual_seed(5)
    with_preflight = _train(model, 3)
    assert all(torch.equal(a, b) for a, b in zip(without, with_preflight, strict=True))


# The guide's data-quality and capacity look: seed 003, 3.1.2 debug_convergence steps 2 and 3
# (copied as written, returning what it prints).
def _guide_data_and_capacity(model: nn.Module, train_loader: Any) -> tuple[torch.Tensor, int]:
    for _data, target in train_loader:
        distribution = torch.bincount(target)
        break
    total_params = sum(p.numel() for p in model.parameters())
    return distribution, total_params


def test_a_dataset_with_95_percent_of_one_class_and_the_parameter_count() -> None:
    from torch.utils.data import DataLoader, TensorDataset

    torch.manual_seed(0)
    y = torch.zeros(1000, dtype=torch.long)
    y[torch.randperm(1000)[:50]] = torch.randint(1, 4, (50,))
    loader = DataLoader(TensorDataset(torch.randn(1000, 10), y), batch_size=32, shuffle=True)
    model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 4))
    distribution, total = _guide_data_and_capacity(model, loader)
    assert int(distribution.argmax()) == 0  # the guide prints it; a person must notice
    report = preflight(model, loader, nn.CrossEntropyLoss())
    [finding] = [f for f in report.findings if f.check == "data.imbalance"]
    assert finding.values["value"] == "0"
    assert report.context["parameters"].startswith(f"{total:,} ")


# --- The tracer -------------------------------------------------------------------------------


# The guide's activation logger: seed 001, 附录B "使用 PyTorch hooks", ActivationLogger (copied as
# written; print_stats returns what it prints, and the hooks are kept so that the test can remove
# them: the guide's never are).
class _GuideActivationLogger:
    def __init__(self, model: nn.Module) -> None:
        self.activations: dict[str, Any] = {}
        self.handles: list[Any] = []
        self._register_hooks(model)

    def _register_hooks(self, model: nn.Module) -> None:
        def get_hook(name: str) -> Any:
            def hook(module: nn.Module, input: Any, output: Any) -> None:
                self.activations[name] = {
                    "input": input[0].detach() if input else None,
                    "output": output.detach() if isinstance(output, torch.Tensor) else None,
                }

            return hook

        for name, layer in model.named_modules():
            if name:
                self.handles.append(layer.register_forward_hook(get_hook(name)))

    def print_stats(self) -> str:
        out = io.StringIO()
        with redirect_stdout(out):
            for name, act in self.activations.items():
                if act["output"] is not None:
                    out_ = act["output"]
                    print(f"{name}:")
                    print(f"  shape: {out_.shape}")
                    print(f"  mean: {out_.mean():.4f}, std: {out_.std():.4f}")
                    print(f"  min: {out_.min():.4f}, max: {out_.max():.4f}")
        for h in self.handles:
            h.remove()
        return out.getvalue()


# The guide's forward visualiser: seed 000, 技巧5 可视化中间结果, visualize_forward_pass (copied as
# written, minus the matplotlib histogram and with its print line split; returns what it prints).
def _guide_visualize_forward_pass(model: nn.Module, data: torch.Tensor) -> str:
    activations = {}

    def hook_fn(name: str) -> Any:
        def hook(module: nn.Module, input: Any, output: torch.Tensor) -> None:
            activations[name] = output.detach()

        return hook

    hooks = []
    for name, module in model.named_modules():
        if isinstance(module, (nn.Linear, nn.Conv2d)):
            hook = module.register_forward_hook(hook_fn(name))
            hooks.append(hook)

    model.eval()
    with torch.no_grad():
        model(data)

    out = io.StringIO()
    with redirect_stdout(out):
        for name, activation in activations.items():
            low, high = activation.min(), activation.max()
            print(f"{name}: {activation.shape}, 范围: [{low:.2f}, {high:.2f}]")
    for hook in hooks:
        hook.remove()
    return out.getvalue()


def _guide_logged(model: nn.Module, batch: Any) -> dict[str, torch.Tensor]:
    logger = _GuideActivationLogger(model)
    with torch.no_grad():
        model(*batch) if isinstance(batch, tuple) else model(batch)
    logger.print_stats()
    return {n: a["output"] for n, a in logger.activations.items() if a["output"] is not None}


def _nanogpt() -> nn.Module:
    from tests.data.nanogpt.model import GPT, GPTConfig

    torch.manual_seed(0)
    with redirect_stdout(io.StringIO()):  # its "number of parameters" line
        return GPT(GPTConfig(block_size=32, vocab_size=65, n_layer=2, n_head=2, n_embd=64))


def test_every_output_the_guides_logger_shows_trace_shows_with_the_same_numbers() -> None:
    from diagnoser import trace

    model = _nanogpt()
    idx = torch.randint(0, 65, (2, 32), generator=torch.Generator().manual_seed(0))
    guide = _guide_logged(model, (idx,))
    assert "transformer.h.0" in guide  # the block's output: the residual stream after it
    ours = {r.name: r for r in trace(model, (idx,), file=None).rows}
    for name, out in guide.items():
        # a Sequential's output is its last layer's, a row of ours already (none in nanoGPT)
        row = ours[name]
        assert row.shapes[0] == tuple(out.shape), name
        assert row.stats is not None
        assert math.isclose(row.stats.max, float(out.max()), rel_tol=1e-5, abs_tol=1e-6), name
        assert math.isclose(row.stats.mean, float(out.mean()), rel_tol=1e-4, abs_tol=1e-6), name
    # ours adds: dtype, device, the fraction of zeros, NaN/Inf counts, parameters per layer, the
    # model's own output (the guide skips a (logits, loss) tuple), and no hook left behind


def _dead_relu_classifier() -> nn.Sequential:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
    with torch.no_grad():
        model[0].bias.fill_(-100.0)  # a bias initialised wrongly: the ReLU outputs only zeros
    return model


def test_a_dead_relu_layer_the_guides_tracers_show_trace_counts() -> None:
    from diagnoser import trace

    model = _dead_relu_classifier()
    x = torch.randn(16, 10)
    guide = _guide_logged(model, x)
    assert float(guide["1"].max()) == 0.0 == float(guide["1"].min())  # a person must notice
    shown = _guide_visualize_forward_pass(model, x)
    assert "2: torch.Size([16, 4])" in shown  # the guide's shows the Linear after it, not the ReLU
    model.train()  # the guide's left it in eval mode
    t = trace(model, x, file=None)
    relu = next(r for r in t.rows if r.name == "1")
    assert relu.stats is not None and relu.stats.zeros == 1.0 and relu.stats.max == 0.0
    assert model.training  # ours leaves the mode as it found it


def test_exploding_activations_the_guides_logger_shows_trace_locates() -> None:
    from diagnoser import trace

    model = _nanogpt()
    with torch.no_grad():
        model.transformer.h[1].mlp.c_fc.weight.mul_(1e36)  # a blown-up layer, finite itself
    idx = torch.randint(0, 65, (2, 32), generator=torch.Generator().manual_seed(0))
    guide = _guide_logged(model, (idx,))
    assert float(guide["transformer.h.1.mlp.c_fc"].abs().max()) > 1e30
    # the guide's dict is in execution order: the first output it prints inf or nan for
    nonfinite = [n for n, out in guide.items() if not torch.isfinite(out).all()]
    assert nonfinite  # ln_f's variance overflows: the guide prints nan there
    t = trace(model, (idx,), file=None)
    rows = {r.name: r for r in t.rows}
    c_fc = rows["transformer.h.1.mlp.c_fc"].stats
    assert c_fc is not None and max(abs(c_fc.min), c_fc.max) > 1e30
    first = t.first_nonfinite()
    assert first is not None and first.name == nonfinite[0]
    # ours adds: the count of NaN/Inf elements and stats of the finite ones (the guide's mean is
    # nan once one element is), and the first bad layer marked in the table
    assert first.stats is not None and first.stats.nonfinite > 0
    assert "← first NaN/Inf" in t.table("en") and "← 首个 NaN/Inf" in t.table("zh")


# --- The overfit test -------------------------------------------------------------------------


# The guide's overfitting test: seed 003, 3.1.2 debug_convergence step 4 过拟合测试 (copied as
# written; returns the losses it prints). It needs the model to carry `init_args` and trains a
# fresh copy on five batches of four with its own optimizer at lr 0.01.
def _guide_overfitting_test(
    model: nn.Module, train_loader: Any, optimizer: Any, device: str
) -> list[float]:
    from torch.utils.data import DataLoader

    losses = []
    small_loader = DataLoader(train_loader.dataset, batch_size=4, shuffle=True)
    model_copy = type(model)(**model.init_args).to(device)
    optimizer_copy = type(optimizer)(model_copy.parameters(), lr=0.01)
    for i, (data, target) in enumerate(small_loader):
        data, target = data.to(device), target.to(device)
        optimizer_copy.zero_grad()
        output = model_copy(data)
        loss = nn.CrossEntropyLoss()(output, target)
        loss.backward()
        optimizer_copy.step()
        losses.append(loss.item())  # print(f"Batch {i}: Loss = {loss.item():.4f}")
        if i >= 4:
            break
    return losses


class _Classifier(nn.Module):
    def __init__(self, dead_relu: bool = False) -> None:
        super().__init__()
        self.init_args = {"dead_relu": dead_relu}  # what the guide's test needs
        self.fc1, self.fc2 = nn.Linear(10, 64), nn.Linear(64, 4)
        if dead_relu:  # a bias initialised wrongly: every hidden unit is dead
            nn.init.constant_(self.fc1.bias, -100.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


def _learnable_loader() -> Any:
    from torch.utils.data import DataLoader, TensorDataset

    g = torch.Generator().manual_seed(0)
    x = torch.randn(256, 10, generator=g)
    return DataLoader(TensorDataset(x, x[:, :4].argmax(1)), batch_size=32, shuffle=True)


def _guide_sees_it_fall(losses: list[float]) -> bool:
    return losses[-1] <= 0.9 * losses[0]  # the reading a person makes of the five losses


def test_a_model_that_cannot_learn_both_overfit_tests_flag() -> None:
    from diagnoser import overfit_one_batch

    loader = _learnable_loader()
    for seed in range(5):
        torch.manual_seed(seed)
        model = _Classifier(dead_relu=True)
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        assert not _guide_sees_it_fall(_guide_overfitting_test(model, loader, opt, "cpu"))
        ours = overfit_one_batch(model, next(iter(loader)), nn.CrossEntropyLoss(), opt)
        assert not ours.fell and "did not fall" in str(ours)


def test_a_healthy_model_the_guides_five_steps_can_flag_ours_does_not() -> None:
    from diagnoser import overfit_one_batch

    loader = _learnable_loader()
    guide, ours = [], []
    for seed in range(5):
        torch.manual_seed(seed)
        model = _Classifier()
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        guide.append(_guide_sees_it_fall(_guide_overfitting_test(model, loader, opt, "cpu")))
        torch.manual_seed(seed)
        model = _Classifier()
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        ours.append(overfit_one_batch(model, next(iter(loader)), nn.CrossEntropyLoss(), opt).fell)
    # five steps on five different batches are noise: the guide's loss often does not fall on a
    # model that is fine. Ours trains 50 steps on one batch, which a working set-up memorises.
    assert not all(guide)
    assert all(ours)


def test_an_optimizer_over_another_models_parameters_only_ours_flags() -> None:
    from diagnoser import overfit_one_batch

    loader = _learnable_loader()
    torch.manual_seed(0)
    old = _Classifier()
    opt = torch.optim.Adam(old.parameters(), lr=1e-2)  # built before the model was made again
    model = _Classifier()
    # the guide's test builds its own optimizer over a fresh copy (type(optimizer)(...)), so
    # the user's optimizer, the bug here, is never run by it: nothing to compare against
    ours = overfit_one_batch(model, next(iter(loader)), nn.CrossEntropyLoss(), opt)
    assert not ours.fell


# --- The learning-rate finder -----------------------------------------------------------------


# The guide's learning-rate test: seed 003, 3.3.1 debug_image_classification step 5 学习率测试
# (copied as written; returns the rates it prints). It lists OneCycleLR's schedule and never looks
# at a loss, so the model and data are not among its inputs.
def _guide_lr_test(model: nn.Module) -> list[float]:
    optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=0.1, steps_per_epoch=10, epochs=5
    )
    lrs = []
    for _epoch in range(5):
        for _step in range(10):
            scheduler.step()
            lrs.append(scheduler.get_last_lr()[0])
    return lrs


def test_lr_find_stays_under_the_rate_where_sgd_provably_diverges() -> None:
    from diagnoser import lr_find

    # least squares: plain SGD diverges above 2 / (the largest eigenvalue of the loss's Hessian)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(256, 8, generator=g) * torch.tensor([10.0, 1, 1, 1, 1, 1, 1, 1])
    y = x @ torch.randn(8, 1, generator=g)
    limit = 2 / float(torch.linalg.eigvalsh(2 * x.T @ x / len(x)).max())
    batches = [(x[i : i + 64], y[i : i + 64]) for i in range(0, len(x), 64)]
    torch.manual_seed(0)
    model = nn.Linear(8, 1, bias=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "scheduler.step() before optimizer.step()": the guide's
        guide = _guide_lr_test(nn.Linear(8, 1, bias=False))
    assert max(guide) > limit  # the schedule it shows would diverge on this problem
    found = lr_find(model, batches, nn.MSELoss(), torch.optim.SGD(model.parameters(), lr=0.1))
    assert found.suggestion is not None and limit / 100 < found.suggestion < limit
    # ours stops where the loss blew up: within half a decade above the limit
    assert limit < found.lrs[-1] < 3 * limit

    def trained(lr: float) -> float:
        m = nn.Linear(8, 1, bias=False)
        m.load_state_dict(model.state_dict())
        opt = torch.optim.SGD(m.parameters(), lr=lr)
        for _ in range(50):
            opt.zero_grad()
            nn.functional.mse_loss(m(x), y).backward()
            opt.step()
        return float(nn.functional.mse_loss(m(x), y).detach())

    with torch.no_grad():
        start = float(nn.functional.mse_loss(model(x), y))
    assert trained(found.suggestion) < start / 5  # the suggestion trains
    assert not trained(max(guide)) < start  # the top of the guide's schedule does not
