"""The command-line reference in Chinese. argparse writes its help in English, so the guide's
Chinese page is built from the parsers' own structure (usage, arguments, defaults) with these
translations; a test fails when a command or an argument has none, so a new option cannot slip
into the Chinese page untranslated."""

from __future__ import annotations

import argparse

from .optional import install_hint

# What each command is for, by its name ("" is the bare `diagnoser`).
COMMAND_ZH = {
    "": "诊断 PyTorch 报错或训练问题：读入 traceback、整段训练日志或一句描述，"
    "给出对应的知识库条目。",
    "list": "列出全部条目：id、分类和标题。",
    "show": "完整显示一个条目：原因、解决办法和复现方式。",
    "repro": "运行条目的复现脚本，先看它出错，加 --fixed 再看修好之后的效果（需要 torch）。",
    "run": "在当前进程里运行一个 Python 脚本；如果出错，结合出错时的 tensor 就地解释这个错误。",
    "lint": "静态检查 PyTorch 训练代码；每条结果都指向它能预防的知识库条目。"
    "退出码：0 没发现问题，1 有发现，2 用法错误。",
    "env": "显示运行环境（Python、torch、CUDA、GPU、驱动）并检查常见的安装问题，"
    "每个问题都链接到对应的知识库条目。",
    "triage": "一次读完多个日志（文件、目录、glob、.gz、.zst），把其中的报错和症状归类，"
    "并指出各个 rank 中最早出现的那个故障。"
    "退出码：0 有发现，1 什么都没发现，2 用法错误或没有输入。",
}

# Each argument, by its English help text (or, for an argument without one, by its name).
HELP_ZH = {
    "show this help message and exit": "显示帮助并退出",
    "show program's version number and exit": "显示版本号并退出",
    'traceback or log to read (default: stdin), or a sentence: diagnoser "loss is nan"': (
        '要读取的 traceback 或日志（默认读标准输入），也可以直接写一句描述：diagnoser "loss is nan"'
    ),
    "JSON for tools": "输出 JSON，供其他工具使用",
    "rewrite the files for the mechanical rules "
    "(TD022 TD033 TD034 TD035 TD052 TD053 TD054 TD055), then report what is left": (
        "按机械规则（TD022 TD033 TD034 TD035 TD052 TD053 TD054 TD055）直接改写文件，"
        "再报告剩下的问题"
    ),
    "print the --fix rewrites as a diff; change nothing": (
        "把 --fix 的改写以 diff 形式打印出来，不改任何文件"
    ),
    "format": "输出格式",
    "output format": "输出格式",
    "prompt: a request for help to paste into a chat or an issue": (
        "prompt：生成一段求助文本，可以直接贴到 LLM 对话或 issue 里"
    ),
    "never colour the output": "不使用颜色",
    "base address of the guide the text output links to (env: DIAGNOSER_DOCS_URL)": (
        "文本输出里链接到的文档站地址（也可用环境变量 DIAGNOSER_DOCS_URL）"
    ),
    "language of the answer (default: from the locale)": "回答用的语言（默认取系统 locale）",
    "language of the answer (default: Chinese if the locale or the input is)": (
        "回答用的语言（默认：系统 locale 或输入的内容是中文时用中文，否则用英文）"
    ),
    "only this group": "只列出这个分类",
    "id": "条目 id，例如 cuda-oom",
    "run the fixed code instead": "运行修好之后的代码",
    "script": "要运行的 Python 脚本",
    "after a crash is explained, open the debugger (pdb) where it was raised": (
        "出错并给出解释之后，进入 pdb，停在出错的位置"
    ),
    "args": "传给脚本的参数",
    "json": "出错时输出 JSON",
    "files, folders and notebooks (default: .)": "要检查的文件、目录和 notebook（默认：当前目录）",
    "only these codes or prefixes (TD0,TD013)": "只检查这些规则代码或前缀（如 TD0,TD013）",
    "skip these codes or prefixes": "跳过这些规则代码或前缀",
    "explain one rule and exit": "解释一条规则后退出",
    "files, folders (read recursively) or globs": "日志文件、目录（递归读取）或 glob",
    "files read in parallel (default: 1)": "并行读取的文件数（默认 1）",
    "spark reads PATH-OR-URL globs (s3a://, hdfs://) on a Spark cluster; it needs pyspark: "
    + install_hint("pyspark", "spark"): (
        "spark：在 Spark 集群上读取路径或 URL 的 glob（s3a://、hdfs://）；需要 pyspark："
        + install_hint("pyspark", "spark", "zh")
    ),
}


def _key(action: argparse.Action) -> str:
    return " ".join((action.help or action.dest).split())


def untranslated(parsers: list[argparse.ArgumentParser]) -> list[str]:
    """Commands and arguments that the Chinese page would show in English."""
    missing = [p.prog for p in parsers if _command(p) not in COMMAND_ZH]
    for parser in parsers:
        for action in parser._actions:
            if action.help != argparse.SUPPRESS and _key(action) not in HELP_ZH:
                missing.append(f"{parser.prog}: {_key(action)}")
    return missing


def _command(parser: argparse.ArgumentParser) -> str:
    return parser.prog.removeprefix("diagnoser").strip()


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def command_section(parser: argparse.ArgumentParser) -> list[str]:
    out = [f"## {parser.prog}", "", COMMAND_ZH.get(_command(parser), parser.description or ""), ""]
    out += ["```text", parser.format_usage().strip(), "```", ""]
    out += ["| 参数 | 说明 |", "| --- | --- |"]
    for action in parser._actions:
        if action.help == argparse.SUPPRESS:
            continue
        name = ", ".join(action.option_strings) or action.dest
        text = HELP_ZH.get(_key(action), action.help or "")
        if action.choices:
            text += f"（可选：{', '.join(map(str, action.choices))}）"
        out.append(f"| `{name}` | {_cell(text)} |")
    return [*out, ""]
