"""Training logs in the layouts of the popular trainers (issue 23): real pastes from public issues
(tests/data/real/logs, each with its source, the family its numbers show and the series a reader
finds in it), and, for the layouts no paste here shows healthy or sick, logs of the same layout
whose numbers are made here. A healthy log of every layout gets no answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from diagnoser.knowledge.index import Index
from diagnoser.text.match import diagnose
from diagnoser.text.training_log import read

LOGS = Path(__file__).parent / "data" / "real" / "logs"
_HEADER = ("# source:", "# expect:", "# reads:")


def _paste(path: Path) -> tuple[dict[str, str], str]:
    """A paste's header lines (source, expect, reads) and its text as posted."""
    lines = path.read_text(encoding="utf-8").split("\n")
    header = {
        ln[2:].split(":")[0]: ln.split(":", 1)[1].strip() for ln in lines if ln.startswith(_HEADER)
    }
    return header, "\n".join(ln for ln in lines if not ln.startswith(_HEADER))


PASTES = sorted(LOGS.glob("*.txt"))


def test_the_pastes_are_many_layouts_and_families() -> None:
    expected = [_paste(p)[0]["expect"].split()[0] for p in PASTES]
    assert len(PASTES) >= 10
    assert expected.count("none") >= 5  # healthy runs as they are posted
    assert len({e for e in expected if e not in ("none", "unclear")}) >= 4


@pytest.mark.parametrize("path", PASTES, ids=[p.stem for p in PASTES])
def test_the_paste_is_read_as_its_layout(path: Path) -> None:
    header, text = _paste(path)
    want = {k: int(n) for k, n in (kv.split("=") for kv in header["reads"].split())}
    log = read(text)
    assert {k: len(log.series.get(k, [])) for k in want} == want


@pytest.mark.parametrize("path", PASTES, ids=[p.stem for p in PASTES])
def test_the_paste_gets_the_family_its_numbers_show(path: Path, index: Index) -> None:
    header, text = _paste(path)
    expected = header["expect"].split()[0]
    found = [(m.entry.id, m.method) for m in diagnose(text, index).matches]
    if expected == "unclear":  # too few readings to tell: at least no answer from the numbers
        assert all(method != "log" for _, method in found), found
    elif expected == "none":
        assert found == [], found
    else:
        assert found and found[0] == (expected, "log"), found


# -- layouts whose numbers are made here -----------------------------------------------------------

_YOLO_HEAD = "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size"
_YOLO_VAL = (
    "                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95): "
    "100%|██████████| 16/16 [00:03<00:00,  4.12it/s]\n"
    "                   all        500       1234      {p:.3g}      {r:.3g}      0.301      0.152"
)


def _yolo(boxes: list[float], header: bool) -> str:
    """Ultralytics' epoch rows (the header once an epoch, or not pasted), each followed by its
    validation rows; the box term is `boxes`, the others follow it."""
    lines = []
    for i, box in enumerate(boxes, start=1):
        if header:
            lines.append(_YOLO_HEAD)
        lines.append(
            f"     {i:>3}/299     3.52G   {box:.4g}   {box * 0.6:.4g}   {box * 0.25:.4g}"
            f"        23       640: 100%|██████| 118/118 [00:41<00:00,  2.87it/s]"
        )
        lines.append(_YOLO_VAL.format(p=0.9 - box / 10, r=0.9 - box / 10))
    return "\n".join(lines)


_FALLING = [1.9 * 0.93**i for i in range(12)]
_SWINGING = [1.2, 2.9, 1.1, 3.2, 0.9, 2.8, 1.3, 3.1, 1.0, 2.7, 1.2, 3.0]


def _zh(losses: list[float], accs: list[float]) -> str:
    return "\n".join(
        f"第{i}轮 损失: {loss:.4f} 准确率: {acc:.1f}%"
        for i, (loss, acc) in enumerate(zip(losses, accs, strict=True), start=1)
    )


def _detectron2(mems: list[int]) -> str:
    return "\n".join(
        f"[11/01 19:16:{10 + i:02d} d2.utils.events]:  eta: 4:52:26  iter: {20 * i + 19}  "
        f"total_loss: {1.75 * 0.97**i:.3f}  loss_cls: 1.248  loss_box_reg: 0.503  time: 0.1960  "
        f"data_time: 0.0033  lr: 0.000200  max_mem: {mem}M"
        for i, mem in enumerate(mems)
    )


def _mmdet(losses: list[float]) -> str:
    return "\n".join(
        f"2021-03-01 10:{i:02d}:01,123 - mmdet - INFO - Epoch [3][{50 * i + 50}/1000]\t"
        f"lr: 1.000e-02, eta: 1:10:00, time: 0.512, data_time: 0.011, memory: 3512, "
        f"loss_rpn_cls: 0.0412, loss_cls: {loss * 0.6:.4f}, loss_bbox: {loss * 0.3:.4f}, "
        f"loss: {loss:.4f}"
        for i, loss in enumerate(losses)
    )


def _hf_table(train: list[float], val: list[float]) -> str:
    rows = [
        f"| {500 * i} | {t:.4f} | {v:.4f} |"
        for i, (t, v) in enumerate(zip(train, val, strict=True), start=1)
    ]
    return "\n".join(["| Step | Training Loss | Validation Loss |", "|---|---|---|", *rows])


LAYOUTS = {
    "yolo-with-header": ("loss-oscillates", _yolo(_SWINGING, True), _yolo(_FALLING, True)),
    "yolo-rows-without-header": (
        "loss-oscillates",
        _yolo(_SWINGING, False),
        _yolo(_FALLING, False),
    ),
    "yolo-nan-without-header": (
        "nan-loss",
        _yolo([*_FALLING[:6], float("nan"), float("nan")], False),
        _yolo(_FALLING[:8], False),
    ),
    "chinese-print": (
        "loss-not-decreasing",
        _zh([0.6931] * 8, [50.0] * 8),
        _zh(_FALLING[:8], [50.0 + 5 * i for i in range(8)]),
    ),
    "detectron2-max-mem": (
        "gpu-memory-leak",
        _detectron2([2996 + 410 * i for i in range(8)]),
        _detectron2([2996] * 8),
    ),
    "mmdet-terms-and-total": ("loss-oscillates", _mmdet(_SWINGING), _mmdet(_FALLING)),
    "hf-markdown-table": (
        "overfitting",
        _hf_table(_FALLING[:8], [2.0, 1.8, 1.7, 1.75, 1.9, 2.1, 2.3, 2.6]),
        _hf_table(_FALLING[:8], [v * 1.05 for v in _FALLING[:8]]),
    ),
}


@pytest.mark.parametrize("name", LAYOUTS)
def test_the_layout_shows_its_symptom(name: str, index: Index) -> None:
    entry_id, sick, _ = LAYOUTS[name]
    found = [(m.entry.id, m.method) for m in diagnose(sick, index).matches]
    assert found and found[0] == (entry_id, "log"), found


@pytest.mark.parametrize("name", LAYOUTS)
def test_the_healthy_log_of_the_layout_gets_nothing(name: str, index: Index) -> None:
    _, _, healthy = LAYOUTS[name]
    assert diagnose(healthy, index).matches == (), healthy


# -- what the reader learnt ------------------------------------------------------------------------


def test_yolo_rows_take_roles_from_values_with_or_without_their_header() -> None:
    for header in (True, False):
        log = read(_yolo(_FALLING[:3], header))
        assert [p.epoch for p in log.series["loss"]] == [1, 2, 3]
        assert log.series["loss"][0].value == pytest.approx(1.9 * (1 + 0.6 + 0.25), rel=1e-3)
        assert log.series["memory"][0].value == pytest.approx(3.52 * 1024)
        assert "acc" not in log.series  # the validation rows' P and R are not the loss's terms


def test_a_headerless_column_that_moves_against_the_loss_within_0_1_is_a_metric() -> None:
    rows = [f"  {i}/50   {2.3 * 0.8**i:.4f}   {0.3 + 0.05 * i:.4f}" for i in range(1, 9)]
    log = read("\n".join(rows))
    assert log.series["loss"][0].value == pytest.approx(2.3 * 0.8, rel=1e-3)
    assert log.series["acc"][-1].value == pytest.approx(0.7)


def test_the_terms_of_a_loss_add_up_to_it_only_where_no_total_is_printed() -> None:
    log = read(
        "iter 3  loss_cls: 0.4  loss_bbox: 0.2\niter 4  loss_cls: 0.3  loss_bbox: 0.2  loss: 0.6"
    )
    assert [p.value for p in log.series["loss"]] == pytest.approx([0.6, 0.6])


def test_a_gans_two_losses_are_no_terms_of_one() -> None:
    log = read("\n".join(f"[{i}/200] d_loss: 0.69 g_loss: {1 + i % 3}" for i in range(10)))
    assert "loss" not in log.series


def test_memory_with_a_bare_unit_letter() -> None:
    log = read(
        "iter: 19  total_loss: 1.750  max_mem: 2996M\niter: 39  total_loss: 1.7  max_mem: 3.1G"
    )
    assert [p.value for p in log.series["memory"]] == pytest.approx([2996, 3.1 * 1024])


def test_keras_epoch_line_gives_its_epoch_to_the_numbers_below() -> None:
    log = read("Epoch 3/50\n120/120 [======] - 12s 98ms/step - loss: 0.6931 - accuracy: 0.5012")
    assert log.series["loss"][0].epoch == 3
    assert log.series["acc"][0].value == pytest.approx(0.5012)


def test_a_bare_rows_counts_close_its_loss_terms() -> None:
    """YOLOv5's results rows go on after the labels and image size with the validation's
    precision, recall and mAP: summed into the loss, they made 0.109 read as 3.48 and the mAP's
    stillness a loss that does not fall."""
    _, text = _paste(LOGS / "yolov5-1914-results-rows.txt")
    first = read(text).series["loss"][0].value
    assert abs(first - (0.0309 + 0.01598 + 0.007565 + 0.05444)) < 1e-9
