"""watch's optimizer checks (through torch's optimizer step hooks) and its live findings: each
catches a broken loop on a tiny model and stays silent on a healthy one."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

from diagnoser import preflight, watch  # noqa: E402
from diagnoser.runtime.findings import TrainingFindingError  # noqa: E402


def _mlp(dtype: torch.dtype = torch.float32) -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3)).to(dtype)


def _loop(model, opt, steps=6, zero_grad=True, dtype=torch.float32, **options):
    g = torch.Generator().manual_seed(1)
    with watch(model, on_finding="quiet", **options) as w:
        for _ in range(steps):
            x = torch.randn(16, 8, generator=g).to(dtype)
            y = torch.randint(0, 3, (16,), generator=g)
            if zero_grad:
                opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x).float(), y)
            loss.backward()
            opt.step()
            w.step(loss)
    return w


def _checks(w) -> list[str]:
    return [f.check for f in w.findings]


@pytest.mark.parametrize(
    "make",
    [
        lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
        lambda p: torch.optim.AdamW(p, lr=1e-3),
        lambda p: torch.optim.Adam(
            p, lr=0.0
        ),  # a rate of 0 (a warm-up's first step) is no bug here
    ],
)
def test_healthy_optimizers_are_silent(make) -> None:
    model = _mlp()
    assert _loop(model, make(model.parameters())).findings == []


def test_bfloat16_weights_whose_updates_round_away() -> None:
    model = _mlp(torch.bfloat16)
    w = _loop(model, torch.optim.AdamW(model.parameters(), lr=1e-5), dtype=torch.bfloat16)
    [finding] = w.findings
    assert finding.check == "watch.step-no-update" and finding.entry == "optimizer-step-no-update"
    assert finding.values["step"] == 0 and finding.values["dtype"] == "bfloat16"
    assert "权重不更新" in finding.message("zh")


def test_one_group_that_never_moves() -> None:
    model = _mlp()
    opt = torch.optim.SGD(
        [{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 1e-30}],
        lr=0.1,
    )
    [finding] = _loop(model, opt).findings
    assert finding.check == "watch.step-no-update"
    assert finding.values["which"]["en"] == "group 1 of 2"


def test_every_held_parameter_frozen() -> None:
    model = _mlp()
    opt = torch.optim.SGD(model[0].parameters(), lr=0.1)
    model[0].requires_grad_(False)
    w = _loop(model, opt)
    assert _checks(w) == ["watch.optim-frozen"]
    assert w.findings[0].entry == "optimizer-step-no-update"


def test_preflight_does_not_pass_a_step_over_frozen_parameters() -> None:
    model = _mlp()
    opt = torch.optim.SGD(model[0].parameters(), lr=0.1)  # the stem only
    model[0].requires_grad_(False)  # ...and then the stem is frozen
    x, y = torch.randn(16, 8), torch.arange(16) % 3
    report = preflight(model, (x, y), nn.CrossEntropyLoss(), opt)
    assert "optim.frozen" in {f.check for f in report.findings}, report.to_text("en")
    assert "an optimizer step changes the weights" not in report.to_text("en")


def test_frozen_layers_moved_by_momentum() -> None:
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-2)
    _loop(model, opt, steps=2)  # train everything first: momentum buffers fill
    model[0].requires_grad_(False)  # then freeze the stem, keeping the optimizer
    for p in model[0].parameters():
        p.grad = torch.zeros_like(p)  # zero_grad(set_to_none=False) leaves zeros, not None
    g = torch.Generator().manual_seed(2)
    with watch(model, on_finding="quiet") as w:
        for _ in range(3):
            opt.zero_grad(set_to_none=False)
            loss = model(torch.randn(16, 8, generator=g)).pow(2).mean()
            loss.backward()
            opt.step()
            w.step(loss)
    assert _checks(w) == ["watch.frozen-changed"]
    assert w.findings[0].entry == "frozen-layers-trained"


def _freeze_midway(make, set_to_none: bool, freeze_at: int = 5):
    """Train everything, then freeze the stem at a step between watch's samples (every=10)."""
    model = _mlp()
    opt = make(model.parameters())
    g = torch.Generator().manual_seed(3)
    with watch(model, on_finding="quiet") as w:
        for step in range(freeze_at + 3):
            if step == freeze_at:
                model[0].requires_grad_(False)
            opt.zero_grad(set_to_none=set_to_none)
            loss = nn.functional.cross_entropy(
                model(torch.randn(16, 8, generator=g)), torch.randint(0, 3, (16,), generator=g)
            )
            loss.backward()
            opt.step()
            w.step(loss)
    return w


@pytest.mark.parametrize(
    "make",
    [
        lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
        lambda p: torch.optim.SGD(p, lr=0.1, weight_decay=1e-2),
        lambda p: torch.optim.AdamW(p, lr=1e-3),
    ],
)
def test_a_layer_frozen_between_samples_is_caught_at_its_first_step(make) -> None:
    w = _freeze_midway(make, set_to_none=False)
    [finding] = w.findings
    assert finding.check == "watch.frozen-changed" and finding.values["step"] == 5
    assert finding.values["params"] == "0.weight, 0.bias" and finding.values["count"] == 2


@pytest.mark.parametrize(
    "make",
    [
        lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=1e-2),
        lambda p: torch.optim.AdamW(p, lr=1e-3),
    ],
)
def test_a_layer_frozen_with_its_gradients_set_to_none_stays_quiet(make) -> None:
    assert _freeze_midway(make, set_to_none=True).findings == []


def test_a_frozen_zero_gradient_that_moves_nothing_stays_quiet() -> None:
    # plain SGD without momentum or weight decay: a zeroed gradient is a step of 0
    w = _freeze_midway(lambda p: torch.optim.SGD(p, lr=0.1), set_to_none=False)
    assert w.findings == []


def test_stale_gradients_without_zero_grad() -> None:
    model = _mlp()
    w = _loop(model, torch.optim.SGD(model.parameters(), lr=0.01), zero_grad=False)
    assert _checks(w) == ["watch.stale-grad"]
    assert w.findings[0].values["step"] == 1 and w.findings[0].entry == "stale-gradients"


def test_accumulating_over_micro_batches_is_no_stale_gradient() -> None:
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with watch(model, on_finding="quiet") as w:
        for step in range(8):
            loss = model(torch.randn(4, 8)).pow(2).mean() / 4
            loss.backward()
            if step % 4 == 3:
                opt.step()
                opt.zero_grad()
            w.step(loss)
    assert w.findings == []


def test_a_gan_generator_backward_through_the_discriminator_is_no_stale_gradient() -> None:
    # DCGAN's loop: errG.backward() adds to D's gradients after D's step; D's next update starts
    # with netD.zero_grad(), so no step ever uses a stale gradient.
    torch.manual_seed(0)
    netD = nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
    netG = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 4))
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()
    with watch(netD, on_finding="quiet") as w:
        for _ in range(6):
            netD.zero_grad()
            fake = netG(torch.randn(8, 2))
            errD = bce(netD(torch.randn(8, 4)), torch.ones(8, 1))
            errD = errD + bce(netD(fake.detach()), torch.zeros(8, 1))
            errD.backward()
            optD.step()
            netG.zero_grad()
            bce(netD(fake), torch.ones(8, 1)).backward()
            optG.step()
            w.step(errD)
    assert w.findings == []


def test_live_findings_warn_once_per_kind(capsys: pytest.CaptureFixture[str]) -> None:
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    g = torch.Generator().manual_seed(1)
    with watch(model, label="student") as w:
        for _ in range(6):
            loss = model(torch.randn(16, 8, generator=g)).pow(2).mean()
            loss.backward()  # no zero_grad
            opt.step()
            w.step(loss)
    err = capsys.readouterr().err.splitlines()
    lines = [line for line in err if "watch.stale-grad" in line]
    assert len(lines) == 1 and lines[0].startswith("[diagnoser:student] ✗ watch.stale-grad")
    assert lines[0].endswith("[stale-gradients]")


def test_live_findings_raise_or_call() -> None:
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    raised = pytest.raises(TrainingFindingError, match=r"\[stale-gradients\]")
    with raised as info, watch(model, on_finding="raise"):
        for _ in range(4):
            model(torch.randn(16, 8)).pow(2).mean().backward()
            opt.step()
    assert info.value.finding.check == "watch.stale-grad"
    seen = []
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    with watch(model, on_finding=seen.append):
        for _ in range(4):
            model(torch.randn(16, 8)).pow(2).mean().backward()
            opt.step()
    assert [f.check for f in seen] == ["watch.stale-grad"]
    with pytest.raises(ValueError, match="on_finding"):
        watch(model, on_finding="loud")


def test_a_raised_finding_is_explained_by_the_diagnoser() -> None:
    import traceback

    from diagnoser.knowledge.index import load_index
    from diagnoser.text.match import diagnose

    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    try:
        with watch(model, on_finding="raise"):
            for _ in range(4):
                model(torch.randn(16, 8)).pow(2).mean().backward()
                opt.step()
    except TrainingFindingError as exc:
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    best = diagnose(text, load_index()).best
    assert best is not None and best.entry.id == "stale-gradients"


def _cleared_before_step(model, opt, steps=4):
    """zero_grad() between backward() and step(): the step finds no gradient at all."""
    g = torch.Generator().manual_seed(1)
    with watch(model, on_finding="quiet") as w:
        for _ in range(steps):
            x, y = torch.randn(16, 8, generator=g), torch.randint(0, 3, (16,), generator=g)
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.zero_grad()
            opt.step()
            w.step(loss)
    return w


def test_zero_grad_between_backward_and_step() -> None:
    model = _mlp()
    before = [p.detach().clone() for p in model.parameters()]
    w = _cleared_before_step(model, torch.optim.AdamW(model.parameters(), lr=1e-2))
    assert all(map(torch.equal, before, model.parameters()))  # the harm: nothing moved
    assert "watch.step-without-grads" in _checks(w)
    assert w.findings[0].entry == "optimizer-step-no-update"


def test_one_step_without_gradients_before_training_is_not_reported() -> None:
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with watch(model, on_finding="quiet") as w:
        opt.zero_grad()
        opt.step()  # once, before the loop: silences "scheduler.step() before optimizer.step()"
    assert "watch.step-without-grads" not in _checks(w)
    assert "watch.step-without-grads" not in _checks(_loop(model, opt))


def test_a_closure_computes_the_gradients_inside_step() -> None:
    model = _mlp(torch.float64)
    opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=3)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(16, 8, generator=g, dtype=torch.float64)
    y = torch.randint(0, 3, (16,), generator=g)

    def closure():
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        return loss

    with watch(model, on_finding="quiet") as w:
        for _ in range(4):
            opt.zero_grad()  # the gradients are None before each step: the closure makes them
            w.step(opt.step(closure))
    assert "watch.step-without-grads" not in _checks(w)


def test_frozen_parameters_the_optimizer_holds_without_gradients_stay_quiet() -> None:
    # torch's optimizers skip a parameter whose .grad is None: holding frozen ones is harmless
    model = _mlp()
    model[0].requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.1)
    assert _loop(model, opt).findings == []


class _DecayEverything(torch.optim.Optimizer):
    """Decoupled weight decay on every parameter it holds, a gradient or not (a zero one is
    made where there is none)."""

    def __init__(self, params, lr: float = 0.02, weight_decay: float = 0.1) -> None:
        super().__init__(params, {"lr": lr, "weight_decay": weight_decay})

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    p.grad = torch.zeros_like(p)
                p.mul_(1 - group["lr"] * group["weight_decay"]).add_(p.grad, alpha=-group["lr"])


def test_frozen_parameters_decayed_without_a_gradient() -> None:
    model = _mlp()
    model[2].requires_grad_(False)
    w = _loop(model, _DecayEverything(list(model.parameters())))
    [finding] = w.findings
    assert finding.check == "watch.frozen-changed" and finding.values["step"] == 0
    assert finding.values["params"] == "2.weight, 2.bias"
