"""Sentences: a symptom pattern is only tried when a literal it needs is in the sentence, which
must change no answer, and phrases count as whole words wherever they occur."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diagnoser.knowledge.anchor import literal_choices
from diagnoser.knowledge.index import Index
from diagnoser.text.match import diagnose
from diagnoser.text.sentence import described_symptoms, named_entries, spaced_apart
from diagnoser.text.symptoms import normalise

from .conftest import ENTRIES
from .test_symptoms import NO_SYMPTOM

PATTERNS = [(e.id, p) for e in ENTRIES if e.symptoms for p in e.symptoms.patterns]


@pytest.mark.parametrize(("entry_id", "pattern"), PATTERNS)
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_match_contains_one_of_its_literals(
    entry_id: str, pattern: str, data: st.DataObject
) -> None:
    text = data.draw(st.from_regex(pattern)).lower()
    hit = re.search(pattern, text)
    if hit:
        literals = literal_choices(pattern)
        assert not literals or any(lit in hit.group(0) for lit in literals), (literals, text)


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        (r"Loss (?:is|was) nan", {"loss "}),  # the longest certain run, lower-cased
        (r"(?:很慢|太慢)了", {"很慢", "太慢"}),  # one of each branch
        (r"(?:slow|\w+ly) training", {" training"}),  # a branch without a literal
        (r"(?:grad(?:ient)?)+s?", {"grad"}),  # repeated at least once
        (r"(?:x+|y)?z", {"z"}),  # optional
        (r"\d+(?=epochs)", set()),  # a lookahead's text is no part of the match
    ],
)
def test_literal_choices(pattern: str, literals: set[str]) -> None:
    assert literal_choices(pattern) == literals


def _sentences() -> list[str]:
    """Every phrase of every entry, alone and in a sentence, and sentences that are no symptom."""
    phrases = [p for e in ENTRIES for p in e.phrases.en + e.phrases.zh]
    return [*phrases, *(f"after epoch 3 {p} again" for p in phrases), *NO_SYMPTOM]


def test_described_symptoms_are_those_whose_patterns_match(index: Index) -> None:
    """The literals only spare work: the answer is that of trying every pattern."""
    sentences = [normalise(s, index.vocabulary) for s in _sentences()]
    every_pattern = [
        {
            entry_id
            for entry_id, pattern in PATTERNS
            if re.search(pattern, s) or re.search(pattern, spaced_apart(s))
        }
        for s in sentences
    ]
    assert [described_symptoms(s, index) for s in sentences] == every_pattern
    assert sum(map(bool, every_pattern)) >= 100  # many sentences were described


@pytest.mark.parametrize(
    "sentence",
    [
        "如果batchsize=2，batchnorm效果就很差",  # batchnorm-small-batch's
        "开了amp但是memory usage remains same as with fp32",  # autocast-not-applied's
        "用了ddp之后发现weights on each gpu are different",  # ddp-replicas-diverged's
    ],
)
def test_english_words_glued_to_chinese_are_read_as_words(sentence: str, index: Index) -> None:
    """CJK characters are word characters: "如果batchsize" has no \\b before "batchsize". The
    patterns read the sentence as if a space were there, as users who type one write it."""
    spaced = spaced_apart(sentence)
    assert spaced != sentence
    found = described_symptoms(sentence, index)
    assert found and found == described_symptoms(spaced, index)


@pytest.mark.parametrize(
    ("sentence", "named"),
    [
        ("eaddrinuse", True),
        ("the port says eaddrinuse.", True),
        ("eaddrinusex", False),  # inside a word
        ("xeaddrinuse", False),
        ("xeaddrinuse then eaddrinuse", True),  # a later occurrence is a whole word
        ("😀😀eaddrinuse", True),  # positions past characters outside the BMP
        ("😀😀eaddrinusex", False),
    ],
)
def test_a_phrase_is_named_as_whole_words_only(sentence: str, named: bool, index: Index) -> None:
    assert ("address-in-use" in named_entries(sentence, index)) is named


@pytest.mark.parametrize(
    ("sentence", "entry"),
    [
        # a phrase's compound written with a space: "in-place operation breaks autograd",
        # "device-side assert" (and the other way, both written in kb/: "device side assert")
        ("in place operation breaks autograd", "inplace-modified"),
        ("a device side assert", "cuda-device-side-assert"),
        ("a device-side assert", "cuda-device-side-assert"),
    ],
)
def test_a_compound_names_its_entry_with_a_hyphen_or_a_space(
    sentence: str, entry: str, index: Index
) -> None:
    assert entry in named_entries(sentence, index)


def test_the_longer_phrase_names_its_entry(index: Index) -> None:
    """The longer phrase wins: "batch size mismatch" is not the "size mismatch" inside it. A
    bare "size mismatch" names nothing: said of loading it is state-dict-mismatch's, of a layer
    shape-matmul's (issue 23)."""
    assert named_entries("batch size mismatch", index) == {"batch-size-mismatch"}
    assert "shape-matmul" in named_entries("a shape mismatch", index)
    assert named_entries("a size mismatch", index) == set()


def test_a_word_followed_by_a_number_is_a_log_column(index: Index) -> None:
    """fairseq prints its count of out-of-memory retries on every line (`oom=0`, `| oom 0 |`):
    the column's name is no OOM said."""
    assert "cuda-oom" in named_entries("i encountered oom", index)
    assert named_entries("loss=6.220, oom=0, wall=4847", index) == set()
    assert named_entries("| loss 6.326 | oom 0 | wall 4634", index) == set()


@pytest.mark.parametrize(
    ("sentence", "named"),
    [
        ("dataloader worker killed", True),
        ("the dataloader worker gets killed after some iterations", True),
        ("my dataloader worker was killed again", True),
        ("dataloader worker is being killed", True),
        ("the dataloader worker is not killed", False),  # a negation is no small word
        ("dataloader worker often killed", False),  # nor is any other word between
    ],
)
def test_a_phrase_is_named_with_or_without_small_words_between(
    sentence: str, named: bool, index: Index
) -> None:
    """Users put articles and auxiliaries between a phrase's words ("the worker gets killed"):
    left out of both sides, the phrase "dataloader worker killed" is still said."""
    assert ("dataloader-worker-killed" in named_entries(sentence, index)) is named


@pytest.mark.parametrize(
    ("sentence", "family"),
    [
        ("torch can't find my GPU", "no-cuda-gpus"),
        ("pytorch doesn't detect the gpu", "no-cuda-gpus"),
        ("torch识别不到显卡", "no-cuda-gpus"),
        ("pytorch用不了gpu", "no-cuda-gpus"),
        ("我知道错误了，电脑没有内存了", "cuda-oom"),
        ("提示没有torch这个模块", "module-not-found-torch"),
        ("报错说数据类型不匹配", "dtype-mismatch"),
        ("换了以后会报错tensor类型不匹配这是为啥呀", "dtype-mismatch"),
        ("import torch 失败", "module-not-found-torch"),
        ("提示安装torch，但是已经安装成功了", "module-not-found-torch"),
        ("高版本的torch报错未发现torch._six", "torch-private-api-removed"),
        ("PyTorch version is too old for this repo", "torch-version-too-old"),
        ("运行报错，说需要更高版本的torch", "torch-version-too-old"),
        ("Out of GPU memory when training with batch size 16", "cuda-oom"),
        ("驱动版本太低", "driver-too-old"),
        ("显卡算力不支持", "no-kernel-image"),
    ],
)
def test_a_known_error_told_in_users_words_finds_its_entry(
    sentence: str, family: str, index: Index
) -> None:
    """The error named in the words users say it with, without its message: a GPU torch does not
    see in other verbs than "cannot see", memory "没有了", a module "没有…这个模块"."""
    best = diagnose(sentence, index).best
    assert best is not None and best.entry.id == family
