"""The frozen set: parameters frozen when watch starts that are trainable, and updated, at the
first optimizer step (a train() override that unfreezes); a train() override that freezes stages
by design, an optimizer built on the trainable parameters only and a later deliberate unfreeze stay
quiet. preflight's own train()/eval() calls are undone, requires_grad included."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

from diagnoser import preflight, watch  # noqa: E402


class _Backbone(nn.Module):
    """Two stages and a head. unfreeze_in_train: its train() re-enables gradients everywhere
    and freezes only `frozen_stages` itself, undoing a freeze done from outside. Otherwise
    train() freezes the first `frozen_stages` stages, as detection backbones do, and so does
    __init__."""

    def __init__(self, unfreeze_in_train: bool, frozen_stages: int = 1) -> None:
        super().__init__()
        self.stages = nn.ModuleList([nn.Linear(8, 16), nn.Linear(16, 16)])
        self.head = nn.Linear(16, 3)
        self.unfreeze_in_train = unfreeze_in_train
        self.frozen_stages = frozen_stages
        self._freeze_stages()

    def _freeze_stages(self) -> None:
        for stage in self.stages[: self.frozen_stages]:
            stage.requires_grad_(False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for stage in self.stages:
            x = stage(x).relu()
        return self.head(x)

    def train(self, mode: bool = True) -> _Backbone:
        super().train(mode)
        if mode and self.unfreeze_in_train:
            self.requires_grad_(True)
        if mode:
            self._freeze_stages()
        return self


def _loop(model: nn.Module, optimizer: torch.optim.Optimizer, steps: int = 3) -> list:
    with watch(model, on_finding="quiet") as w:
        for _ in range(steps):
            model.train()
            x, y = torch.randn(8, 8), torch.randint(0, 3, (8,))
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            w.step(loss)
    return [f for f in w.findings if f.check == "watch.unfrozen"]


def test_a_train_override_that_unfreezes_the_backbone_is_named() -> None:
    torch.manual_seed(0)
    model = _Backbone(unfreeze_in_train=True)
    model.stages.requires_grad_(False)  # the user freezes the whole backbone
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    frozen = model.stages[1].weight.detach().clone()
    [finding] = _loop(model, optimizer)
    assert finding.entry == "frozen-layers-trained"
    assert finding.values["params"] == "stages.1.weight, stages.1.bias"
    assert finding.values["count"] == 2 and finding.values["optimizer"] == "SGD"
    assert not torch.equal(frozen, model.stages[1].weight)  # the harm: it did train


def test_stages_frozen_by_design_are_quiet() -> None:
    torch.manual_seed(0)
    model = _Backbone(unfreeze_in_train=False)
    assert _loop(model, torch.optim.SGD(model.parameters(), lr=0.1)) == []


def test_an_optimizer_on_the_trainable_parameters_only_is_quiet() -> None:
    """The unfrozen stage gets gradients but no update: the frozen set that matters holds."""
    torch.manual_seed(0)
    model = _Backbone(unfreeze_in_train=True)
    model.stages.requires_grad_(False)
    trainable = [p for p in model.parameters() if p.requires_grad]
    assert _loop(model, torch.optim.SGD(trainable, lr=0.1)) == []


def test_unfreezing_later_in_training_is_the_users_choice() -> None:
    torch.manual_seed(0)
    model = _Backbone(unfreeze_in_train=False, frozen_stages=0)
    model.stages.requires_grad_(False)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with watch(model, on_finding="quiet") as w:
        for step in range(4):
            if step == 2:
                model.stages.requires_grad_(True)  # a fine-tuning schedule
            x, y = torch.randn(8, 8), torch.randint(0, 3, (8,))
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            w.step(loss)
    assert "watch.unfrozen" not in {f.check for f in w.findings}


def test_preflight_and_overfit_leave_the_frozen_set_and_modes_as_they_were() -> None:
    """preflight calls train() and eval() (the override freezes a stage, the eval-vs-train check
    runs a train-mode forward): requires_grad, modes and BatchNorm's statistics come back."""
    torch.manual_seed(0)
    model = _Backbone(unfreeze_in_train=False)
    model.requires_grad_(True)  # the user fine-tunes everything, overriding frozen_stages
    model.stages.append(nn.BatchNorm1d(16))
    model.stages[2].num_batches_tracked.fill_(100)  # settled statistics, as after training
    model.stages[2].running_mean.normal_()
    model.eval()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    batch = (torch.randn(16, 8), torch.arange(16) % 3)
    report = preflight(model, batch, nn.CrossEntropyLoss(), optimizer, overfit_steps=3)
    assert {"model.eval-train-differ", "overfit"} <= set(report.ran)
    assert all(p.requires_grad for p in model.parameters())
    assert not any(m.training for m in model.modules())
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())
