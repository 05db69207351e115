"""Normalise a message for fuzzy matching: mask the parts that vary between occurrences.

Shapes, dtypes, devices, paths, addresses and numbers become placeholders (`<SHAPE>`, `<DTYPE>`,
...), so "mat1 and mat2 shapes cannot be multiplied (32x64 and 128x10)" and the same message with
other numbers normalise to the same text, and a reworded message still lands close to it.
"""

from __future__ import annotations

import re

from ..knowledge.regex_cache import compile_cached

_MASKS: list[tuple[str, re.Pattern[str]]] = [
    # an f-string's field, from a raise statement when the message itself was cut off
    ("<SHAPE>", compile_cached(r"\{[^{}\n]{1,80}\}")),
    # a word with a path in it, whole ("data/train/x.jpg", "C:\\Users\\me"); tried once per word,
    # never from each of its slashes (quadratic on a long run of them)
    (
        "<PATH>",
        compile_cached(r"(?<![\w.\-/\\~+])[\w.\-\\~+]*?(?:[A-Za-z]:\\|/)[\w.\-/\\~+]*[\w]"),
    ),
    ("<HEX>", compile_cached(r"\b0x[0-9a-fA-F]+\b")),
    (
        "<SHAPE>",
        compile_cached(
            r"torch\.Size\(\[[\d,\s]*\]\)|\[\s*-?\d+(?:\s*,\s*-?\d+)*\s*\]|\b\d+(?:\s*x\s*\d+)+\b"
        ),
    ),
    # accelerators other than CUDA raise the same errors in its words: Ascend's npu (torch_npu),
    # Gaudi's hpu, XLA's TPUs, Meta's MTIA
    (
        "<DEVICE>",
        compile_cached(r"\b(?:cuda|cpu|meta|mps|xpu|npu|hpu|xla|mtia)(?::\d+)?\b", re.IGNORECASE),
    ),
    (
        "<DTYPE>",
        compile_cached(
            r"\b(?:torch\.)?(?:c10::)?(?:float|double|half|long|int|short|byte|bool|char|"
            r"bfloat16|complex(?:64|128)?|u?int(?:8|16|32|64)|float(?:16|32|64))\b",
            re.IGNORECASE,
        ),
    ),
    ("<NUM>", compile_cached(r"-?\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b", re.IGNORECASE)),
    # A retyped message spells small numbers out: "dimension one", "the 1st argument".
    (
        "<NUM>",
        compile_cached(
            r"\b(?:\d+(?:st|nd|rd|th)|zero|one|two|three|four|first|second|third|fourth)\b",
            re.IGNORECASE,
        ),
    ),
]
_SPACE = compile_cached(r"\s+")


def mask(message: str) -> str:
    for placeholder, pattern in _MASKS:
        message = pattern.sub(placeholder, message)
    return _SPACE.sub(" ", message).strip().lower()


# The words a reworded message keeps but a different error changes: quoted names, dotted or
# called identifiers, Python type names. "'dict' object has no attribute 'to'" resembles
# "'list' object has no attribute 'to'" letter for letter, yet it is another error.
_KEY_TOKENS = compile_cached(
    r"'[^'\s]{1,60}'|\"[^\"\s]{1,60}\"|\b[\w.]*\w\.\w[\w.]*(?:\(\))?|\b\w+\(\)"
    r"|\b(?:str|int|float|bool|bytes|tuple|list|dict|set|NoneType|Tensor|ndarray)\b"
)


def key_tokens(masked: str) -> frozenset[str]:
    return frozenset(_KEY_TOKENS.findall(masked))


_NOT_WORD = compile_cached(r"[^\w<>]+")


def squash(masked: str) -> str:
    """Without spaces and punctuation: a retyped "cannotbe multiplied" or a missing comma is the
    same message."""
    return _NOT_WORD.sub("", masked)
