"""Symptoms as users paste them: tables, other tools' output, warnings and prose.

The numbers come from the reproductions' real output, re-laid the way a user shows them (a
Markdown table in an issue, a tab-separated export, HF Trainer's dict lines); the layout of
nvidia-smi is the tool's own.
"""

from __future__ import annotations

import re

import pytest

from diagnoser.knowledge.index import Index
from diagnoser.text.match import diagnose

from .conftest import run_reproduction


def _epochs(family: str) -> list[dict[str, str]]:
    """The `name value` pairs of each line of a reproduction's real log."""
    out = run_reproduction(family).stdout
    rows = [
        dict(re.findall(r"([a-z_]+)\s+([-+\d.e]+|nan|inf)(?=\s*(?:\||$))", line))
        for line in out.splitlines()
    ]
    return [r for r in rows if len(r) >= 2]


def _markdown(rows: list[dict[str, str]]) -> str:
    names = list(rows[0])
    head = "| " + " | ".join(n.replace("_", " ").title() for n in names) + " |"
    rule = "|" + "|".join("---" for _ in names) + "|"
    return "\n".join([head, rule] + ["| " + " | ".join(r[n] for n in names) + " |" for r in rows])


def _tsv(rows: list[dict[str, str]]) -> str:
    names = list(rows[0])
    return "\n".join(["\t".join(names)] + ["\t".join(r[n] for n in names) for r in rows])


def _hf_trainer(rows: list[dict[str, str]]) -> str:
    return "\n".join(
        f"{{'loss': {r['loss']}, 'grad_norm': {r['grad_norm']}, 'learning_rate': 5e-05, "
        f"'epoch': {int(r['step']) / 10:.2f}}}"
        for r in rows
    )


LAYOUTS = {
    "markdown-table": ("overfitting", _markdown),
    "tab-separated": ("overfitting", _tsv),
    "hf-trainer-dicts": ("gradient-explosion", _hf_trainer),
}


@pytest.mark.parametrize("name", LAYOUTS)
def test_a_log_re_laid_as_a_table_still_shows_its_symptom(name: str, index: Index) -> None:
    family, lay_out = LAYOUTS[name]
    text = lay_out(_epochs(family))
    matches = diagnose(text, index).matches
    assert matches and matches[0].entry.id == family, (text, matches)


def _smi(util: int, used: int = 9584) -> str:
    """One GPU's rows as nvidia-smi prints them (driver 390 layout)."""
    return (
        "+-------------------------------+----------------------+----------------------+\n"
        "| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
        "| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n"
        "|===============================+======================+======================|\n"
        "|   0  GeForce GTX 108...  Off  | 00000000:01:00.0  On |                  N/A |\n"
        f"| 31%   58C    P2    70W / 250W |  {used:>6}MiB / 11170MiB "
        f"|    {util:>3}%      Default |\n"
        "+-------------------------------+----------------------+----------------------+\n"
    )


def test_nvidia_smi_with_the_gpu_idle_under_a_model_is_a_data_bottleneck(index: Index) -> None:
    best = diagnose("training is slow, nvidia-smi shows:\n" + _smi(0), index).best
    assert best is not None and best.entry.id == "slow-training-dataloader"
    assert best.values["gpu_util"] == "0"
    swinging = diagnose(_smi(0) + _smi(93) + _smi(2) + _smi(0), index).best
    assert swinging is not None and swinging.entry.id == "slow-training-dataloader"


@pytest.mark.parametrize("snapshot", [_smi(97), _smi(0, used=3)], ids=["busy", "no-process"])
def test_nvidia_smi_of_a_busy_or_empty_gpu_is_no_symptom(snapshot: str, index: Index) -> None:
    assert diagnose(snapshot, index).matches == ()


def test_a_loss_printed_with_two_decimals_may_not_be_zero(index: Index) -> None:
    # The loss-all-zero reproduction's real log, printed with two decimals instead of four.
    log = run_reproduction("loss-all-zero").stdout.replace("0.0000", "0.00")
    best = diagnose(log, index).best
    assert best is not None and best.entry.id == "loss-all-zero"
    assert best.values["printed"] == "0.00" and best.score < 90
    assert (
        "printed"
        not in (diagnose(run_reproduction("loss-all-zero").stdout, index).best or best).values
    )


def test_five_wobbling_readings_are_no_confident_plateau(index: Index) -> None:
    # backward-twice --fixed trains five chunks; their losses wobble around one value.
    proc = run_reproduction("backward-twice", fixed=True)
    matches = diagnose(proc.stdout + proc.stderr, index).matches
    assert all(m.score <= 75 for m in matches if m.entry.id == "loss-not-decreasing"), matches


@pytest.mark.parametrize(
    ("entry_id", "sentence"),
    [
        (
            "overfitting",
            "val loss goin up while train loss keeps going donw, what am i doing wrong",
        ),
        ("overfitting", "验证集loss一直往上涨，训练集loss还在降"),
        ("gpu-memory-leak", "gpu memory keeps growing every iteration until it runs out"),
        ("gpu-memory-leak", "显存每个epoch都在涨，最后爆显存"),
    ],
)
def test_a_symptom_described_in_prose(entry_id: str, sentence: str, index: Index) -> None:
    ranked = [m.entry.id for m in diagnose(sentence, index).matches]
    assert ranked and ranked[0] == entry_id, ranked
