"""`--format prompt`: a request for help to paste as is into a chat with an LLM or an issue.

It follows the template of the founding guide 002 (error and traceback, the code, the environment,
then three asks: which kind of problem, a runnable fix, why) and adds what the diagnoser knows:
the tensors of the failing frames and the knowledge base's diagnosis, given as context.
"""

from __future__ import annotations

from ..text.facts import Context
from ..text.match import Diagnosis
from ..text.parse import Error
from .explain import explanation
from .i18n import colon
from .render import check_steps, facts_lines, facts_of, notes, said_and_notes
from .safe import code_span, markdown_text, visible
from .safe import fence as _fence

_MAX_TRACEBACK_LINES = 120

_WORDS = {
    "en": {
        "intro": "I get the following error when I run my PyTorch code. Please explain it and "
        "help me fix it.",
        "traceback": "Error and traceback",
        "code": "My code ({file}, lines {first}–{last}; the error is raised at line {line})",
        "no_code": "My code: (the file is not readable here; the failing line is in the traceback)",
        "tensors": "Tensors and modules at the failing line (shape, dtype, device)",
        "environment": "Environment",
        "diagnosis": "What torch-diagnoser found (context; it may be wrong)",
        "no_diagnosis": "torch-diagnoser found no entry in its knowledge base for this error.",
        "fix": "Its suggested fix",
        "check": "What it suggests running to check it on my model and data",
        "asks": "Please:",
        "ask1": "Tell me which kind of problem this is: wrong API usage, a data shape/dimension "
        "problem, a gradient problem, or something else (say what).",
        "ask2": "Give me a corrected version of my code that runs.",
        "ask3": "Explain why the error happens, so that I understand the principle behind it.",
        "role": "You are a debugging expert who knows PyTorch's internals well; be specific and "
        "go step by step.",
    },
    "zh": {
        "intro": "我在运行下面的 PyTorch 代码时遇到了报错，请帮我解释这个错误并给出修复建议。",
        "traceback": "错误堆栈信息",
        "code": "问题代码（{file}，第 {first}–{last} 行；报错在第 {line} 行）",
        "no_code": "问题代码：（这里读不到源文件，出错的行见上面的堆栈）",
        "tensors": "出错时的 tensor 和模块（shape、dtype、device）",
        "environment": "运行环境",
        "diagnosis": "torch-diagnoser 的诊断（仅供参考，未必正确）",
        "no_diagnosis": "torch-diagnoser 的知识库里没有找到对应这个错误的条目。",
        "fix": "它给出的修复建议",
        "check": "它建议在我的模型和数据上运行这些检查",
        "asks": "请帮我：",
        "ask1": "判断这是 API 用法错误、数据维度问题、梯度相关问题，还是别的问题（请说明）",
        "ask2": "给我一个修改后可以运行的版本",
        "ask3": "解释为什么会出这个错，让我理解背后的原理",
        "role": "你是一个深入理解 PyTorch 原理的调试专家，解释要具体、分步骤。",
    },
}


def _rebuilt_traceback(err: Error) -> str:
    """The text path keeps frames and message, not the pasted bytes; print them as Python does."""
    lines = []
    if err.frames:
        lines.append("Traceback (most recent call last):")
        for f in err.frames:
            lines.append(f'  File "{f.filename}", line {f.lineno}, in {f.name}')
            if f.line:
                lines.append(f"    {f.line}")
    lines.append(err.text)
    return "\n".join(lines)


def to_prompt(diagnosis: Diagnosis, lang: str, context: Context | None = None) -> str:
    w = _WORDS[lang]
    c = colon(lang).strip()  # inside **bold**, no trailing space
    context = context or Context()
    best = diagnosis.best
    out = [w["intro"], ""]
    tb = context.traceback
    if tb is None:
        root = best.error if best and best.error else diagnosis.trace.root
        tb = _rebuilt_traceback(root) if root else diagnosis.trace.text
    tb_lines = tb.rstrip("\n").split("\n")
    if len(tb_lines) > _MAX_TRACEBACK_LINES:  # the top of a deep stack says little
        tb_lines = ["...", *tb_lines[-_MAX_TRACEBACK_LINES:]]
    out += [f"**{w['traceback']}{c}**", "", *_fence("\n".join(tb_lines)), ""]
    snip = context.snippet
    if snip:
        last = snip.first + len(snip.lines) - 1
        title = w["code"].format(file=snip.filename, first=snip.first, last=last, line=snip.failing)
        width = len(str(last))
        numbered = "\n".join(
            f"{'>' if snip.first + i == snip.failing else ' '}{snip.first + i:>{width}}  {line}"
            for i, line in enumerate(snip.lines)
        )
        out += [f"**{markdown_text(title)}{c}**", "", *_fence(numbered, "python"), ""]
    else:
        out += [f"**{w['no_code']}**", ""]
    facts = facts_of(diagnosis, best, context) if best else None
    if facts:
        out += [f"**{w['tensors']}{c}**", ""]
        out += [f"- {code_span(line)}" for line in facts_lines(facts)] + [""]
    if context.environment:
        out += [f"**{w['environment']}{c}**", ""]
        out += [f"- {k}: {v}" for k, v in context.environment] + [""]
    out += [f"**{w['diagnosis']}{c}**", ""]
    if best is None:
        out += [w["no_diagnosis"], ""]
        loc = diagnosis.source
        if loc is not None:
            from .i18n import t
            from .source import source_lines

            head, sites = source_lines(loc, lang, markdown=True)
            out += [f"**{t('source', lang)}{c}**", ""] + [x for line in head for x in (line, "")]
            out += [f"- {line}" for line in sites] + [""]
    else:
        entry = best.entry
        out += [f"{best.title[lang]} ({code_span(entry.id)})", ""]
        said = said_and_notes(explanation(best, lang), notes(diagnosis, best, lang, context))
        out += [line for note in said for line in (markdown_text(note), "")]
        out += [best.cause[lang].strip(), "", f"{w['fix']}{c}", "", best.fix[lang].strip(), ""]
        steps = check_steps(entry, lang, markdown=True)
        if steps:
            out += [f"{w['check']}{c}", ""]
            out += [f"- {code_span(call)}{colon(lang)}{said}" for call, said in steps] + [""]
    out += [f"**{w['asks']}**", "", f"1. {w['ask1']}", f"2. {w['ask2']}", f"3. {w['ask3']}", ""]
    out.append(w["role"])
    return visible("\n".join(out) + "\n")
