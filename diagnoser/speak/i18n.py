"""The diagnoser's own words in both languages, and how the language is chosen."""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping

LANGS = ("en", "zh")

UI: dict[str, dict[str, str]] = {
    "what": {"en": "What happened", "zh": "发生了什么"},
    "why": {"en": "Why it happens", "zh": "原因"},
    "fix": {"en": "How to fix it", "zh": "怎么修"},
    "reproduce": {"en": "Reproduce it", "zh": "复现"},
    "check": {"en": "Check it", "zh": "检查一下"},
    "check_checks": {"en": "Checks: ", "zh": "检查："},
    "others": {"en": "Other candidates", "zh": "其他可能"},
    "where": {"en": "where", "zh": "位置"},
    "related": {"en": "Related", "zh": "相关条目"},
    "tensors": {"en": "Your tensors and modules", "zh": "出错时的 tensor 和模块"},
    "environment": {"en": "Environment", "zh": "运行环境"},
    "env_missing": {"en": "not installed", "zh": "未安装"},
    "env_no_gpu": {"en": "none found", "zh": "未检测到"},
    "env_checks": {"en": "Checks", "zh": "检查结果"},
    "env_ok": {"en": "ok: no problem found", "zh": "正常：没有发现问题"},
    "hook_failed": {
        "en": "diagnoser: could not explain this error ({error})",
        "zh": "diagnoser：无法解释这个错误（{error}）",
    },
    "source": {"en": "Where PyTorch raises it", "zh": "PyTorch 在哪里抛出它"},
    "source_note": {
        "en": "No entry explains this error, but PyTorch's own sources show where it comes from "
        "(the source tier: it locates, it does not explain).",
        "zh": "知识库里没有解释这个报错的条目，但 PyTorch 自己的源码能说明它从哪里来"
        "（源码层：只指出位置，不作解释）。",
    },
    "source_places": {
        "en": "This message is raised at {count} places; the first {shown}:",
        "zh": "PyTorch 里有 {count} 处会抛出这条消息；前 {shown} 处：",
    },
    "source_by_op": {
        "en": "raised by {op} in {where} ({version})",
        "zh": "由 {op} 在 {where} 抛出（{version}）",
    },
    "source_in": {
        "en": "raised in {function}, {where} ({version})",
        "zh": "在 {function}（{where}）抛出（{version}）",
    },
    "source_named": {
        "en": "the message names the place itself: {where}{function}",
        "zh": "报错信息本身写明了位置：{where}{function}",
    },
    "source_named_function": {"en": " (in {function})", "zh": "（函数 {function}）"},
    "source_nearest": {
        "en": " (the file is the source path nearest this wording in that release's library; "
        "the line is not known)",
        "zh": "（文件按该版本库文件里离这句报错最近的源码路径推定，行号未知）",
    },
    "source_at": {"en": "raised in {where} ({version})", "zh": "在 {where} 抛出（{version}）"},
    "source_because": {"en": " because {condition} failed", "zh": "，因为检查 {condition} 不成立"},
    "source_docs": {"en": "docs", "zh": "文档"},
    "source_old": {
        "en": "an older wording: torch {wheel} no longer prints it",
        "zh": "旧版措辞：torch {wheel} 已不再这样写",
    },
    "source_graph_break": {"en": "graph break", "zh": "图中断（graph break）"},
    "site_sources": {"en": "Where PyTorch raises it", "zh": "PyTorch 在哪里抛出它"},
    "site_sources_intro": {
        "en": "The places in PyTorch's own sources that print this entry's messages, found by "
        "the [source tier](../unknown.md):",
        "zh": "PyTorch 源码里打印这个条目的报错消息的位置，由[源码层](../unknown.md)找到：",
    },
    "no_match": {
        "en": "No entry in the knowledge base explains this text.",
        "zh": "知识库里没有能解释这段文本的条目。",
    },
    "no_match_hint": {
        "en": "Paste the whole traceback if there was an error (from 'Traceback (most recent "
        "call last):' to the last line). If training runs but goes wrong, paste its log or say "
        'what the numbers do, e.g. `diagnoser "loss is not decreasing"`; '
        "`diagnoser list --group training-behaviour` lists the symptoms it knows.",
        "zh": '如果有报错，请贴上完整的 traceback（从 "Traceback (most recent call last):" '
        "到最后一行）。如果训练能跑但结果不对，贴上训练日志，或者用一句话说明数字的表现，"
        '比如 `diagnoser "loss 不下降"`；`diagnoser list --group training-behaviour` '
        "列出了它认识的症状。",
    },
    "paste_hint": {
        "en": "Paste the traceback or log here, then press Ctrl-D to end it "
        "(Windows: Ctrl-Z, then Enter).",
        "zh": "把 traceback 或日志粘贴到这里，然后按 Ctrl-D 结束输入"
        "（Windows 上按 Ctrl-Z 再回车）。",
    },
    "no_match_log": {
        "en": "This log's numbers (loss, accuracy, gradient norms, memory, timings) show none of "
        "the symptoms the knowledge base knows. `diagnoser list --group training-behaviour` lists "
        'the ones it looks for; a sentence such as `diagnoser "loss is not decreasing"` '
        "describes what the numbers do not show.",
        "zh": "这段日志里的数字（loss、准确率、梯度范数、显存、耗时）没有表现出知识库认识的症状。"
        "`diagnoser list --group training-behaviour` 列出了它会检查的症状；数字里看不出来的问题，"
        '可以用一句话描述，比如 `diagnoser "loss 不下降"`。',
    },
    "no_match_located": {
        "en": "The check that failed and its arguments say what to change; `diagnoser list` "
        "shows what the knowledge base covers.",
        "zh": "没有通过的检查和它的参数说明了该改什么；"
        "运行 `diagnoser list` 可以看到知识库覆盖哪些问题。",
    },
    "no_match_whole": {
        "en": "The paste holds a whole traceback, but its error is not one the knowledge base "
        "covers (it may not come from PyTorch); `diagnoser list` shows what it covers.",
        "zh": "贴的 traceback 是完整的，但这个报错不在知识库的范围内（可能不是 PyTorch 的问题）；"
        "运行 `diagnoser list` 可以看到知识库覆盖哪些问题。",
    },
    "cause_in_paste": {
        "en": "The failing process's own error is in your paste: {error}. Fix that error; "
        "this one only reports that the process died.",
        "zh": "出错进程自己的报错就在你贴的内容里：{error}。修好这个报错即可，"
        "眼前这一条只是在报告那个进程退出了。",
    },
    "fuzzy": {
        "en": "(no known wording matched exactly; this is the closest entry)",
        "zh": "（没有完全匹配的已知报错措辞，这是最接近的条目）",
    },
    "frames": {
        "en": "(the paste does not show the error message; recognised from the library calls "
        "in its traceback)",
        "zh": "（贴的内容里没有报错信息；这是根据 traceback 里经过的库函数判断的）",
    },
    "frames_bare": {
        "en": "(the exception carries no message; recognised from the library calls in its "
        "traceback)",
        "zh": "（这个异常没有附带任何信息；这是根据 traceback 里经过的库函数判断的）",
    },
    "frames_wrapped": {
        "en": "(recognised from the library calls in its traceback, which re-raised this error; "
        "no entry knows the error itself)",
        "zh": "（这是根据 traceback 里经过的库函数判断的：这个报错是被它们重新抛出来的，"
        "而报错本身没有对应的条目）",
    },
    "messages": {"en": "Known messages", "zh": "已知的报错信息"},
    "messages_count": {
        "en": "{count} known messages; the first {shown}:",
        "zh": "已知的 {count} 条报错信息，这里是前 {shown} 条：",
    },
    "messages_all": {"en": "All of them: {url}", "zh": "全部：{url}"},
    "needs": {"en": "needs", "zh": "需要"},
    "more": {"en": "More", "zh": "详情"},
    # the guide's pages (sitegen.py)
    "site_what": {"en": "What you see", "zh": "你会看到什么"},
    "site_why": {"en": "Why it happens", "zh": "为什么会这样"},
    "site_fix": {"en": "How to fix it", "zh": "怎么修"},
    "site_reproduce": {"en": "Reproduce it", "zh": "复现"},
    "site_related": {"en": "Related entries", "zh": "相关条目"},
    "site_broken": {"en": "Broken: the reproduction", "zh": "出错的代码：复现脚本"},
    "site_fixed": {"en": "Fixed", "zh": "修好之后"},
    "site_versions": {"en": "torch versions", "zh": "torch 版本"},
    "site_any": {"en": "all", "zh": "所有"},
    "site_wording": {"en": "Wording", "zh": "报错措辞"},
    "site_phrases": {"en": "How people describe it", "zh": "大家通常这样描述"},
    "site_log": {
        "en": "What the diagnoser reads in a training log",
        "zh": "诊断器会从训练日志里读出什么",
    },
    "site_needs": {"en": "Needs", "zh": "需要"},
    "site_run": {"en": "Run it, then run the fix:", "zh": "先运行出错的版本，再运行修好的版本："},
    "site_all": {"en": "Quick reference: all errors and symptoms", "zh": "速查表：全部报错与症状"},
    "site_colon": {"en": ": ", "zh": "："},
    "site_glance": {"en": "At a glance", "zh": "速览"},
    "site_message": {"en": "Message", "zh": "报错信息"},
    "site_symptom": {"en": "Symptom", "zh": "现象"},
    "site_cause": {"en": "Cause", "zh": "原因"},
    "site_quick_fix": {"en": "Fix", "zh": "解决办法"},
    "site_docs": {"en": "PyTorch docs", "zh": "PyTorch 文档"},
    "site_entry": {"en": "Entry", "zh": "条目"},
    "site_other_wordings": {"en": "Other wordings", "zh": "其他写法"},
    "site_wordings": {"en": "All {count} known wordings", "zh": "已知的 {count} 种报错写法"},
    "site_all_intro": {
        "en": "Every entry by section, most frequent first: the message you see, its usual cause "
        "and the fix in one line. Open an entry for your own values, the details and a script.",
        "zh": "按分类列出全部条目，常见的排在前面：你看到的报错、最常见的原因和一句话的解决办法。"
        "点进条目可以看到结合具体数值的解释、详细说明和复现脚本。",
    },
    "site_report": {
        "en": "Wrong diagnosis, or a wording we do not know? [Report it]({url}).",
        "zh": "诊断不对，或者遇到了没收录的报错写法？[告诉我们]({url})。",
    },
    "site_cli": {"en": "Command-line reference", "zh": "命令行参考"},
    "site_cli_intro": {
        "en": "Generated from the argument parser of the installed `diagnoser`.",
        "zh": "以下内容由 `diagnoser` 的参数解析器自动生成：用法、参数和默认值与安装的版本一致。",
    },
    # the words of lint's, runtime's and triage's own pages and reports
    # lint
    "lint_why": {"en": "Why is this bad?", "zh": "为什么这是 bug"},
    "lint_bad": {"en": "Example", "zh": "示例"},
    "lint_good": {"en": "Use instead", "zh": "应该这样写"},
    "lint_fix": {"en": "How to fix it", "zh": "怎么修"},
    "lint_entry": {"en": "Knowledge-base entry", "zh": "对应的知识库条目"},
    "lint_rules": {"en": "Lint rules", "zh": "Lint 规则"},
    "lint_caught": {"en": "Caught before it runs", "zh": "运行之前就能发现"},
    "lint_intro": {
        "en": "`diagnoser lint` reads training code without running it and reports the mistakes "
        "the knowledge base explains. Run `diagnoser lint [PATH ...]`; silence one line with "
        "`# noqa: TD001`.",
        "zh": "`diagnoser lint` 不运行代码，只读训练代码，报告知识库里讲过的那些错误。运行 "
        "`diagnoser lint [PATH ...]`；某一行不想报，就加 `# noqa: TD001`。",
    },
    "lint_fired": {"en": "On real code", "zh": "在真实代码上"},
    "lint_fired_on": {
        "en": "Fired {count} times on {lines} lines of {repos} well-known repositories ({names}), "
        "measured by `bench/lint_fired.py`.",
        "zh": "在 {repos} 个知名仓库（{names}）共 {lines} 行代码上触发了 {count} 次，"
        "由 `bench/lint_fired.py` 统计。",
    },
    "lint_fired_index": {
        "en": "*fired*: findings on {lines} lines of {repos} well-known repositories ({names}), "
        "counted by `bench/lint_fired.py`.",
        "zh": "*触发次数*：在 {repos} 个知名仓库（{names}）共 {lines} 行代码上的报告数，"
        "由 `bench/lint_fired.py` 统计。",
    },
    "lint_lint_it": {
        "en": "These `diagnoser lint` rules find this mistake in code before it runs:",
        "zh": "下面这些 `diagnoser lint` 规则能在运行之前从代码里发现这个错误：",
    },
    # runtime
    "runtime_caught": {"en": "Caught at run time", "zh": "运行时检查"},
    "runtime_intro": {
        "en": "These checks of [preflight and watch](../runtime.md) report it on your own model "
        "and data:",
        "zh": "[preflight 和 watch](../runtime.md) 的这些检查会在你自己的模型和数据上发现它：",
    },
    "runtime_columns": {
        "en": "| check | run by | what it checks | entry |",
        "zh": "| 检查 | 所属 | 检查什么 | 条目 |",
    },
    "runtime_matched": {
        "en": "the entry that torch's own error matches",
        "zh": "torch 报错本身匹配到的条目",
    },
    # triage
    "triage_family": {"en": "family", "zh": "类别"},
    "triage_count": {"en": "count", "zh": "次数"},
    "triage_ranks": {"en": "ranks", "zh": "rank"},
    "triage_first_seen": {"en": "first seen", "zh": "首次出现"},
    "triage_explanation": {"en": "explanation", "zh": "说明"},
    "triage_unknown": {"en": "(no entry)", "zh": "（无条目）"},
    "triage_first_failure": {"en": "First failure: ", "zh": "最早的报错："},
    "triage_follower": {"en": " (follows from the first failure)", "zh": "（由最早的报错引起）"},
    "triage_none": {"en": "No error or symptom found.", "zh": "没有发现报错或症状。"},
    "triage_summary": {
        "en": "{groups} groups, {files} file(s), {size}",
        "zh": "{files} 个文件（{size}）里共有 {groups} 类问题",
    },
    "triage_unread": {
        "en": "; {n} input(s) not read to the end (see above)",
        "zh": "；{n} 个输入没能读完（原因见上）",
    },
    "triage_of_rank": {"en": ", rank {rank}", "zh": "，rank {rank}"},
    "triage_timeline": {"en": "Failures per rank, in order", "zh": "各 rank 的报错时间线"},
    "triage_title": {"en": "diagnoser triage", "zh": "diagnoser triage"},
}


def t(key: str, lang: str) -> str:
    return UI[key][lang]


def colon(lang: str) -> str:
    """What follows a label: ": " in English, the full-width "：" in Chinese."""
    return t("site_colon", lang)


def parens(text: str, lang: str) -> str:
    """An aside after a word: " (…)" in English, "（…）" in Chinese (its brackets bring a space)."""
    return f"（{text}）" if lang == "zh" else f" ({text})"


def pad(text: str, width: int) -> str:
    """Left-justify by what a terminal shows: a Chinese character takes two columns."""
    shown = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(width - shown, 0)


def default_lang(environ: Mapping[str, str] = os.environ) -> str:
    """POSIX precedence: the first of LC_ALL, LC_MESSAGES, LANG that is set decides."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


# What is no prose in a paste: a traceback's frame lines, paths, and values quoted from the
# user's data or code (`KeyError: '标签'`). Compiled when first needed: ASCII text never is.
_NOT_PROSE = (
    r'(?m)^[ \t]*File "[^"\n]*", line \d+.*$'  # File "/home/张伟/train.py", line 3, in <module>
    r"|(?<!\S)[^\s/\\]*[/\\]\S*"  # /home/张伟/数据/train.csv, C:\\用户\\train.py
    r"|'[^'\n]*'|\"[^\"\n]*\""  # 'a quoted value'
)
_HAN = "[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
CHINESE_AFTER = 2  # Han characters in the text's own words: 显存, 梯度 are questions in Chinese
LOOK_AT = 1 << 16


def is_chinese(text: str) -> bool:
    """The text's own words are Chinese: it holds CHINESE_AFTER Han characters or more outside
    frame lines, paths and quoted values, so an English traceback run from a folder with a
    Chinese name, or about a Chinese dictionary key, is not. A long log is judged by its first
    and last LOOK_AT characters."""
    if text.isascii() or not re.search(_HAN, text):  # C-speed passes that stop at a hit
        return False
    if len(text) > 2 * LOOK_AT:
        text = text[:LOOK_AT] + "\n" + text[-LOOK_AT:]
    found = re.finditer(_HAN, re.sub(_NOT_PROSE, " ", text))
    return sum(1 for _, _ in zip(range(CHINESE_AFTER), found, strict=False)) == CHINESE_AFTER


def answer_lang(text: str, environ: Mapping[str, str] = os.environ) -> str:
    """The language of an answer when --lang (or lang=) does not say: Chinese when the locale
    says so (default_lang) or the question is written in Chinese (is_chinese), else English."""
    return "zh" if default_lang(environ) == "zh" or is_chinese(text) else "en"
