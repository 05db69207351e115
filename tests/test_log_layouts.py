"""Layouts and names the training-log reader used to misread (issue 23), on real lines: a memory
in % (a share, not an amount), a GAN's two models' losses (never the loss, nor terms of it), keys
and values in brackets, a tqdm bar redrawn with carriage returns, a row stamped with its time, a
word cut short (`Accu`), a `batch_size` of 0.959. Whole pastes of these layouts, with their
sources and what they must be read as, are in tests/data/real/logs (test_real_logs.py)."""

from __future__ import annotations

import pytest

from diagnoser.text.training_log import canonical_key, read

# https://github.com/atnikos/teach/issues/27
TEACH = (
    "[13/12/22 10:28:04][teach.callback.progress][INFO] -    Epoch 5: Train_rf 4.855e-01"
    "   Memory 10.0%\n"
    "[13/12/22 10:34:15][teach.callback.progress][INFO] -   Epoch 12: Train_rf 4.856e-01"
    "   Memory 9.8%"
)
# https://github.com/XPixelGroup/BasicSR/issues/269: `time (data): 0.365 (0.002)` is the time of a
# step, then (in brackets) the part of it spent waiting on data
BASICSR = (
    "2020-08-15 15:50:30,390 INFO: [My_ES..][epoch:207, iter:  20,100, lr:(1.000e-04,)] "
    "[eta: 1 day, 18:13:17, time (data): 0.365 (0.002)] l_g_pix: 3.1516e-04 "
    "l_g_percep: 5.2308e-01 l_g_gan: 4.2322e-02 l_d_real: 2.6469e-04 l_d_fake: 2.4991e-04"
)
# https://github.com/liuslnlp/CoupletAI/issues/2
COUPLET = (
    "2019-08-07 02:59:37,013 - __main__ - INFO - [epoch]: 199, [batch]: 23900, "
    "[loss]: 4.994150638580322"
)
# https://github.com/rhasspy/piper/issues/827: Lightning's bar, as the terminal got it
PIPER = [
    "Epoch 476:   0%|          | 0/79 [00:00<?, ?it/s, loss=16.8, v_num=1]",
    "Epoch 476:   1%|▏         | 1/79 [00:00<01:00,  1.29it/s, loss=16.8, v_num=1]",
    "Epoch 476:   3%|▎         | 2/79 [00:01<00:43,  1.77it/s, loss=16.9, v_num=1]",
    "Epoch 476:   4%|▍         | 3/79 [00:01<00:37,  2.02it/s, loss=16.9, v_num=1]",
    "Epoch 476:   5%|▌         | 4/79 [00:01<00:34,  2.17it/s, loss=16.8, v_num=1]",
]


def _values(text: str, name: str) -> list[float]:
    return [p.value for p in read(text).series.get(name, [])]


def test_a_memory_in_percent_is_a_share_not_an_amount() -> None:
    log = read(TEACH)
    assert "memory" not in log.series
    assert _values(TEACH, "loss") == [0.4855, 0.4856]  # the lines' loss is still read
    # the same in a table's column, and beside it an amount that is read
    table = "iter   loss     mem\n" + "\n".join(
        f"{50 * i}   {2.3 * 0.95**i:.4f}   {40 + 5 * i}%" for i in range(1, 6)
    )
    assert "memory" not in read(table).series
    assert _values("epoch 3 | loss 0.42 | mem 3.5G", "memory") == [3.5 * 1024]


@pytest.mark.parametrize(
    "name",
    # a GAN's models' losses and the discriminator's two terms, as GAN trainers name them
    [
        *("loss_D", "loss_G", "d_loss", "g_loss", "loss_dis", "loss_gen", "loss_D_fake"),
        *("loss_D_real", "g_adv_loss", "disc_loss", "critic_loss", "loss_G_GAN", "val_d_loss"),
    ],
)
def test_a_gan_models_loss_is_neither_the_loss_nor_a_term_of_it(name: str) -> None:
    assert canonical_key(name) is None


def test_the_best_loss_so_far_is_no_reading_of_the_loss() -> None:
    """icefall prints its parameters before the first step, 'best_train_loss': inf among them
    (k2-fsa/icefall#1392): the tracker's start value, not a loss that went infinite."""
    for name in ("best_train_loss", "best_valid_loss", "best_loss", "min_loss"):
        assert canonical_key(name) is None
    params = "{'best_train_loss': inf, 'best_valid_loss': inf, 'best_train_epoch': -1}"
    assert read(params).series == {}
    assert _values("epoch 1 | best_loss 0.9 | loss inf", "loss") == [float("inf")]


@pytest.mark.parametrize(
    ("name", "role"),
    # the terms of one loss, as detectors and VAEs name them, are still terms
    [
        *[("loss_cls", "loss_part"), ("s0.loss_bbox", "loss_part"), ("kl_loss", "loss_part")],
        *[("loss_rpn_bbox", "loss_part"), ("val_nll_loss", "val_loss_part"), ("Tot Loss", "loss")],
    ],
)
def test_a_loss_term_keeps_its_role(name: str, role: str) -> None:
    assert canonical_key(name) == role


def test_a_gan_log_gives_no_loss() -> None:
    """The discriminator's loss at 0 beside a generator's that climbs (a GAN failure mode, not a
    loss that is zero), in Chinese names as in English ones, and a term of either model."""
    # https://github.com/zhangxiann/PyTorch_Practice/issues/1
    dcgan = "[1/20][0/32]\tLoss_D: 0.0000\tLoss_G: 56.7433\tD(x): 1.0000\tD(G(z)): 0.0000 / 0.0000"
    zh = "第3轮 判别器损失: 0.0000 生成器损失: 12.3456"
    # https://github.com/bcmi/GracoNet-Object-Placement/issues/4: the generator's KL term is no
    # loss of the run
    graco = (
        "[Epoch 11/11] [Batch 3811/3880] [G - gan1: 6.830, gan2: 6.101, rec: 0.151, kld: 0.0976]"
        " [D - real: 0.428, fake1: 0.016, fake2: 0.023]"
    )
    for text in (dcgan, zh, BASICSR, graco):
        assert "loss" not in read(text).series, text


def test_chinese_logs_name_the_split_before_an_english_metric() -> None:
    """Chinese logs mix the names: "训练loss", "验证集Loss", "验证acc" are the training or
    validation loss and accuracy, as 训练损失 and 验证集准确率 are; a grad norm named only in
    Chinese (梯度范数) is read too."""
    line = "epoch 3 | 训练loss 0.7006 | 训练准确率 0.516 | 验证集Loss: 0.91 | 验证acc: 0.478"
    assert _values(line, "loss") == [0.7006]
    assert _values(line, "val_loss") == [0.91]
    assert _values(line, "acc") == [0.516]
    assert _values(line, "val_acc") == [0.478]
    assert _values("step 1 loss 2.7e+09 梯度范数 1.2e+12", "grad_norm") == [1.2e12]
    # "训练lossy" is no loss key
    assert "loss" not in read("epoch 1 训练lossy 0.5").series


def test_keys_and_values_in_brackets_are_read() -> None:
    assert _values(COUPLET, "loss") == [4.994150638580322]
    assert read(COUPLET).series["loss"][0].epoch == 199
    assert _values("epoch 3 loss[4.99]", "loss") == [4.99]
    assert _values("epoch 3 loss=(4.99)", "loss") == [4.99]


def test_a_bracket_that_is_no_key_of_the_number_after_it() -> None:
    # an index then the value: not an accuracy of 0
    assert _values("epoch 3 acc[0]: 0.5 acc[1]: 0.7", "acc") == []
    # a key in round brackets names what the number after it is not
    assert "data_time" not in read(BASICSR).series


def test_a_bar_redrawn_with_carriage_returns_is_read_at_every_drawing() -> None:
    """tqdm rewrites its line with \\r: a log written by `python train.py > log.txt` holds one
    physical line with every drawing, each a reading."""
    redrawn, printed = "\r".join(PIPER), "\n".join(PIPER)
    assert _values(redrawn, "loss") == _values(printed, "loss") == [16.8, 16.8, 16.9, 16.9, 16.8]
    assert _values(redrawn + "\r\n", "loss") == _values(printed, "loss")


def test_a_row_stamped_with_its_time_is_read_as_its_table() -> None:
    # https://github.com/ultralytics/yolov5/issues/6907 (a CI runner's stamps)
    rows = [
        "2023-08-02T15:00:42.3244865Z     49/1799      6.47G    0.03901   0.003032   0.003846"
        "         14        416:  34%|███▍      | 178/517 [00:37<01:13,  4.64it/s]",
        "2023-08-02T15:00:42.5347565Z     49/1799      6.47G      0.039   0.003029   0.003832"
        "         12        416:  35%|███▍      | 179/517 [00:37<01:12,  4.68it/s]",
    ]
    log = read("\n".join(rows))
    assert [round(p.value, 6) for p in log.series["loss"]] == [0.045888, 0.045861]
    assert [p.epoch for p in log.series["loss"]] == [49, 49]
    assert log.series["memory"][0].value == pytest.approx(6.47 * 1024)


def test_a_word_cut_short_is_the_word() -> None:
    # https://github.com/dxli94/WLASL/issues/74: the total loss, and the accuracy as `Accu`
    line = "Epoch 1 train Loc Loss: 0.6663 Cls Loss: 0.7506 Tot Loss: 0.7084 Accu :0.0000"
    log = read(line)
    assert _values(line, "loss") == [0.7084] and _values(line, "acc") == [0.0]
    assert set(log.series) == {"loss", "acc"}


def test_a_fractional_batch_size_is_no_batch_size() -> None:
    # https://github.com/dragonlee258079/DMT/issues/4
    line = (
        "2024-01-16 18:35:16,060 Whole iter step:1 - epoch progress:0/100 - total_loss:9.7075"
        " - f_co_bce:0.7395  batch_size: 0.9590245485305786"
    )
    assert "batch_size" not in read(line).series
    assert _values("epoch 2 | loss 0.5 | batch_size: 64", "batch_size") == [64.0]


def test_a_fraction_of_an_epoch_is_where_the_reading_was() -> None:
    """The Hugging Face Trainer counts epochs in fractions ('epoch': 0.01): each reading is at
    its own fraction, not all at epoch 0; a whole epoch printed as 3.0 is epoch 3."""
    lines = [
        "{'loss': 2.31, 'grad_norm': 1.2, 'learning_rate': 1.9e-05, 'epoch': 0.01}",
        "{'loss': 2.05, 'grad_norm': 1.1, 'learning_rate': 1.8e-05, 'epoch': 0.02}",
        "{'loss': 1.87, 'grad_norm': 0.9, 'learning_rate': 1.7e-05, 'epoch': 3.0}",
        "Epoch 4. loss 1.5",
    ]
    log = read("\n".join(lines))
    assert [p.at for p in log.series["loss"]] == ["epoch 0.01", "epoch 0.02", "epoch 3", "epoch 4"]
