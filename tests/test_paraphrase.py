"""An error retold in Chinese, without its message: the entry whose phrases say the same things
in other words; and nothing for what is not a PyTorch error, or not an error at all."""

from __future__ import annotations

import pytest

from diagnoser.knowledge.index import Index
from diagnoser.text.match import diagnose
from diagnoser.text.paraphrase import LEXICON, concepts, paraphrased_entries

RETOLD = {
    "无法保存模型权重 报错": "checkpoint-write-failed",
    "报错说 mat1 和 mat2 的形状不能相乘": "shape-matmul",
    "运行的时候提示两个矩阵形状不能相乘": "shape-matmul",
    # ("不在同一个设备上" is a phrase of its own, said word for word)
    "报错说两个张量所在的设备不一样，一个在 cuda:0 一个在 cpu": "device-mismatch",
    "训练时报错，模型和输入数据的设备不一样": "device-mismatch",
    "报错说 DataLoader 的 worker 意外退出了": "dataloader-worker-killed",
    "报错说 DataLoader 的子进程被 kill 了": "dataloader-worker-killed",
    "提示梯度计算需要的变量被原地操作修改了": "inplace-modified",
    "加载预训练权重的时候报错，说缺少一些 key": "state-dict-mismatch",
    "报错: 端口已经被占用了": "address-in-use",
    "提示 NVIDIA driver 的版本太低了": "driver-too-old",
    "报错说这个 tensor 的 view 不连续": "view-non-contiguous",
    # users' titles and first lines, as written
    # https://github.com/philipy1219/ComfyUI-TaylorSeer/issues/14 (inconsistent is 不一致)
    "Device inconsistency error occurred when using flux1-fill-dev": "device-mismatch",
    # https://github.com/modelscope/FunASR/issues/2006
    "多级多卡分布式训练过程中，NCCL会报超时错误，请问如何解决": "nccl-error",
    # https://github.com/parksunwoo/ocr_kor/issues/14 (English, one line, an error cue)
    "for evaluation, when loading weight, mismatch error occur": "state-dict-mismatch",
    # https://github.com/VinAIResearch/WaveDiff/issues/17
    # a mismatch said is an error said: its concepts then say which
    "size mismatch when loading pretrained weights": "state-dict-mismatch",
    "The model fails to load due to size mismatches between the checkpoint and the current "
    "model definition.": "state-dict-mismatch",
    # https://github.com/huggingface/peft/issues/568: a longer English post, whose one line of
    # prose that reports an error says which
    "Error with PEFT-LoRA for GPT-2 with XSUM\n\nSo I am trying to fine tune using the hugging "
    "face PEFT library and using LORA. I keep getting this error, the matrices are the wrong "
    "sizes and i can't multiply them.\n\nI have tried updating to latest PEFT by pulling from "
    "the git. `%pip install -U git+https://github.com/huggingface/peft.git`\n\nI thought the "
    "`fan_in_fan_out` should be true for GPT2 but when I try create the model when it is true it "
    "says the target layer is torch.nn.linear and sets `fan_in_fan_out` to false again.\n\nThis "
    "set-up has worked with 3 other PEFT methods, p-tuning, prefix tuning and prompt tuning but "
    "not LORA.": "shape-matmul",
}


NAMED = {
    # a device mismatch whatever the two things are; the checkpoint's keys said not to fit
    "报错说输入和权重不在同一个设备上": "device-mismatch",
    "加载模型时 key 对不上": "state-dict-mismatch",
    "报错说找不到 GPU": "no-cuda-gpus",
    "nccl 通信超时": "nccl-error",
    # and the same in English users' words
    "I run out of GPU memory after a few batches": "cuda-oom",
    "the state dict keys don't match when loading the checkpoint": "state-dict-mismatch",
    "torch.load fails with weights_only error": "weights-only-load",
    "shared memory error in dataloader": "dataloader-shared-memory",
    # https://github.com/Megvii-BaseDetection/YOLOX/issues/1635: "missing keys in the state dict",
    # a phrase since round 20 (it was read as a retelling before)
    "Load model trained on custom dataset\n\nI have trained yolox_s model on a custom dataset "
    "with 1 class. I am not able to load the model state dict because of missing keys in the "
    "state dict. Need some help here thank you.": "state-dict-mismatch",
}


@pytest.mark.parametrize("sentence", NAMED)
def test_a_phrase_said_word_for_word_finds_its_entry(sentence: str, index: Index) -> None:
    best = diagnose(sentence, index).best
    assert best is not None and best.entry.id == NAMED[sentence], diagnose(sentence, index)


@pytest.mark.parametrize("sentence", RETOLD)
def test_an_error_retold_in_chinese_finds_its_entry(sentence: str, index: Index) -> None:
    best = diagnose(sentence, index).best
    assert best is not None and best.entry.id == RETOLD[sentence], diagnose(sentence, index)
    assert best.method == "phrase" and best.score < 84  # below a phrase said word for word


NOT_RETOLD = [
    "pip 安装 torch 报错，找不到对应的版本",  # an install problem named by no concept pair
    "运行报错 找不到文件",
    "我的 yolov5 训练的时候报错了，求助",  # an error, but not which
    "conda 创建环境失败，提示网络错误",
    "两个矩阵形状不能相乘是什么意思",  # a question about matmul, not an error
    "训练时显存占用一直很稳定",  # a behaviour, not an error: no error word
    "batch_size 已经设置到 3 了还是报错",  # batch size is one concept, not "batch" and "size"
    "The shapes cannot be multiplied",  # English with no word of an error: a question, a note
    # English over several lines is a log or code, whose words name concepts by chance
    "epoch 3 weight load mismatch\nerror count 0",
    # of a longer English post, a line of prose whose "error" is a metric, reported by no verb
    # (devset held6-066): the batch's size and "the same model" name no mismatch that failed
    "There is a problem with the 3-pixel error code in\n\nWhen I change the size of the batch, "
    "the same model calculates different errors！！！\nbatch=1 ，3-pixel error=1.520\nbatch=3，"
    "3-pixel error change to  1.623\n\nCan anyone explain the problem？",
    # https://github.com/Fafa-DL/Awesome-Backbones/issues/82: loading failed, but which error
    # (corrupted file, missing keys, weights_only) it does not say: every checkpoint entry ties
    "加载权重文件失败",
    # https://github.com/hse-cs/waggon/pull/18: float/double types differ, which the generic dtype
    # entry, the attention mask's and the transform's phrases all say equally
    "Fixed runtime error with different types of double/float during DGP training",
    # asking how to solve it, or calling it a problem, is said of behaviours as much as errors
    "训练和验证的 batch size 不一样怎么解决",
    "training with different batch size gives different loss, is it a problem?",
    # a user's words (devset zh-045): DataLoader workers "出错", which error is only in a
    # screenshot; a worker's exception, shared memory and CUDA in a fork are retold equally well
    "dataloader的num_workers参数指加载线程的数量，但是我的电脑一使用多线程就出错",
    # multi-GPU training whose child processes are killed (devset zh-100): the launcher's children,
    # not DataLoader workers
    "请问我运行单卡正常，但运行多卡的时候，无论是lora还是ptuning都会报下面这个错误\n"
    "相同的问题，单卡正常，设置多卡时，子进程会被kill。搞不清楚原因",
    # what cannot be done is part of what is retold: a model that cannot be created or used, or a
    # checkpoint that cannot be read, is no checkpoint that cannot be saved (devset users14b-014,
    # AILab-CVC/UniRepLKNet#9: timm's "Unknown model" beside `in_22k_pretrained=True`)
    "您好，无法使用timm创建模型\n\n都提示Unknown model",
    "报错：无法使用预训练模型",
    "提示无法读取 checkpoint",
]


@pytest.mark.parametrize("sentence", NOT_RETOLD)
def test_what_is_not_a_retold_error_gets_no_paraphrase_match(sentence: str, index: Index) -> None:
    matches = diagnose(sentence, index).matches
    assert all(m.score != 80 for m in matches), matches


def test_an_entry_counts_the_concepts_of_all_its_matched_phrases(index: Index) -> None:
    # "loading weights" alone is said by every checkpoint entry; with "mismatch" it is
    # state-dict-mismatch's, whose phrases name both pairs
    assert paraphrased_entries("权重加载报错", index) == set()
    assert paraphrased_entries("权重加载报错，说不匹配", index) == {"state-dict-mismatch"}


# https://github.com/hua-ops/bearingPlatform_hua/issues/3 (its title): "维度不匹配" is a phrase of
# shape-matmul, but the sentence says loading a weights file into a model
LOADED_INTO_A_MODEL = (
    "错误提示说正在尝试将一个包含7个层的权重文件加载到一个只有4个层的模型中，"
    "导致了维度不匹配的错误。"
)


def test_a_sentence_retelling_more_than_a_generic_phrase_finds_the_narrower_error(
    index: Index,
) -> None:
    matches = diagnose(LOADED_INTO_A_MODEL, index).matches
    assert [m.entry.id for m in matches] == ["state-dict-mismatch"], matches
    # the generic phrase alone, or with nothing narrower retold, keeps its entry
    assert diagnose("报错说维度不匹配", index).best.entry.id == "shape-matmul"  # type: ignore[union-attr]


def test_gpu_memory_said_to_be_not_enough_is_cuda_oom(index: Index) -> None:
    # https://github.com/vincentfung13/MINE/issues/13: no error word, the phrase as said
    sentence = "When using 1060-3g inference, the GPU memory is not enough, how should I modify it?"
    best = diagnose(sentence, index).best
    assert best is not None and best.entry.id == "cuda-oom", diagnose(sentence, index)


# 显存 is the GPU's memory: said full or overflowing in an error, it is the GPU's OOM. 内存 may
# be host RAM: such sentences keep sharing it with the host-memory errors.
@pytest.mark.parametrize(
    ("url", "sentence"),
    [
        (
            "https://github.com/sdc17/UPop/issues/28",
            "您好，我在试运行您的代码的时候，显示我的显存被占满。报错信息如下：",
        ),
        ("https://github.com/lllyasviel/FramePack/issues/195", "遇到了显存爆满问题"),
        (
            "https://github.com/jingyaogong/minimind/issues/522",
            "求问为什么训练一段时间后就会溢出显存",
        ),
    ],
)
def test_gpu_memory_that_fills_in_an_error_is_cuda_oom(
    url: str, sentence: str, index: Index
) -> None:
    best = diagnose(sentence, index).best
    assert best is not None and best.entry.id == "cuda-oom", diagnose(sentence, index)


@pytest.mark.parametrize(
    "sentence",
    [
        # bilibili/ailab#93: host RAM filled, no error
        "32g内存1080到4k。经常在13分钟左右吃满内存然后自动停下了。。有没有大佬解答一下",
        # full GPU memory with no error is no OOM (zacharyclam/speaker_recognition#7)
        "我用2070进行训练，发现速度很慢。 GPU内存都占满了，但是GPU的负载很低。是什么原因？",
        # host memory overflowing: as many host-memory errors as the GPU's
        "内存溢出报错",
    ],
)
def test_full_host_memory_or_no_error_is_no_gpu_oom(sentence: str, index: Index) -> None:
    assert "cuda-oom" not in {m.entry.id for m in diagnose(sentence, index).matches}


def test_concepts_take_whole_words_and_plurals() -> None:
    assert concepts("shapes cannot be multiplied") == {"shape", "cannot", "multiply"}
    assert "shape" not in concepts("resize the image")  # "size" inside a longer word
    assert concepts("形状对不上") == {"shape", "mismatch"}


def test_each_word_belongs_to_one_concept() -> None:
    words = [w for ws in LEXICON.values() for w in ws]
    assert len(words) == len(set(words))


# A newer PyTorch said to have made it work: the installed one was too old (issue 23's
# "errors said in words"). An upgrade says newer by itself; a change only with its version above
# the one named before.
NEWER_TORCH_WORKED = [
    "I was using torch 1.7, after upgrading to 1.10 it works",  # 1.10 > 1.7, not as text
    "torch 1.6 gave me this, after switching to 1.9 everything works",
    "upgrading pytorch solved it",
    "升级 torch 之后就好了",
    "把pytorch升级到1.8就可以了",
]
NOT_NEWER_TORCH = [
    # going back to an old torch (erbloo/dr_cvpr20#3, as written), or a change to a lower version
    "After I use torch==1.0.0 torchvision==0.2.1, it can run.",
    "I was using torch 1.10 and after changing to 1.7 it worked",
    # an upgrade that broke it, or did not help
    "it worked with torch 1.4, after upgrading to 1.5 it fails",
    "upgrading pytorch did not solve it",
    "升级 torch 之后还是不行",
    "I upgraded torch to 2.1",
    # another upgrade than torch's
    "after updating the driver it works",
    "I upgraded the driver to 535.1 and now torch works",
]


@pytest.mark.parametrize("sentence", NEWER_TORCH_WORKED)
def test_a_newer_torch_that_made_it_work_says_the_old_one_was_too_old(
    sentence: str, index: Index
) -> None:
    best = diagnose(sentence, index).best
    assert best is not None and best.entry.id == "torch-version-too-old", diagnose(sentence, index)


@pytest.mark.parametrize("sentence", NOT_NEWER_TORCH)
def test_an_older_torch_or_an_upgrade_that_did_not_help_says_nothing_of_it(
    sentence: str, index: Index
) -> None:
    found = {m.entry.id for m in diagnose(sentence, index).matches}
    assert "torch-version-too-old" not in found, found


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("显存占满了", True),
        # said not to be so (Yuan-2.0#50's "内存和显存都没有占满"; "没超出显存")
        ("内存和显存都没有占满", False),
        ("显存没占满", False),
        ("显存未占满", False),
    ],
)
def test_a_concept_after_a_chinese_negation_is_not_said(text: str, said: bool) -> None:
    assert ("not-enough" in concepts(text)) is said
