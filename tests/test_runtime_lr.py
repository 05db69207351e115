"""watch's learning-rate checks: a group whose lr does not show in its update (it moves at lr 0,
or it stays at lr 0 while the others train) and a scheduler built on another optimizer than the
one that steps. Each fires on a broken loop and stays silent on healthy ones with the usual
optimizers and schedulers."""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
sched = torch.optim.lr_scheduler

from diagnoser import watch  # noqa: E402

STEPS = 25  # sampled steps 0, 1, 2, 10 and 20 with watch's default every=10


def _mlp() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))


def _groups(model: nn.Module, lr0: float, lr1: float) -> list[dict]:
    return [
        {"params": model[0].parameters(), "lr": lr0},
        {"params": model[2].parameters(), "lr": lr1},
    ]


def _loop(model, opt, scheduler=None, plateau=False, steps=STEPS):
    g = torch.Generator().manual_seed(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's own scheduler-order warning, when it comes
        with watch(model, on_finding="quiet") as w:
            for _ in range(steps):
                x = torch.randn(16, 8, generator=g)
                y = torch.randint(0, 3, (16,), generator=g)
                opt.zero_grad()
                loss = nn.functional.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
                if scheduler is not None:
                    scheduler().step(loss.item()) if plateau else scheduler().step()
                w.step(loss)
    return w


def _healthy(name: str, model: nn.Module):
    p = model.parameters()
    if name == "sgd-momentum-wd-steplr":
        opt = torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=5e-4)
        return opt, sched.StepLR(opt, step_size=5, gamma=0.5), False
    if name == "adam-onecycle":
        opt = torch.optim.Adam(p, lr=1e-3)
        return opt, sched.OneCycleLR(opt, max_lr=1e-2, total_steps=STEPS), False
    if name == "adamw-warmup-from-0":
        opt = torch.optim.AdamW(p, lr=1e-3, weight_decay=0.01)
        return opt, sched.LambdaLR(opt, lambda s: min(1.0, s / 5)), False
    if name == "adamw-linear-warmup-cosine":
        opt = torch.optim.AdamW(p, lr=1e-3)
        warm = sched.LinearLR(opt, start_factor=0.1, total_iters=5)
        cos = sched.CosineAnnealingLR(opt, T_max=STEPS - 5)
        return opt, sched.SequentialLR(opt, [warm, cos], milestones=[5]), False
    if name == "sgd-plateau":
        opt = torch.optim.SGD(p, lr=0.1, momentum=0.9)
        return opt, sched.ReduceLROnPlateau(opt, patience=1), True
    if name == "two-groups-warmup-from-0":
        opt = torch.optim.SGD(_groups(model, 0.1, 0.01), momentum=0.9)
        return opt, sched.LambdaLR(opt, [lambda s: min(1.0, s / 5)] * 2), False
    if name == "two-groups-no-scheduler":
        return torch.optim.Adam(_groups(model, 1e-4, 1e-3)), None, False
    raise AssertionError(name)


@pytest.mark.parametrize(
    "name",
    [
        "sgd-momentum-wd-steplr",
        "adam-onecycle",
        "adamw-warmup-from-0",
        "adamw-linear-warmup-cosine",
        "sgd-plateau",
        "two-groups-warmup-from-0",
        "two-groups-no-scheduler",
    ],
)
def test_healthy_optimizers_and_schedulers_are_silent(name: str) -> None:
    model = _mlp()
    opt, scheduler, plateau = _healthy(name, model)
    w = _loop(model, opt, (lambda: scheduler) if scheduler else None, plateau)
    assert w.findings == []


def test_a_group_kept_at_lr_0_is_not_reported() -> None:
    """Some fine-tuning recipes freeze layers with lr 0: a choice, not a fault."""
    model = _mlp()
    opt = torch.optim.SGD(_groups(model, 0.0, 0.1), momentum=0.9)
    assert _loop(model, opt).findings == []


def test_a_group_at_lr_0_for_fewer_samples_is_not_told() -> None:
    model = _mlp()
    opt = torch.optim.SGD(_groups(model, 0.0, 0.1))
    assert _loop(model, opt, steps=15).findings == []  # sampled 0, 1, 2, 10: a warm-up


class _OwnRate(torch.optim.Optimizer):
    """A plain SGD as people write them; `reads_group` says whether it uses the group's lr."""

    def __init__(self, params, lr: float, reads_group: bool) -> None:
        super().__init__(params, {"lr": lr})
        self.lr = lr
        self.reads_group = reads_group

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            lr = group["lr"] if self.reads_group else self.lr
            for p in group["params"]:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-lr)


@pytest.mark.parametrize("reads_group", [False, True])
def test_an_optimizer_that_ignores_the_group_lr(reads_group: bool) -> None:
    model = _mlp()
    opt = _OwnRate(model.parameters(), lr=0.1, reads_group=reads_group)
    warmup = sched.LambdaLR(opt, lambda s: min(1.0, s / 5))  # lr 0 at the first step
    findings = _loop(model, opt, lambda: warmup).findings
    if reads_group:
        assert findings == []
        return
    [finding] = findings
    assert finding.check == "watch.lr-ignored" and finding.values["step"] == 0
    assert finding.values["which"]["en"] == "group 0 of 1"


def test_a_scheduler_built_on_an_optimizer_made_again() -> None:
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = sched.StepLR(opt, step_size=1, gamma=0.5)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)  # the scheduler still holds the first
    [finding] = _loop(model, opt, lambda: scheduler).findings
    assert finding.check == "watch.scheduler-other-optimizer"
    assert finding.entry == "loss-not-decreasing"
    # told at the second step, once the scheduler has halved the rate it holds
    assert finding.values["lr"] == "0.1" and finding.values["said"] == "0.05"
    assert finding.values["scheduler"] == "StepLR" and "没生效" in finding.message("zh")


def test_a_second_stage_with_its_own_optimizer_and_scheduler_is_silent() -> None:
    model = _mlp()
    first = torch.optim.SGD(model.parameters(), lr=0.1)
    first_scheduler = sched.StepLR(first, step_size=2)
    assert _loop(model, first, lambda: first_scheduler, steps=5).findings == []
    second = torch.optim.AdamW(model.parameters(), lr=1e-3)
    second_scheduler = sched.LambdaLR(second, lambda s: min(1.0, (s + 1) / 5))
    assert _loop(model, second, lambda: second_scheduler).findings == []
    assert first_scheduler.last_epoch == 5  # still alive while the second stage ran


def test_the_scheduler_is_found_without_a_search_of_the_live_objects(monkeypatch) -> None:
    """gc.get_objects() cost a second on programs with millions of live objects: the schedulers
    that step are noted by their class's step while watch is attached."""
    import gc

    def no_search(*args, **kwargs):
        raise AssertionError("gc.get_objects() called")

    monkeypatch.setattr(gc, "get_objects", no_search)
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = sched.StepLR(opt, step_size=1, gamma=0.5)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    [finding] = _loop(model, opt, lambda: scheduler).findings
    assert finding.check == "watch.scheduler-other-optimizer"


def test_scheduler_classes_get_their_own_step_back() -> None:
    own = (sched.LRScheduler.step, sched.ReduceLROnPlateau.step, sched.SequentialLR.step)
    model = _mlp()
    with watch(model, on_finding="quiet"), watch(nn.Linear(2, 2), on_finding="quiet"):
        assert sched.LRScheduler.step is not own[0]
    assert (sched.LRScheduler.step, sched.ReduceLROnPlateau.step, sched.SequentialLR.step) == own
