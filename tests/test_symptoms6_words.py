"""Training behaviour told in users' words (branch symptoms6): the wordings real posts used that no
phrase or pattern read before, each beside the near-misses that must stay unanswered or keep their
own answer. The posts themselves are under tests/data/real/symptoms6/."""

from __future__ import annotations

import pytest

from diagnoser.knowledge.index import Index
from diagnoser.text.match import diagnose


def _first(said: str, index: Index) -> str | None:
    best = diagnose(said, index).best
    return best.entry.id if best else None


SAID = [
    # https://github.com/PatrickHua/SimSiam/issues/55
    ("slow-training-dataloader", "Why are training and testing so slow?"),
    # https://github.com/bestfitting/instance_level_recognition/issues/2
    ("slow-training-dataloader", "the training speed is slower and slower.. io utils is 100%"),
    # https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/457
    ("slow-training-dataloader", "why is my epoch making keep getting slower?"),
    # https://github.com/ankanbhunia/PIDM/issues/55
    (
        "slow-training-dataloader",
        "Why do I use 4090 to train an epoch takes two to three hours  Is it too slow",
    ),
    # https://github.com/Anonymous1234321/GuideFormer/issues/2
    ("slow-training-dataloader", "train one epoch takes one day in 2 rtx3090,why is so slow"),
    # https://github.com/Thinklab-SJTU/twns/issues/3
    ("slow-training-dataloader", "为啥训练的速度这么慢呢？"),
    # https://github.com/ultralytics/ultralytics/issues/5891
    ("train-eval-mismatch", "In eval mode, performance deteriorates sharply."),
    # https://github.com/layumi/Person_reID_baseline_pytorch/issues/218
    ("train-eval-mismatch", "Result of inference is better with .eval() turned off"),
    # https://github.com/liyunsheng13/micronet/issues/21
    ("loss-not-decreasing", "My loss down to 0.75 and its hard to converge（150epochs）."),
    # https://github.com/littlepai/Unofficial-Zhihu-API/issues/5
    ("loss-not-decreasing", "为什么训练了快20轮准确率还是0，而且学习率很低"),
    # a fix the user tried that did not help names the fix, not the family: the NaN left is nan-loss
    # (issue 23's "用了梯度裁剪，但还是出现了nan"; https://github.com/mravanelli/pytorch-kaldi/issues/154)
    ("nan-loss", "用了梯度裁剪，但还是出现了nan"),
    (
        "nan-loss",
        "I tried with use torch.nn.utils.clip_grad_norm_(nns[net].parameters(), 0.1) but i got nan "
        "in loss.",
    ),
    # "bus error" said in words (https://github.com/XPixelGroup/BasicSR/issues/59)
    (
        "dataloader-shared-memory",
        "Hi! I met a question about bus error using docker durring training.",
    ),
    # an error named by its function (issue 23's "load_state_dict报错"); optimizer's is its own
    ("state-dict-mismatch", "加载预训练模型的时候 load_state_dict 报错了"),
    ("optimizer-state-mismatch", "恢复训练时 optimizer.load_state_dict 报错"),
    # a training "stuck on a fixed value" is its metrics', not a hang that puts the rest aside
    # (https://github.com/yanx27/Pointnet_Pointnet2_pytorch/issues/213)
    (
        "loss-not-decreasing",
        "training is stuck on a fixed value\n\n@yanx27 ,\nHello yan, I am facing a problem when I "
        "train the model the Instance accuracy and class accuracy are stuck on a fixed value.",
    ),
]


@pytest.mark.parametrize(("entry_id", "said"), SAID)
def test_the_wording_gets_its_family(entry_id: str, said: str, index: Index) -> None:
    assert _first(said, index) == entry_id


# near-misses: a time that is a fact, not a complaint; a slowdown now and then (en-forum-093) and a
# whole run's length (held6-078), both labelled null; memory that comes back down; a question
# about eval() with no result said to be better; a loss stuck while another model is better
QUIET = [
    "The paper says one epoch takes 3 hours on 8 GPUs, how many epochs did you train?",
    "训练100个epoch大概需要七天左右，这可能是哪里出现了问题呢",
    "Speed of training the VAE slows down by > 10x in some cases.",
    "Memory keeps increasing during a single training epoch, after which it drops back to normal "
    "levels.",
    "显存一直增长，每个epoch结束之后才会释放",
    "Is it normal that inference is slower with model.eval() turned off?",
    "the validation loss doesn't decrease. The model of 50th epoch is clearly better than the 1st "
    "epoch.",
    "It converges, but it is slow to converge compared to the paper",
]


@pytest.mark.parametrize("said", QUIET)
def test_the_near_miss_stays_unanswered(said: str, index: Index) -> None:
    assert _first(said, index) is None


KEEPS = [
    # an epoch's time beside the post's complaint does not outrank it
    ("loss-not-decreasing", "My loss is not decreasing after 10 epochs. Each epoch takes 2 hours."),
    ("loss-not-decreasing", "每个epoch需要1小时，loss一直不下降"),
    # "better than" of another model is no later epoch doing better
    (
        "loss-not-decreasing",
        "The model is not learning at all, the loss is stuck at 2.3 even though this model is "
        "better than the previous one",
    ),
    # a run stuck at a step is still a hang: what it says further on is put aside
    (
        None,
        "training is stuck at 17/200\n\nNo error is printed. In an earlier run the loss was not "
        "decreasing either.",
    ),
    ("gpu-memory-leak", "显存一直增长直到OOM"),
    # clipping tried and the gradients still explode: the explosion is still what is said
    ("gradient-explosion", "加了梯度裁剪还是梯度爆炸"),
    # the reference scripts' `loss: <now> (<average>)` (https://github.com/pytorch/vision/issues/997,
    # maskrcnn-benchmark's trainer): an average left at nan by one bad step beside a finite loss now
    # is not the post's complaint; a loss that is nan now still is
    (
        "loss-not-decreasing",
        "The loss does not decrease, it stays around 0.69.\n"
        "Epoch: [3]  [ 10/231]  eta: 0:03:01  lr: 0.000195  loss: 0.6931 (nan)  time: 0.8225\n"
        "Epoch: [3]  [ 20/231]  eta: 0:02:34  lr: 0.000369  loss: 0.6932 (nan)  time: 0.6384\n"
        "Epoch: [3]  [ 30/231]  eta: 0:02:20  lr: 0.000543  loss: 0.6930 (nan)  time: 0.6309",
    ),
    (
        "nan-loss",
        "Epoch: [3]  [ 10/231]  eta: 0:03:01  lr: 0.000195  loss: nan (nan)  time: 0.8225\n"
        "Epoch: [3]  [ 20/231]  eta: 0:02:34  lr: 0.000369  loss: nan (nan)  time: 0.6384",
    ),
]


@pytest.mark.parametrize(("entry_id", "said"), KEEPS)
def test_the_other_answer_keeps(entry_id: str | None, said: str, index: Index) -> None:
    assert _first(said, index) == entry_id
