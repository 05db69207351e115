"""The Chinese prose of kb/: one quotation convention, one name per concept in an entry."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from diagnoser.knowledge.index import kb_dir

GLOSSARY: dict[str, list[str]] = yaml.safe_load(
    (Path(__file__).parent / "data" / "zh_glossary.yaml").read_text(encoding="utf-8")
)
KB_FILES = sorted(kb_dir().glob("*.yaml"))

_CJK = "\u4e00-\u9fff"
_FENCE = re.compile(r"```.*?```", re.S)
_INLINE_CODE = re.compile(r"`[^`]*`")  # inline code may wrap a line
_ASCII_QUOTED = re.compile(r'"([^"]*)"')
_SINGLE_QUOTED_CHINESE = re.compile(f"'[{_CJK}][^'\\n]*'")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _zh_texts(node: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every Chinese string an entry shows: titles, cause, fix, explain templates, evidence...

    The `phrases` are left out: they are how users word the problem, not the guide's own prose.
    """
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "phrases":
                continue
            if key == "zh" and isinstance(value, str):
                yield f"{path}.zh", value
            elif key == "zh" and isinstance(value, list):
                yield from ((f"{path}.zh[{i}]", s) for i, s in enumerate(value))
            else:
                yield from _zh_texts(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _zh_texts(value, f"{path}[{i}]")


def _prose(text: str) -> str:
    """The text without code: fenced blocks and inline code are Python, not Chinese."""
    return _INLINE_CODE.sub(" ", _FENCE.sub(" ", text))


def _own_words(field: str, text: str) -> str:
    """A title opens with the English message ("shape '[...]' is invalid…：中文"): not our words."""
    if field == ".title.zh" and "：" in text:
        text = text.split("：", 1)[1]
    return _prose(text)


def _load(path: Path) -> list[tuple[str, str]]:
    return list(_zh_texts(yaml.safe_load(path.read_text(encoding="utf-8"))))


def quotation_problems(texts: list[tuple[str, str]]) -> list[str]:
    problems = []
    for field, text in texts:
        prose = _prose(text)
        for quoted in _ASCII_QUOTED.findall(prose):
            if re.search(f"[{_CJK}]", quoted):
                problems.append(f'{field}: "{quoted}" is Chinese in ASCII quotes; use “{quoted}”')
        for quoted in _SINGLE_QUOTED_CHINESE.findall(prose):
            problems.append(f"{field}: {quoted} is Chinese in ASCII quotes; use “…”")
        for corner in re.findall("「[^」]*」", prose):
            problems.append(f"{field}: {corner} uses 「」; use “…”")
    return problems


def _variant_pattern(variant: str) -> re.Pattern[str]:
    if variant.isascii():  # a word of prose, not x.shape, batch_size or a call
        return re.compile(f"(?<![\\w.]){re.escape(variant)}s?(?![\\w.(=])", re.I)
    return re.compile(re.escape(variant))


_VARIANTS = {
    concept: [(v, _variant_pattern(v)) for v in variants] for concept, variants in GLOSSARY.items()
}


def term_problems(texts: list[tuple[str, str]]) -> list[str]:
    # English messages quoted in the prose and the {placeholders} are not the entry's own words.
    prose = "\n".join(
        _PLACEHOLDER.sub(" ", _ASCII_QUOTED.sub(" ", _own_words(field, text)))
        for field, text in texts
    )
    problems = []
    for concept, variants in _VARIANTS.items():
        used = {v: len(p.findall(prose)) for v, p in variants}
        used = {v: n for v, n in used.items() if n}
        if len(used) > 1:
            counts = ", ".join(f"{v} ×{n}" for v, n in used.items())
            problems.append(f"{concept} is named several ways ({counts}); pick one")
    return problems


@pytest.mark.parametrize("path", KB_FILES, ids=[p.stem for p in KB_FILES])
def test_chinese_is_quoted_with_full_width_quotes(path: Path) -> None:
    assert quotation_problems(_load(path)) == []


@pytest.mark.parametrize("path", KB_FILES, ids=[p.stem for p in KB_FILES])
def test_one_name_per_concept_within_an_entry(path: Path) -> None:
    assert term_problems(_load(path)) == []


def test_the_checks_catch_what_they_are_for() -> None:
    texts = [
        ("cause.zh", '先打印 x.shape，形状不对时把 "上一步的输出" 存下来。'),
        ("fix.zh", "这个 shape 和「模块」有关；报错是 \"shape '[2, 3]' is invalid\"。"),
    ]
    assert len(quotation_problems(texts)) == 2
    assert term_problems(texts) == ["shape is named several ways (shape ×1, 形状 ×1); pick one"]
    clean = [
        ("fix.zh", '打印 `x.shape` 和 x.shape，“上一步的输出”；报错是 "shape is invalid"。'),
        ("cause.zh", '```python\nprint("形状", optimizer.step(), batch_size)\n```\n形状不对。'),
    ]
    assert quotation_problems(clean) == []
    assert term_problems(clean) == []
