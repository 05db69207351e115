"""The diagnoser's own words in both languages, and how the language is chosen."""

from __future__ import annotations

import os
from collections.abc import Mapping

LANGS = ("en", "zh")

UI: dict[str, dict[str, str]] = {
    "what": {"en": "What happened", "zh": "发生了什么"},
    "why": {"en": "Why it happens", "zh": "原因"},
    "fix": {"en": "How to fix it", "zh": "怎么修"},
    "reproduce": {"en": "Reproduce it", "zh": "复现"},
    "others": {"en": "Other candidates", "zh": "其他可能"},
    "where": {"en": "where", "zh": "位置"},
    "related": {"en": "Related", "zh": "相关条目"},
    "no_match": {
        "en": "No entry in the knowledge base explains this text.",
        "zh": "知识库里没有能解释这段文本的条目。",
    },
    "no_match_hint": {
        "en": "Paste the whole traceback (from 'Traceback (most recent call last):' to the last "
        "line), or run `diagnoser list` to browse.",
        "zh": "请贴上完整的 traceback（从 “Traceback (most recent call last):” 到最后一行），"
        "或者运行 `diagnoser list` 浏览全部条目。",
    },
    "fuzzy": {
        "en": "(no known wording matched exactly; this is the closest entry)",
        "zh": "（没有完全匹配的已知报错措辞，这是最接近的条目）",
    },
    "needs": {"en": "needs", "zh": "需要"},
    "more": {"en": "More", "zh": "详情"},
}


def t(key: str, lang: str) -> str:
    return UI[key][lang]


def default_lang(environ: Mapping[str, str] = os.environ) -> str:
    """POSIX precedence: the first of LC_ALL, LC_MESSAGES, LANG that is set decides."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"
