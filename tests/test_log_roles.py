"""Training logs as users print them (issue 23): columns named in the user's own words (rss, mem,
step_time, ms/it, a `step` column that holds seconds), `[epoch 01] mean train loss = ...`, one
gradient norm per layer, an oscillating loss, and two `diagnoser.watch` models in one log. Each
log has a healthy twin of the same layout that must get nothing."""

from __future__ import annotations

import pytest

from diagnoser.knowledge.index import Index
from diagnoser.text.match import diagnose
from diagnoser.text.training_log import read

# -- the logs -----------------------------------------------------------------------------------

ZERO = "\n".join(f"[epoch {i:02d}] mean train loss = 0.000000" for i in range(1, 9))
ZERO_OK = "\n".join(f"[epoch {i:02d}] mean train loss = {2.3 * 0.8**i:.6f}" for i in range(1, 9))

_LAYERS = ["layer1.weight", "layer2.weight", "layer3.weight", "layer4.weight", "fc.weight"]
VANISH = "epoch 3 step 200 loss 2.3011\n" + "\n".join(
    f"{name} grad norm: {v:.1e}"
    for name, v in zip(_LAYERS, [1.2e-08, 4.0e-07, 9.1e-06, 3.3e-04, 2.1e-02], strict=True)
)
VANISH_OK = "epoch 3 step 200 loss 0.4011\n" + "\n".join(
    f"{name} grad norm: {v:.1e}"
    for name, v in zip(_LAYERS, [0.21, 0.35, 0.18, 0.42, 0.27], strict=True)
)

_SWINGING = [2.31, 0.85, 2.74, 0.62, 3.05, 0.91, 2.48, 0.77, 2.96, 0.69, 2.57, 0.88]
_FALLING = [2.31, 1.95, 1.72, 1.60, 1.41, 1.33, 1.21, 1.10, 1.02, 0.97, 0.91, 0.85]
OSCILLATES, OSCILLATES_OK = (
    "\n".join(
        f"Epoch [{1 + i // 4}/3] Step [{(i % 4 + 1) * 100}/400] Loss: {v:.4f}"
        for i, v in enumerate(values)
    )
    for values in (_SWINGING, _FALLING)
)


def _table(head: str, rows: list[tuple[object, ...]]) -> str:
    return "\n".join([head, *("   ".join(str(c) for c in row) for row in rows)])


RSS = _table(
    "iter   loss     rss", [(50 * i, f"{2.3 * 0.95**i:.4f}", 1830 + 412 * i) for i in range(1, 11)]
)
RSS_OK = _table(
    "iter   loss     rss",
    [(50 * i, f"{2.3 * 0.95**i:.4f}", 1830 + 4 * (i % 3)) for i in range(1, 11)],
)
MEM_GB = _table(
    "step | loss | mem(GB) | ms/it",
    [(i, f"{1.9 * 0.97**i:.3f}", f"{3.1 + 0.42 * i:.2f}", 212 + i) for i in range(1, 9)],
)
MEM_GB_OK = _table(
    "step | loss | mem(GB) | ms/it",
    [(i, f"{1.9 * 0.97**i:.3f}", f"{3.1 + 0.01 * (i % 2):.2f}", 212 + i % 3) for i in range(1, 9)],
)
# "step" here is what a step took (seconds), not its number; "mem" is in MB
STEP_SECONDS = "epoch\tloss\tstep\tmem\n" + "\n".join(
    f"{i}\t{2.3 * 0.9**i:.4f}\t{0.41 + 0.02 * (i % 2):.3f}\t{2100 + 380 * i}" for i in range(1, 9)
)
STEP_SECONDS_OK = "epoch\tloss\tstep\tmem\n" + "\n".join(
    f"{i}\t{2.3 * 0.9**i:.4f}\t{0.41 + 0.02 * (i % 2):.3f}\t{2100 + 3 * (i % 2)}"
    for i in range(1, 9)
)


def _two_models(d_losses: list[str]) -> str:
    """A GAN with a diagnoser.watch on each model: their lines interleave in one log."""
    lines = []
    for i, d in enumerate(d_losses):
        lines.append(
            f"[diagnoser:Generator] step {10 * i} | loss {2.9 - 0.05 * i:.4g} | grad_norm 1.3"
        )
        lines.append(f"[diagnoser:Discriminator] step {10 * i} | loss {d} | grad_norm 0.4")
    return "\n".join(lines)


def _one_class_twice(b_losses: list[float]) -> str:
    """Two models of one class, each watched: one label ("Net") for both, their lines interleaved
    and each counting its own steps."""
    lines = []
    for i, b in enumerate(b_losses):
        lines.append(f"[diagnoser:Net] step {10 * i} | loss {2.3 * 0.97**i:.4f} | grad_norm 1.1")
        lines.append(f"[diagnoser:Net] step {10 * i} | loss {b:.4f} | grad_norm 0.3")
    return "\n".join(lines)


ONE_CLASS_TWICE_OK = _one_class_twice([0.25 * 0.97**i for i in range(16)])
ONE_CLASS_TWICE_NAN = _one_class_twice([0.25 * 0.97**i for i in range(12)] + [float("nan")] * 4)
TWO_MODELS_OK = _two_models([f"{0.71 - 0.01 * i:.4g}" for i in range(12)])
TWO_MODELS_NAN = _two_models([f"{0.71 - 0.01 * i:.4g}" for i in range(9)] + ["nan"] * 3)

# A logger's line with a loss under a name of the user's own (`Train_rf`), beside memory in %:
# the one number of a counter-led line that is no setting, score or count is the loss.
UNNAMED = "\n".join(
    f"[13/12/22 10:{20 + i}:42][run.callback.progress][INFO] -    Epoch {i}: Train_rf "
    f"{0.4855 + 0.0001 * (i % 3):.4e}   Memory {9.7 + 0.1 * (i % 2):.1f}%"
    for i in range(10)
)
UNNAMED_OK = "\n".join(
    f"[13/12/22 10:{20 + i}:42][run.callback.progress][INFO] -    Epoch {i}: Train_rf "
    f"{0.4855 * 0.9**i:.4e}   Memory {9.7 + 0.1 * (i % 2):.1f}%"
    for i in range(10)
)
# Loss terms under names no list holds (L_rec, L_kl): they add up to the loss.
TERMS, TERMS_OK = (
    "\n".join(f"iter {100 * i}  L_rec: {rec:.4f}  L_kl: 0.0120" for i, rec in enumerate(recs))
    for recs in ([0.51 + 0.002 * (i % 2) for i in range(8)], [0.51 * 0.9**i for i in range(8)])
)


def _chainer(losses: list[float], accs: list[float]) -> str:
    """Chainer's PrintReport rows once the header has scrolled away: epoch, iteration, loss,
    accuracy, learning rate (warming up)."""
    return "\n".join(
        f"3           {4800 + 100 * i:<12}{loss:<12.6g}{acc:<15.6g}{0.00995 + 1e-6 * i:.6g}"
        for i, (loss, acc) in enumerate(zip(losses, accs, strict=True))
    )


_NOISE = [0.0, 0.3, -0.1, 0.2, -0.4, 0.1, 0.0, -0.2, 0.3, 0.0, -0.1, 0.05]
CHAINER = _chainer([7.6 + 0.2 * n for n in _NOISE], [max(0.0, 0.01 * n) for n in _NOISE])
CHAINER_OK = _chainer([7.6 * 0.85**i for i in range(12)], [0.05 * i for i in range(12)])

CASES = {
    "loss-under-a-name-of-its-own": ("loss-not-decreasing", UNNAMED, UNNAMED_OK),
    "loss-terms-under-names-of-their-own": ("loss-not-decreasing", TERMS, TERMS_OK),
    "chainer-rows-without-header": ("loss-not-decreasing", CHAINER, CHAINER_OK),
    "mean-train-loss-zero": ("loss-all-zero", ZERO, ZERO_OK),
    "per-layer-grad-norms": ("vanishing-gradient", VANISH, VANISH_OK),
    "loss-swings": ("loss-oscillates", OSCILLATES, OSCILLATES_OK),
    "rss-column": ("gpu-memory-leak", RSS, RSS_OK),
    "mem-in-gb-and-ms-per-it": ("gpu-memory-leak", MEM_GB, MEM_GB_OK),
    "step-column-in-seconds": ("gpu-memory-leak", STEP_SECONDS, STEP_SECONDS_OK),
    "two-watched-models": ("nan-loss", TWO_MODELS_NAN, TWO_MODELS_OK),
    "one-class-watched-twice": ("nan-loss", ONE_CLASS_TWICE_NAN, ONE_CLASS_TWICE_OK),
}


@pytest.mark.parametrize("name", CASES)
def test_the_log_shows_its_symptom(name: str, index: Index) -> None:
    entry_id, log, _ = CASES[name]
    ranked = [(m.entry.id, m.score, m.method) for m in diagnose(log, index).matches]
    assert ranked and ranked[0][0] == entry_id and ranked[0][2] == "log", ranked


@pytest.mark.parametrize("name", CASES)
def test_the_healthy_twin_gets_nothing(name: str, index: Index) -> None:
    _, _, healthy = CASES[name]
    assert diagnose(healthy, index).matches == (), healthy


# -- what the reader learnt -----------------------------------------------------------------------


def test_column_units_and_roles() -> None:
    log = read(MEM_GB)
    assert log.series["memory"][0].value == pytest.approx(3.52 * 1024)
    assert log.series["step_time"][0].value == pytest.approx(0.213)
    assert log.series["loss"][0].step == 1


def test_a_step_column_of_seconds_is_a_time_not_a_step_number() -> None:
    log = read(STEP_SECONDS)
    assert [p.value for p in log.series["step_time"]][:2] == [0.43, 0.41]
    assert all(p.step is None and p.epoch is not None for p in log.series["loss"])


def test_elapsed_time_is_no_step_time() -> None:
    """The time since the start grows by nature: no column role of its own."""
    log = read(_table("step  loss  elapsed", [(i, 0.5, 12.5 * i) for i in range(1, 6)]))
    assert set(log.series) == {"loss"}


def test_two_watched_models_are_two_series() -> None:
    log = read(TWO_MODELS_OK)
    assert set(log.models) == {"Generator", "Discriminator"}
    assert [p.value for p in log.models["Discriminator"].series["loss"]][:2] == [0.71, 0.7]
    assert "loss" not in log.series  # no merged series that jumps between the two models


def test_an_unlabelled_watch_line_is_still_read() -> None:
    """Logs written before watch labelled its lines."""
    log = read("[diagnoser] step 0 | loss 0.5 | grad_norm 1.2 | memory 120.5 MB")
    assert log.series["loss"][0].value == 0.5 and log.series["memory"][0].value == 120.5


# -- losses printed as tensors --------------------------------------------------------------------


def _printed_losses(lr: float) -> tuple[str, list[float]]:
    """A loop that prints the loss tensor itself, as users do (`print(loss)`, f"loss: {loss}"):
    the text is torch's own repr of each step's loss (a regression that diverges at a large lr)."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = torch.randn(32, 4) * 10, torch.randn(32, 1)
    lines, values = [], []
    for epoch in range(40):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        lines.append(f"epoch {epoch} loss: {loss}" if epoch % 2 else str(loss))
        values.append(loss.item())
    return "\n".join(lines), values


def test_a_printed_loss_tensor_is_read_as_the_loss() -> None:
    text, values = _printed_losses(1e-3)
    assert "grad_fn=<MseLossBackward0>" in text  # what torch prints, whatever the version
    read_values = [p.value for p in read(text).series["loss"]]
    assert read_values == pytest.approx(values, rel=1e-3)


def test_a_printed_loss_tensor_that_turns_nan_is_diagnosed(index: Index) -> None:
    text, values = _printed_losses(10.0)
    assert any(v != v for v in values), values  # torch's own nan, printed as tensor(nan, ...)
    best = diagnose(text, index).best
    assert best is not None and best.entry.id == "nan-loss"
    # read from the printed values, which say where it first went non-finite
    first = next(i for i, v in enumerate(values) if v != v or abs(v) == float("inf"))
    assert best.method == "log" and best.values["at"] == f"line {first + 1}"
    healthy, _ = _printed_losses(1e-3)
    best = diagnose(healthy, index).best
    assert best is None or best.entry.id != "nan-loss"


def test_a_setting_printed_every_epoch_is_no_loss() -> None:
    """The one number of a counter-led line that never changes is a setting, not a loss."""
    log = read("\n".join(f"Epoch {i}: dropout 0.1000   Memory 9.7%" for i in range(8)))
    assert "loss" not in log.series


def test_a_score_with_its_threshold_is_no_loss() -> None:
    """mAP50 rising in a counter-led line is the score it names, whatever its digits."""
    log = read("\n".join(f"Epoch {i} | mAP50 {0.1 + 0.05 * i:.3f}" for i in range(8)))
    assert "loss" not in log.series


def test_a_table_of_data_is_no_training_log() -> None:
    """A DataFrame's rows (an index, then values): one counter and no learning rate."""
    rows = [f"{i}   {5.1 - 0.1 * (i % 3):.1f}   {3.5 + 0.1 * (i % 2):.1f}   1.4" for i in range(9)]
    assert not read("\n".join(rows)).series


def test_headerless_rows_take_their_roles_from_values() -> None:
    log = read(CHAINER_OK)
    assert [p.step for p in log.series["loss"]][:2] == [4800, 4900]
    assert log.series["loss"][0].value == pytest.approx(7.6)
    assert log.series["acc"][-1].value == pytest.approx(0.55)
    assert "lr" not in log.series
