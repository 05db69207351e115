"""Descriptions: every entry named in a sentence in both languages; symptoms in real log formats."""

from __future__ import annotations

import json
import math
import re

import pytest

from diagnoser.knowledge.index import Index
from diagnoser.knowledge.schema import Entry
from diagnoser.text.match import diagnose
from diagnoser.text.symptoms import detect
from diagnoser.text.training_log import read

from .conftest import ENTRIES, cli, entry_params, run_reproduction, skip_if_needs


def _phrases() -> list[pytest.param]:  # type: ignore[type-arg]
    return [
        pytest.param(e.id, phrase, id=f"{e.id}-{lang}-{i}")
        for e in ENTRIES
        for lang in ("en", "zh")
        for i, phrase in enumerate(getattr(e.phrases, lang))
    ]


@pytest.mark.parametrize(("entry_id", "phrase"), _phrases())
def test_every_phrase_names_its_entry_first(entry_id: str, phrase: str, index: Index) -> None:
    # First and alone at its score: a phrase two entries answer to is too vague to name either.
    around = (
        f"请问{phrase}怎么办" if re.search("[\u4e00-\u9fff]", phrase) else f"I get {phrase}, why?"
    )
    for sentence in (phrase, around):
        ranked = [(m.entry.id, m.score) for m in diagnose(sentence, index).matches]
        assert ranked and ranked[0][0] == entry_id, ranked
        assert all(score < ranked[0][1] for _, score in ranked[1:]), ranked


def test_a_description_piped_to_the_cli_names_the_error() -> None:
    result = cli("--json", stdin="训练的时候 CUDA 内存不足，怎么办")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["matches"][0]["id"] == "cuda-oom"


@pytest.mark.parametrize("entry", entry_params("symptom"))
def test_the_fixed_runs_log_is_healthy(entry: Entry) -> None:
    proc = run_reproduction(entry.id, fixed=True)
    skip_if_needs(proc)
    result = cli("--json", stdin=proc.stdout + proc.stderr)
    # the fixed run's own output beside the diagnosis, so that a failure says what was read
    assert result.returncode == 1, (
        result.stdout,
        result.stderr,
        proc.stdout[-2000:],
        proc.stderr[-4000:],
    )


# Silent families (a runtime check's finding names them, not the log's numbers) are left out.
@pytest.mark.parametrize(
    "entry",
    [
        p
        for p in entry_params("symptom")
        if p.values[0].symptoms and p.values[0].symptoms.log_signal
    ],
)
def test_the_evidence_quotes_the_logs_own_numbers(entry: Entry) -> None:
    proc = run_reproduction(entry.id)
    skip_if_needs(proc)
    for lang in ("en", "zh"):
        # the log on stdout; a check's finding line (diagnoser.watch's) on stderr
        out = cli("--lang", lang, stdin=proc.stdout + proc.stderr).stdout
        evidence = next(line for line in out.splitlines() if line.startswith("  → "))
        numbers = [w for w in evidence.replace("，", " ").split() if any(c.isdigit() for c in w)]
        assert numbers, evidence


NO_SYMPTOM = [
    "The build finished in 3 minutes.",
    "how do I install pytorch on windows",
    "my loss is 0.69 at the start",
    "我想问一下 DataLoader 怎么用",
    "Overwriting existing checkpoint at epoch 3",  # no typo of "overfitting"
    "never mind, converting the model to onnx works now",
    # questions about PyTorch that name no problem the knowledge base explains
    "how do I save a model in pytorch",
    "what is the difference between view and reshape",
    "my gpu is an rtx 3090 with 24gb",
    "the training finished and accuracy is 92%",
    "how many epochs should I train, is batch size 32 or 64 better",
    "the shape of my tensor is (3, 224, 224)",
    "怎么保存模型",
    "如何用多张显卡训练",
    "训练完成了，准确率 92%",
    "我想把模型导出成 onnx",
    "数据集应该怎么划分训练集和验证集",
    "我的显卡是 3090，24G 显存",
    "学习率应该设多少，batch size 设多大合适",
]


@pytest.mark.parametrize("text", NO_SYMPTOM)
def test_sentences_that_are_no_symptom_get_nothing(text: str, index: Index) -> None:
    assert diagnose(text, index).matches == ()


def _typos() -> list[pytest.param]:  # type: ignore[type-arg]
    """The two commonest typos, a swap and a dropped letter, in each phrase's longest word."""
    params = []
    # Typos are corrected towards the symptoms' words (index.vocabulary), not the error names.
    for e in (e for e in ENTRIES if e.kind == "symptom"):
        for i, phrase in enumerate(e.phrases.en):
            words = [w for w in re.findall(r"[A-Za-z]{7,}", phrase)]
            if words:
                w = max(words, key=len)
                for kind, typo in (("swap", w[:3] + w[4] + w[3] + w[5:]), ("drop", w[:4] + w[5:])):
                    params.append(
                        pytest.param(e.id, phrase.replace(w, typo, 1), id=f"{e.id}-{i}-{kind}")
                    )
    return params


@pytest.mark.parametrize(("entry_id", "sentence"), _typos())
def test_typos_in_a_sentence_still_find_the_symptom(
    entry_id: str, sentence: str, index: Index
) -> None:
    matches = diagnose(sentence, index).matches
    assert matches and matches[0].entry.id == entry_id, [(m.entry.id, m.score) for m in matches]


def test_one_spike_that_recovers_is_no_explosion() -> None:
    log = read(
        "step 1 | loss 3.2 | grad_norm 0.5\nstep 2 | loss 3.3 | grad_norm 4100\n"
        "step 3 | loss 3.1 | grad_norm 0.6\nstep 4 | loss 2.9 | grad_norm 0.5\n"
    )
    assert "grad-explodes" not in detect(log)


def test_per_layer_gradient_norms_of_a_million_are_an_explosion() -> None:
    # a deep MLP initialised with std 0.5 whatever its width, one backward (the program
    # tests/data/programs/deep_mlp_big_init_grad_norms.py prints these)
    log = read(
        "loss: 1.1408e+10\n"
        "0.weight     grad norm: 1.2341e+10\n"
        "2.weight     grad norm: 1.4014e+10\n"
        "4.weight     grad norm: 1.4582e+10\n"
    )
    found = detect(log)["grad-explodes"]
    assert found.values["huge_params"] == "3" and found.values["peak_param"] == "4.weight"


def test_one_large_layer_gradient_or_ordinary_ones_are_no_explosion() -> None:
    one = read("0.weight grad norm: 2.1e+06\n2.weight grad norm: 0.31\n4.weight grad norm: 0.2\n")
    ordinary = read("0.weight grad norm: 12.5\n2.weight grad norm: 3.1\n4.weight grad norm: 0.9\n")
    assert "grad-explodes" not in detect(one)
    assert "grad-explodes" not in detect(ordinary)


HEALTHY = "\n".join(
    f"epoch {i:3d} | train_loss {2.3 * 0.8**i:.4f} | val_loss {2.4 * 0.82**i:.4f} | "
    f"val_acc {min(0.99, 0.1 + 0.08 * i):.3f}"
    for i in range(1, 21)
)


def test_a_healthy_log_gets_nothing(index: Index) -> None:
    assert diagnose(HEALTHY, index).matches == ()


# -- reading training logs ------------------------------------------------------------------------

FORMATS = {
    "plain": ("epoch 3 loss 0.42 acc 0.8", {"loss": 0.42, "acc": 0.8}, 3),
    "pipes": ("epoch  1 | loss 0.7047 | acc 0.479", {"loss": 0.7047, "acc": 0.479}, 1),
    "brackets": ("Epoch [5/15], Loss: inf", {"loss": math.inf}, 5),
    "keras": (
        "Epoch 1/10 - loss: -0.0000 - accuracy: 0.5 - val_loss: 0.7",
        {"loss": -0.0, "acc": 0.5, "val_loss": 0.7},
        1,
    ),
    "hf-dict": (
        "{'loss': 0.6931, 'grad_norm': 1.5, 'learning_rate': 5e-05, 'epoch': 2.0}",
        {"loss": 0.6931, "grad_norm": 1.5},
        2,
    ),
    "json": (
        '{"epoch": 4, "train_loss": 0.5, "eval_loss": 0.7, "eval_accuracy": 0.61}',
        {"loss": 0.5, "val_loss": 0.7, "val_acc": 0.61},
        4,
    ),
    "lightning": (
        "Epoch 3: 100%|██████████| 50/50 [00:01<00:00, 30.2it/s, loss=0.42, v_num=0, val_loss=0.5]",
        {"loss": 0.42, "val_loss": 0.5},
        3,
    ),
    "memory": (
        "epoch 8 | val_loss 2.3115 | memory   642.9 MB",
        {"val_loss": 2.3115, "memory": 642.9},
        8,
    ),
    "memory-gib": ("epoch 2 loss 1.0 gpu_mem 1.5GiB", {"loss": 1.0, "memory": 1536.0}, 2),
    "timings": (
        "epoch 2 | loss 2.37 | data 0.61s | compute 5ms | waiting on data 99% of the time",
        {"loss": 2.37, "data_time": 0.61, "compute_time": 0.005, "data_wait_pct": 99.0},
        2,
    ),
}


@pytest.mark.parametrize("name", FORMATS)
def test_log_formats(name: str) -> None:
    line, expected, epoch = FORMATS[name]
    log = read(line)
    got = {k: v[0].value for k, v in log.series.items()}
    assert got == expected
    assert all(p.epoch == epoch for points in log.series.values() for p in points)


def test_nan_evidence_names_the_step_and_the_value_before() -> None:
    log = read("step 1199 loss 3.2e+07\nstep 1200 loss nan\n")
    finding = detect(log)["nan"]
    assert finding.values == {
        "value": "nan",
        "at": "step 1200",
        "exploded_from": "3.2e+07",
        "first": "3.2e+07",
    }


def test_grad_none_lines() -> None:
    log = read("backbone.0.weight    grad: None\nhead.weight          grad: norm=0.1804\n")
    assert log.grad_none == ["backbone.0.weight"] and log.grad_set == ["head.weight"]


# -- the tier-4 detectors: what they must not claim -------------------------------------------


def test_per_parameter_gradient_norms_are_read_in_model_order() -> None:
    log = read(
        "  0.weight   grad norm 1.39e-09\n"
        "  fc1.weight: grad_norm=3.2e-01\n"
        "  head.weight          grad: norm=0.1804\n"
    )
    assert list(log.param_grads) == ["0.weight", "fc1.weight", "head.weight"]
    assert log.param_grads["0.weight"] == [1.39e-09]


def test_step_phases_and_batch_size_are_read() -> None:
    log = read(
        "batch_size=2\n"
        "epoch 1 | step 4 | data 0.3ms | forward 0.4ms | backward 0.5ms | optimizer 0.1ms"
        " | metrics 31ms\n"
    )
    got = {k: round(v[0].value, 6) for k, v in log.series.items()}
    assert got == {
        "batch_size": 2.0,
        "data_time": 0.0003,
        "compute_time": 0.0004,
        "backward_time": 0.0005,
        "optimizer_time": 0.0001,
        "metrics_time": 0.031,
    }


def test_noisy_batch_losses_that_fall_are_no_oscillation() -> None:
    noisy = [2.3, 1.1, 1.6, 0.7, 0.9, 0.4, 0.6, 0.2, 0.35, 0.15, 0.3, 0.1]
    log = read("\n".join(f"step {10 * i} | loss {v}" for i, v in enumerate(noisy, 1)))
    assert "oscillates" not in detect(log)


def test_a_gap_that_opens_late_is_not_batchnorm() -> None:
    """Overfitting starts with train and eval close; BatchNorm on tiny batches does not."""
    rows = [(0.60, 0.58), (0.80, 0.70), (0.95, 0.72), (0.99, 0.70)]
    text = "batch_size=4\nBatchNorm2d(64, eps=1e-05)\n" + "\n".join(
        f"epoch {i} | acc {a} | val_acc {v}" for i, (a, v) in enumerate(rows, 1)
    )
    assert "bn-small-batch" not in detect(read(text))


def test_data_time_is_compared_with_the_whole_step() -> None:
    """Data loading as long as the forward pass alone is no bottleneck when backward, optimizer
    and metrics take ten times more."""
    line = "step {} | data 0.4ms | forward 0.4ms | backward 0.5ms | metrics 4ms"
    found = detect(read("\n".join(line.format(i) for i in range(1, 5))))
    assert "data-bound" not in found and found["step-overhead"].values["pct"] == "75"
