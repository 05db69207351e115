"""Eval mode against train mode: one batch through the model in both modes (outputs an order of
magnitude apart name the first module that disagrees), and layers other than Dropout left in
train mode under an eval-mode model. Correct models with BatchNorm and Dropout at sane settings
stay quiet, and the model comes back exactly as it was."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from copy import deepcopy

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

from diagnoser import preflight, watch  # noqa: E402

_TEMPLATES = torch.Generator().manual_seed(0)
_CLASSES = torch.randn(10, 3, 8, 8, generator=_TEMPLATES)


def _images(n: int = 16) -> tuple[torch.Tensor, torch.Tensor]:
    """Normalised images whose class shows through the noise."""
    y = torch.randint(0, 10, (n,))
    return _CLASSES[y] + torch.randn(n, 3, 8, 8), y


def _tokens(n: int = 16) -> tuple[torch.Tensor, torch.Tensor]:
    x = torch.randint(0, 100, (n, 12))
    return x, x[:, 0] % 10


@contextmanager
def _forwards_of(module: nn.Module) -> Iterator[list[bool]]:
    """The mode of every forward of `module`, the probe's included: seen through torch's global
    hook, which the probe leaves alone (it hides its forwards from the module's own hooks)."""
    modes: list[bool] = []
    handle = nn.modules.module.register_module_forward_pre_hook(
        lambda m, a: modes.append(m.training) if m is module else None
    )
    try:
        yield modes
    finally:
        handle.remove()


class _Block(nn.Module):
    def __init__(self, c_in: int, c: int, stride: int = 1) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)
        self.shortcut: nn.Module = nn.Identity()
        if stride != 1 or c_in != c:
            self.shortcut = nn.Sequential(
                nn.Conv2d(c_in, c, 1, stride, bias=False), nn.BatchNorm2d(c)
            )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(h)) + self.shortcut(x))


def _resnet() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, 1, 1, bias=False),
        nn.BatchNorm2d(16),
        nn.ReLU(),
        _Block(16, 16),
        _Block(16, 32, 2),
        _Block(32, 64, 2),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(64, 10),
    )


def _cnn() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1),
        nn.BatchNorm2d(32),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1),
        nn.BatchNorm2d(64),
        nn.ReLU(),
        nn.Dropout(0.25),
        nn.Flatten(),
        nn.Linear(64 * 4 * 4, 10),
    )


class _Transformer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(100, 64)
        layer = nn.TransformerEncoderLayer(64, 4, 128, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(64, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.encoder(self.embed(x)).mean(1))


_Data = Callable[[], tuple[torch.Tensor, torch.Tensor]]
_SANE: dict[str, tuple[Callable[[], nn.Module], _Data]]
_SANE = {
    "resnet": (_resnet, _images),
    "cnn": (_cnn, _images),
    "transformer": (_Transformer, _tokens),
}


def _fit(model: nn.Module, data: _Data, steps: int) -> None:
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    model.train()
    for _ in range(steps):
        x, y = data()
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def _watched_run(model: nn.Module, data: _Data) -> list:
    """40 training steps (BatchNorm's statistics settle after about 30), then an evaluation."""
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    with watch(model, on_finding="quiet") as w:
        for _ in range(40):
            model.train()
            x, y = data()
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            w.step(loss)
        model.eval()
        # the root's mode at each forward of the evaluation
        with torch.no_grad(), _forwards_of(model) as modes:
            for _ in range(3):
                model(data()[0])
    # each of the first three eval forwards, and inside it the probe's two (eval, then train); it
    # stops at the first finding
    probed = modes in ([False, False, True] * 3, [False, False, True, False, False])
    assert probed or modes == [False] * 3
    return [*w.findings, *(["probed"] if probed else [])]


# correct programs -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(_SANE))
def test_sane_models_stay_quiet_in_watch(kind: str) -> None:
    torch.manual_seed(0)
    make, data = _SANE[kind]
    # the models with BatchNorm are compared in both modes; the transformer's layers keep no
    # running statistics, so watch does not run the extra forwards on it
    expected = [] if kind == "transformer" else ["probed"]
    assert _watched_run(make(), data) == expected


@pytest.mark.parametrize("kind", sorted(_SANE))
def test_sane_trained_models_stay_quiet_in_preflight(kind: str) -> None:
    torch.manual_seed(0)
    make, data = _SANE[kind]
    model = make()
    _fit(model, data, 40)
    report = preflight(model, data(), nn.CrossEntropyLoss())
    assert kind == "transformer" or "model.eval-train-differ" in report.ran
    found = {f.check for f in report.findings}
    assert not found & {"model.eval-train-differ", "model.eval-training", "model.eval-random"}


def test_untrained_batchnorm_is_not_judged() -> None:
    """Before BatchNorm has settled (its first steps), eval mode lags in every network: the
    check waits."""
    torch.manual_seed(0)
    model = _resnet()
    _fit(model, _images, 3)
    report = preflight(model, _images(), nn.CrossEntropyLoss())
    assert "model.eval-train-differ" not in report.ran


# broken programs --------------------------------------------------------------------------


def test_preflight_names_batchnorm_fed_unnormalised_data() -> None:
    """A model trained on normalised images, fine-tuned on raw 0-255 pixels: train mode
    normalises each batch, eval mode uses statistics of data a hundred times smaller."""
    torch.manual_seed(0)
    model = _cnn()
    _fit(model, _images, 40)
    x, y = _images()
    raw = (x * 40 + 128).clamp(0, 255)
    copy = deepcopy(model)  # a train-mode forward moves the statistics: measured on a copy
    with torch.no_grad():  # the harm, from torch itself: eval's loss is far above train's
        copy.eval()
        eval_loss = nn.functional.cross_entropy(copy(raw), y)
        copy.train()
        train_loss = nn.functional.cross_entropy(copy(raw), y)
    assert eval_loss > 10 * train_loss
    report = preflight(model, (raw, y), nn.CrossEntropyLoss())
    [finding] = [f for f in report.findings if f.check == "model.eval-train-differ"]
    assert finding.entry == "train-eval-mismatch"
    assert finding.values["module"] == "1 (BatchNorm2d)"
    assert float(finding.values["ratio"]) >= 10


class _RunningNorm(nn.Module):
    """A hand-written BatchNorm. fixed=False: the running statistics are updated out of place
    (`self.mean.mul(0.9).add_(...)` makes a new tensor), so they stay at their initial values."""

    def __init__(self, n: int, fixed: bool) -> None:
        super().__init__()
        self.fixed = fixed
        self.register_buffer("mean", torch.zeros(n))
        self.register_buffer("var", torch.ones(n))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            mean, var = x.mean(0), x.var(0)
            with torch.no_grad():
                if self.fixed:
                    self.mean.mul_(0.9).add_(0.1 * mean)
                    self.var.mul_(0.9).add_(0.1 * var)
                else:
                    self.mean.mul(0.9).add_(0.1 * mean)
                    self.var.mul(0.9).add_(0.1 * var)
        else:
            mean, var = self.mean, self.var
        return (x - mean) / (var + 1e-5).sqrt()


def _features(n: int = 32) -> tuple[torch.Tensor, torch.Tensor]:
    y = torch.randint(0, 10, (n,))
    return 50 * _CLASSES[y].flatten(1)[:, :20] + 30 * torch.randn(n, 20), y


@pytest.mark.parametrize("fixed", [False, True])
def test_watch_names_a_custom_norm_whose_statistics_never_move(fixed: bool) -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 32), _RunningNorm(32, fixed), nn.ReLU(), nn.Linear(32, 10))
    findings = _watched_run(model, _features)
    assert findings.pop() == "probed"
    if fixed:
        assert findings == []
    else:
        [finding] = findings
        assert finding.check == "watch.eval-train-differ"
        assert finding.values["module"] == "1 (_RunningNorm)"
        assert finding.values["step"] == 40


def _recording(kind: int, loud: bool) -> torch.Tensor:
    """Noise with a burst in the first, middle or last third (the class); loud=True: a gain
    between 0.01 and 100 and an offset of up to 3 gains, each recording its own (sensors),
    else the same scale for all (recordings normalised before the model)."""
    signal = 0.3 * torch.randn(96)
    start = kind * 32 + int(torch.randint(0, 16, ()))
    signal[start : start + 16] += 2 * torch.sin(torch.arange(16) * 1.5)
    if loud:
        gain = 10 ** (torch.rand(()) * 4 - 2)
        signal = gain * signal + (torch.rand(()) * 6 - 3) * gain
    return signal[None, None]


@pytest.mark.parametrize("loud", [True, False])
def test_watch_names_batchnorm_trained_one_recording_at_a_time(loud: bool) -> None:
    """Batch size 1 through Conv1d + BatchNorm1d over time: train mode normalises each
    recording by its own statistics, eval mode by running ones that fit none of them when the
    recordings' scales differ a hundredfold (most eval outputs then collapse to the biases)."""
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv1d(1, 16, 7, padding=3), nn.BatchNorm1d(16), nn.ReLU(),
        nn.Conv1d(16, 16, 7, padding=3), nn.BatchNorm1d(16), nn.ReLU(),
        nn.AdaptiveAvgPool1d(3), nn.Flatten(), nn.Linear(48, 3),
    )  # fmt: skip
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    kinds = torch.randint(0, 3, (60,))
    data = [(_recording(int(k), loud), k[None]) for k in kinds]
    train, held_out = data[:48], data[48:]
    with watch(model, on_finding="quiet") as w:
        for x, y in train:
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            w.step(loss)
        losses = {}
        for mode in (False, True):  # eval first: watch compares modes on eval batches
            model.train(mode)
            with torch.no_grad():
                losses[mode] = sum(
                    nn.functional.cross_entropy(model(x), y).item() for x, y in held_out
                ) / len(held_out)
    if not loud:
        assert losses[False] < 2 * losses[True] + 0.1  # eval mode is as good as train mode
        assert w.findings == []  # one-sample batches' losses vary widely: no spike either
        return
    assert losses[False] > 10 * losses[True]  # the harm, from torch: eval mode is lost
    [finding] = w.findings
    assert finding.check == "watch.eval-train-differ"
    assert finding.values["module"] == "1 (BatchNorm1d)"
    assert finding.values["step"] == 48


@pytest.mark.parametrize("size", [1, 16])
def test_watch_compares_no_eval_batch_far_smaller_than_training_s(size: int) -> None:
    """One image through a ResNet trained on batches of 16: train mode would normalise it by
    its own statistics, which training never did, so the comparison would blame eval mode."""
    torch.manual_seed(0)
    model = _resnet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    with watch(model, on_finding="quiet") as w:
        for _ in range(40):
            x, y = _images(16)
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            w.step(loss)
        model.eval()
        with torch.no_grad(), _forwards_of(model) as modes:
            model(_images(size)[0])
    assert w.findings == []
    assert modes == ([False] if size == 1 else [False, False, True])


def test_watch_puts_the_model_back_exactly() -> None:
    """The two extra forwards run in train mode: BatchNorm's statistics, num_batches_tracked,
    modes, requires_grad and the RNG are as they were when the user's eval forward runs."""
    torch.manual_seed(0)
    model = _cnn()
    model[0].requires_grad_(False)
    _fit(model, _images, 40)
    model.eval()
    # the user's own hooks, as feature extraction registers them: they see the user's forward only
    seen: list[torch.Tensor] = []
    handles = [
        model[1].register_forward_hook(lambda m, a, out: seen.append(out)),
        model.register_forward_pre_hook(lambda m, a: seen.append(a[0])),
    ]
    x = _images()[0]
    before = {k: v.clone() for k, v in model.state_dict().items()}
    modes = [m.training for m in model.modules()]
    trainable = [p.requires_grad for p in model.parameters()]
    rng = torch.get_rng_state()
    with watch(model, on_finding="quiet"), torch.no_grad(), _forwards_of(model) as calls:
        out = model(x)
    assert calls == [False, False, True]  # the user's call, and inside it the probe's two
    assert len(seen) == 2 and seen[0] is x  # one call of each hook, and the user's batch
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())
    assert [m.training for m in model.modules()] == modes
    assert [p.requires_grad for p in model.parameters()] == trainable
    assert torch.equal(torch.get_rng_state(), rng)
    with torch.no_grad():
        assert torch.equal(out, model(x))
    for handle in handles:
        handle.remove()
    assert not any(m._forward_hooks or m._forward_pre_hooks for m in model.modules())


# layers left training under an eval-mode model --------------------------------------------


class _StochasticDepth(nn.Module):
    """A residual branch dropped at random in training, kept at eval."""

    def __init__(self) -> None:
        super().__init__()
        self.branch = nn.Linear(16, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training and torch.rand(()) < 0.5:
            return x
        return x + self.branch(x)


def _net() -> nn.Module:
    return nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), _StochasticDepth(), nn.Linear(16, 3))


def _eval_under_watch(switch: Callable[[nn.Module], None]) -> list:
    torch.manual_seed(0)
    model = _net()
    with watch(model, on_finding="quiet") as w:
        model.train()
        model(torch.randn(8, 8)).sum().backward()
        model.eval()
        switch(model)
        with torch.no_grad():
            model(torch.randn(8, 8))
    return [f for f in w.findings if f.check == "watch.eval-training"]


def test_watch_names_a_batchnorm_switched_back_to_train() -> None:
    [finding] = _eval_under_watch(lambda m: m[1].train())
    assert finding.entry == "train-eval-mismatch"
    assert finding.values["layers"] == "1" and finding.values["count"] == 1


def test_watch_names_a_custom_layer_whose_training_flag_was_set() -> None:
    def switch(model: nn.Module) -> None:
        model[2].training = True

    [finding] = _eval_under_watch(switch)
    assert finding.values["layers"] == "2"


def test_watch_is_quiet_on_layers_whose_mode_changes_nothing() -> None:
    def switch(model: nn.Module) -> None:
        model[0].train()  # Linear: the same output in both modes
        model[2].branch.train()

    assert _eval_under_watch(switch) == []


def test_watch_is_quiet_on_batchnorm_without_running_statistics() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16, track_running_stats=False))
    with watch(model, on_finding="quiet") as w:
        model.eval()
        model[1].train()
        with torch.no_grad():
            model(torch.randn(8, 8))
    assert w.findings == []


class _Stubborn(nn.Module):
    """A train() override that ignores mode=False for its BatchNorm."""

    def __init__(self) -> None:
        super().__init__()
        self.fc, self.bn, self.out = nn.Linear(8, 16), nn.BatchNorm1d(16), nn.Linear(16, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.bn(self.fc(x)))

    def train(self, mode: bool = True) -> _Stubborn:
        super().train(mode)
        self.bn.training = True
        return self


def test_preflight_names_a_layer_that_eval_does_not_reach() -> None:
    torch.manual_seed(0)
    batch = (torch.randn(16, 8), torch.arange(16) % 3)
    report = preflight(_Stubborn(), batch, nn.CrossEntropyLoss())
    [finding] = [f for f in report.findings if f.check == "model.eval-training"]
    assert finding.values["layers"] == "bn"
    quiet = preflight(_net(), batch, nn.CrossEntropyLoss())
    assert "model.eval-training" in quiet.ran
    assert "model.eval-training" not in {f.check for f in quiet.findings}


class _Cache:
    """State passed into forward and changed by it, as a generation cache is."""

    def __init__(self) -> None:
        self.seen: list[int] = []


class _Cached(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc, self.bn = nn.Linear(8, 16), nn.BatchNorm1d(16)
        self.hidden = torch.zeros(16)  # a stateful layer's own tensor, reassigned each forward

    def forward(self, x: torch.Tensor, cache: _Cache | None = None) -> torch.Tensor:
        if cache is not None:
            cache.seen.append(len(cache.seen))
        out = self.bn(self.fc(x))
        self.hidden = out.detach().mean(0)
        return out


def test_watch_runs_no_extra_forward_on_arguments_with_state() -> None:
    torch.manual_seed(0)
    model = _Cached()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    with watch(model, on_finding="quiet"):
        for _ in range(40):
            model.train()
            loss = model(torch.randn(8, 8)).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        cache = _Cache()
        with torch.no_grad():
            model(torch.randn(8, 8), cache=cache)
        assert cache.seen == [0]  # the user's forward only
        hidden = model.hidden
        # registered after watch's: its last call sees the model as the probe left it
        seen: list[torch.Tensor] = []
        model.register_forward_pre_hook(lambda m, a: seen.append(m.hidden))
        with torch.no_grad(), _forwards_of(model.bn) as calls:
            model(torch.randn(8, 8))  # a plain batch: the probe runs, then the user's forward
        assert calls == [False, True, False]
        assert seen == [hidden]  # the user's forward alone, with the model as the probe left it
