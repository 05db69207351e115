"""Write the bilingual site's pages from kb/: one page per entry and language, the index of all
families by section, the home page and the CLI reference. mkdocs runs it from hooks/kb_pages.py
before every build, so `mkdocs serve` never shows a stale page.

Each entry page has the same sections in both languages: what you see / why it happens / how to
fix it (broken vs fixed tabs) / reproduce it / related entries.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import quote

from ..cli import COMMANDS, build_command_parser, build_parser
from ..knowledge.groups import GROUPS
from ..knowledge.index import kb_dir
from ..knowledge.schema import Entry, load_kb
from ..lint.docs import entry_section as rule_links
from ..lint.docs import write_rule_pages
from ..runtime.docs import entry_section as check_links
from ..runtime.docs import write_runtime_pages
from ..speak.cli_zh import command_section
from ..speak.i18n import t

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..knowledge.source_tier import Site

# The repository behind the published site (repo_url in mkdocs.yml; a test keeps them equal).
REPO_URL = "https://github.com/torch-diagnoser/torch-diagnoser"
# Words every message has: as search prefixes they would match anything ("a" → "allocate").
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "has",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "the",
        "this",
        "to",
        "was",
        "with",
    ]
)
# The exception's class before a message: the tables show the message alone.
_EXCEPTION = re.compile(r"^[\w.]+(?:Error|Exception|Warning): ")
_CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
# A line break inside a Chinese paragraph shows as a space: between two characters, and after
# full-width punctuation whatever follows ("原因：\n`x`" read "原因： x"). Not before a line
# that starts a list item, a table row, a heading, a fence or an admonition.
_CJK_BREAK = re.compile(
    f"(?<=[{_CJK}])\\n[ \\t]*(?=[{_CJK}])"
    "|(?:(?<=[，。：；！？、）」』】])|(?<=[，。：；！？、）」』】]\\*\\*))"
    "\\n[ \\t]*(?![-*+>|#=!]|\\d+\\. |```|\\s)"
)


def _w(key: str, lang: str) -> str:
    return t(f"site_{key}", lang)


def _prose(md: str, lang: str) -> str:
    md = _separate_items(_four_space_items(md.strip()))
    return join_chinese_lines(md) if lang == "zh" else md


# Chinese text puts no space after full-width punctuation, but the KB's lead-ins ("**学习率。**
# 最常见的原因") and the generated lines ("（torch 2.13.0） · 图中断") do: the spaces go, also
# after the bold that closes a lead-in or a link's address; not before a table's "|" nor at a
# line's end, and never inside code (a fenced block or an inline span, matched first and kept).
_PUNCT_SPACE = re.compile(
    r"(```.*?```|`[^`\n]*`)"
    r"|(?<=[，。：；！？、）」』】])(\*\*|\*|__|\]\([^)\s]*\))?[ \t]+(?=[^\s|])",
    re.S,
)


def join_chinese_lines(md: str) -> str:
    """Chinese markdown without the spaces its line breaks would show, nor spaces after
    full-width punctuation (code untouched); hooks/kb_pages.py runs it on every Chinese page."""
    parts = re.split(r"(```.*?```)", md, flags=re.S)
    joined = "".join(p if p.startswith("```") else _CJK_BREAK.sub("", p) for p in parts)
    return _PUNCT_SPACE.sub(lambda m: m.group(1) or m.group(2) or "", joined)


_ORDERED_ITEM = re.compile(r"^\d+\. ")
_ITEM = re.compile(r"^( *)(?:[-*+]|\d+\.) ")


def _separate_items(md: str) -> str:
    """A blank line before an item that follows a paragraph of the item before it, where that
    item already holds several blocks (text, code, text): without one, Python-Markdown reads the
    new item as more of the paragraph, and the rest of the list shows as "- ..." text."""
    out: list[str] = []
    loose: dict[int, bool] = {}  # per indentation: a blank line since that level's last item
    for line in md.split("\n"):
        item = _ITEM.match(line)
        if not line.strip():
            loose = dict.fromkeys(loose, True)
        elif item:
            indent = len(item.group(1))
            if loose.get(indent) and out and out[-1].strip() and not _ITEM.match(out[-1]):
                out.append("")
            loose = {k: v for k, v in loose.items() if k < indent} | {indent: False}
        out.append(line)
    return "\n".join(out)


def _four_space_items(md: str) -> str:
    """The KB writes a numbered step's code and second paragraph under its text (3 spaces, as
    CommonMark does), but Python-Markdown needs 4 to keep them in the item: with 3, each step
    became a list of its own, every one numbered "1.". One more space inside each item."""
    out, in_item = [], False
    for line in md.split("\n"):
        if _ORDERED_ITEM.match(line):
            in_item = True
        elif in_item and line.strip() and not line.startswith("   "):
            in_item = False
        elif in_item and line.strip():
            line = " " + line
        out.append(line)
    return "\n".join(out)


def _report_url(entry: Entry) -> str:
    """A new issue about this entry, with the headings a useful report needs."""
    title = quote(f"Wrong diagnosis: {entry.id}")
    body = quote(
        "What I pasted (the whole traceback or log):\n\n```\n\n```\n\n"
        f"What diagnoser said: {entry.id}\nWhat the error really was:\n"
    )
    return f"{REPO_URL}/issues/new?title={title}&body={body}"


# Lines that only frame a message: "=====", "-----".
_RULE = re.compile(r"^[=\-_*#~ ]+$")
# Where a warning or a log line comes from, before its message: Python's warnings
# ("/path/file.py:441: ") and glog's ("W1126 22:49:33.873000 10584 torch/x.py:1994] ").
_ORIGIN = re.compile(r"^(?:[IWEF]\d{4} [\d:.]+ +\d+ \S+:\d+\] |(?:[A-Za-z]:)?[^\s:]*\.py:\d+: )")
_HEADER = re.compile(r"^[\w.]+(?:Error|Exception|Warning):$")


def message_line(entry: Entry, example: str) -> str:
    """The line of an example that holds the message, without the path or log prefix before it:
    the last exception line that ends in a colon, with the line after it (torchrun's
    "ChildFailedError:" then "train.py FAILED", whose table holds what signatures recognise),
    else the first line a signature recognises (an example may start with "Traceback (most
    recent call last):"), else the last line that is not a row of "="."""
    lines = [line.strip() for line in example.strip().split("\n") if line.strip()]
    lines = [line for line in lines if not _RULE.match(line)] or lines
    for i in reversed(range(len(lines) - 1)):
        # not a header over another traceback: spawn's "ProcessRaisedException:" then "-- Process
        # 1 terminated with the following error:" heads the child's, whose error is the message
        if _HEADER.match(lines[i]) and not any(
            line.startswith("Traceback (") for line in lines[i + 1 : i + 3]
        ):
            return f"{lines[i]} {lines[i + 1]}"
    # A pattern that matches nothing at all ("^" beside a `type`) recognises the exception's
    # class, not a line: it would pick "Traceback (most recent call last):".
    worded = [sig.pattern for sig in entry.signatures if not re.search(sig.pattern, "")]
    for line in lines:
        if any(re.search(pattern, line, re.IGNORECASE) for pattern in worded):
            return _ORIGIN.sub("", line)
    return _ORIGIN.sub("", lines[-1])


def _fence(text: str, lang: str = "text", indent: str = "") -> str:
    body = "\n".join(indent + line for line in text.rstrip().split("\n"))
    return f"{indent}```{lang}\n{body}\n{indent}```"


# A word of a title: a run of Latin letters, digits and code punctuation, or one Chinese character.
_WORD = re.compile(f"[A-Za-z0-9_.'\\[\\]()]+|[{_CJK}]")
_NAMES = frozenset(["numpy", "torch", "torchrun", "torchvision", "pip", "conda"])
_NAV_LABEL = 48  # characters: two lines of the desktop sidebar at most


def title_parts(entry: Entry, lang: str) -> tuple[str, str]:
    """The title as its heading and the line under it: the message before the title's last colon
    and the cause after it. A message of one or two words names a component, not the family
    ("DDP", "CTCLoss", "gather / scatter"): such a title stays whole, with no line under it."""
    title = entry.title.en if lang == "en" else entry.title.zh
    parts = re.split(r": |：", title)
    message, cause = ": ".join(parts[:-1]), parts[-1]
    if len(parts) == 1 or len(_WORD.findall(message)) < 3:
        return title, ""
    first = cause.split(" ", 1)[0]
    if lang == "en" and first.isalpha() and first.islower() and first not in _NAMES:
        cause = cause[0].upper() + cause[1:]  # a plain word, not `torch.load`, `nn.X` or numpy
    return message, cause


def nav_label(entry: Entry, lang: str) -> str:
    """The entry in the sidebar: its heading's first wording ("mat1 and mat2 must have the same
    dtype", not "... / expected scalar type ..."), cut at a word to two lines."""
    heading = title_parts(entry, lang)[0].replace("`", "")  # the sidebar shows no markdown
    first = heading.split(" / ")[0]
    label = first if len(_WORD.findall(first)) >= 3 else heading
    if len(label) <= _NAV_LABEL:
        return label
    cut = label[: _NAV_LABEL - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(",;:，。：") + "…"


def phrases(entry: Entry, lang: str) -> list[str]:
    """How people describe the entry, in one language."""
    return entry.phrases.en if lang == "en" else entry.phrases.zh


def canonical_message(entry: Entry, lang: str) -> str:
    """What the user sees first: the first example's first line, or how people say a symptom."""
    if entry.examples:
        return message_line(entry, entry.examples[0])
    said = phrases(entry, lang)
    return said[0] if said else title_parts(entry, lang)[0]


def _code(text: str, limit: int = 90) -> str:
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return "`" + shown.replace("`", "'").replace("|", "\\|") + "`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def glance(entry: Entry, lang: str) -> list[str]:
    """At a glance: the message, the cause and the fix in one line each, how to see it happen."""
    # A symptom's first line is how people describe it, not a message anything printed.
    said = "message" if entry.examples else "symptom"
    rows = [
        (_w(said, lang), _code(canonical_message(entry, lang), 200)),
        (_w("cause", lang), _cell(getattr(entry.glance.cause, lang))),
        (_w("quick_fix", lang), _cell(getattr(entry.glance.fix, lang))),
        (_w("reproduce", lang), f"`diagnoser repro {entry.id}`"),
    ]
    if entry.docs:
        links = ", ".join(f"[{d.title}]({d.url})" for d in entry.docs)
        rows.append((_w("docs", lang), links))
    out = [f"## {_w('glance', lang)}", ""]
    out += [f"- **{name}**{_w('colon', lang)}{value}" for name, value in rows]
    return [*out, ""]


_TAGGED: dict[tuple[str, tuple[str, ...]], str] = {}


def _tag_messages(entry: Entry) -> str:
    """The messages of every example, once for both languages' pages: a message's own words,
    not the 40 lines of backend names some print after them (the dispatcher's "Could not run ...
    is only available for these backends: [...]")."""
    key = (entry.id, tuple(entry.examples))
    if key not in _TAGGED:
        lines = [message_line(entry, ex) for ex in entry.examples]
        _TAGGED[key] = " ".join(_EXCEPTION.sub("", line)[:240] for line in lines)
    return _TAGGED[key]


def search_meta(entry: Entry, lang: str) -> str:
    """Front matter that weights the search. The words of every known wording of the message,
    and of how people describe the entry in the page's language, go into the index's tags field,
    the most heavily weighted: a pasted message finds its entry before pages that merely mention
    its words. Every wording can be there because a query's words match the index's words
    exactly, all but the last (hooks/search_query.js): no wording's vocabulary matches a query
    by prefix. The tags are not shown. Frequent entries get a higher boost, which decides between
    entries that match equally ("dtype")."""
    text = " ".join([_tag_messages(entry), *phrases(entry, lang)]).lower()
    words = dict.fromkeys(w for w in re.findall(r"[^\W\d_]\w*", text) if w not in _STOP)
    boost = 1 + (26 - entry.rank) / 25 if entry.rank and entry.rank <= 25 else 1
    # The page's title (the browser's tab, the search's results) stays whole: the heading shows
    # the message, the line under it the cause (title_parts).
    title = entry.title.en if lang == "en" else entry.title.zh
    meta = {"title": title, "search": {"boost": round(boost, 2)}, "tags": [" ".join(words)]}
    return f"---\n{json.dumps(meta, ensure_ascii=False)}\n---\n"


def entry_page(entry: Entry, titles: dict[str, Entry], scripts: Path, lang: str) -> str:
    heading, cause = title_parts(entry, lang)
    out = [search_meta(entry, lang), f"# {heading}", ""]
    if cause:
        out += [f'<p class="td-cause" markdown>{cause}</p>', ""]
    out.append(f"`{entry.id}` · {GROUPS[entry.group][lang]}")
    out += ["", *glance(entry, lang)]
    out += [f"## {_w('what', lang)}", ""]
    if entry.kind == "error":
        first, *others = [ex.strip() for ex in entry.examples]
        out += [_fence(first), ""]
        versions = _versions(entry)
        if others or versions:
            # Every known wording is worth having, but folded: the page leads with one message.
            # Under a heading of their own they are a search section of their own too, so that
            # 30 wordings do not dilute the match of a pasted message with the section above.
            count = len(others) + 1
            out += [f"### {_w('other_wordings', lang)}", ""]
            out += [f'??? note "{_w("wordings", lang).format(count=count)}"', ""]
            if others:
                out += [_fence("\n\n".join(others), indent="    "), ""]
            if versions:
                out += [
                    f"    | {_w('wording', lang)} | {_w('versions', lang)} |",
                    "    | --- | --- |",
                ]
                for wording, torch in versions:
                    out.append(f"    | {_code(wording, 100)} | {torch} |")
                out.append("")
    out += [f"**{_w('phrases', lang)}**", ""]
    out += [f"- {p}" for p in phrases(entry, lang)] + [""]
    out += [
        f"## {_w('why', lang)}",
        "",
        _prose(entry.cause.en if lang == "en" else entry.cause.zh, lang),
        "",
    ]
    script = (scripts / f"{entry.id}.py").read_text(encoding="utf-8")
    fix = _prose(entry.fix.en if lang == "en" else entry.fix.zh, lang)
    out += [f"## {_w('fix', lang)}", ""]
    out += [f'=== "{_w("fixed", lang)}"', "", _indent(fix), ""]
    out += [f'=== "{_w("broken", lang)}"', "", _fence(script, "python", "    "), ""]
    out += [f"## {_w('reproduce', lang)}", "", _w("run", lang), ""]
    out += [
        _fence(
            f"diagnoser repro {entry.id}\ndiagnoser repro {entry.id} --fixed\n"
            f"# {'or' if lang == 'en' else '或者'}\npython reproductions/{entry.id}.py\n"
            f"python reproductions/{entry.id}.py --fixed",
            "sh",
        ),
        "",
    ]
    needs = [n for n in entry.reproduction.needs if n != "cpu"]
    if needs:
        out += [f"{_w('needs', lang)}{_w('colon', lang)}{', '.join(needs)}", ""]
    out += source_section(entry, lang)
    out += rule_links(entry.id, lang)
    out += check_links(entry.id, lang)
    if entry.see_also:
        out += [f"## {_w('related', lang)}", ""]
        for ref in entry.see_also:
            other = titles[ref]
            out.append(f"- [{other.title.en if lang == 'en' else other.title.zh}]({ref}.md)")
        out.append("")
    out += [_w("report", lang).format(url=_report_url(entry)), ""]
    return "\n".join(out)


_MAX_SOURCE_SITES = 5


def source_sites(entry: Entry) -> list[Site]:
    """The PyTorch sites that raise the entry's example messages (the source tier), each once."""
    return list(_sites(tuple(entry.examples) if entry.kind == "error" else ()))


@cache  # each entry has a page in each language: its examples are looked up once
def _sites(examples: tuple[str, ...]) -> tuple[Site, ...]:
    from ..knowledge.source_tier import locate

    sites: dict[tuple[str, int], Site] = {}
    for example in examples:
        exc = _EXCEPTION.match(example.strip())
        message = example.strip()[exc.end() :] if exc else example.strip()
        found = locate(message, exc.group().rstrip(": ") if exc else None)
        for site in found.sites if found else ():
            sites.setdefault((site.file, site.line), site)
    return tuple(sites.values())[:_MAX_SOURCE_SITES]


def source_section(entry: Entry, lang: str) -> list[str]:
    from ..speak.source import site_line

    sites = source_sites(entry)
    if not sites:
        return []
    out = [f"## {_w('sources', lang)}", "", _w("sources_intro", lang), ""]
    return out + [f"- {site_line(s, lang, markdown=True)}" for s in sites] + [""]


_UNKNOWN = {
    "en": """# Unknown error?

When no entry of this guide explains an error, `diagnoser` still says **where PyTorch raises
it**, if PyTorch's own sources print that message: the op, the file and line, the condition that
failed, and the releases that print it. It does not explain the error and never names an entry:
the answer is still "no entry", with the place to read next.

```text
$ python -c "import torch; torch.zeros(3).topk(5)" 2>&1 | diagnoser
No entry in the knowledge base explains this text.

Where PyTorch raises it
  ...
  - {example}
```

`diagnoser --json` gives the same as `source` (`null` whenever an entry matched): every site's
`file`, `line`, `function`, `op`, `condition`, `type`, `versions`, whether the wording is still
printed by the newest release checked (`current`), and the op's documentation (`docs`).

## How it is built

The **source tier** is an index of {templates} message templates extracted from PyTorch's own
sources: the C++ checks (`TORCH_CHECK` and its forms, `AT_ERROR`, `TORCH_INTERNAL_ASSERT`,
`C10_THROW_ERROR`, `throw std::...`) of torch {cpp}, the Python `raise` sites, `torch._check`
calls and dynamo's graph breaks of torch {wheel}. Each message's string literals are kept; the
values it prints (shapes, names, sizes) become wildcards. A message is located when a template's
literal pieces occur in it in order.

A template must have enough words of its own to locate anything: 15 literal characters with one
piece of 12, or a 25-character opening. Wordings that Python, the operating system, numpy or
CUDA print for everyone (`No such file or directory`, `object has no attribute`, CUDA's
`CUDA_LAUNCH_BLOCKING=1` advice) do not count, and a template whose every word Python or numpy
prints is left out: those errors may not come from PyTorch at all.

The index is read only when no entry matches, and a lookup takes well under a millisecond.
PyTorch's sources are © the PyTorch contributors, under the BSD licence shipped beside the index.
""",
    "zh": """# 未知报错？

当这份指南里没有条目能解释一个报错时，只要这条消息是 PyTorch 源码自己打印的，`diagnoser` 仍会指出
**PyTorch 在哪里抛出它**：哪个算子、哪个文件哪一行、哪个检查没有通过、哪些版本会打印它。它不解释
报错，也从不给出条目：回答仍然是“没有条目”，只是告诉你接下来该去读哪里。

```text
$ python -c "import torch; torch.zeros(3).topk(5)" 2>&1 | diagnoser --lang zh
知识库里没有能解释这段文本的条目。

PyTorch 在哪里抛出它
  ...
  - {example}
```

`diagnoser --json` 把同样的内容放在 `source` 里（只要有条目匹配，它就是 `null`）：每一处的 `file`、
`line`、`function`、`op`、`condition`、`type`、`versions`，最新检查过的版本是否仍这样措辞
（`current`），以及算子的文档（`docs`）。

## 怎么建成的

**源码层**是从 PyTorch 自己的源码中提取的 {templates} 条消息模板的索引：torch {cpp} 的 C++ 检查
（`TORCH_CHECK` 及其变体、`AT_ERROR`、`TORCH_INTERNAL_ASSERT`、`C10_THROW_ERROR`、
`throw std::...`），以及 torch {wheel} 的 Python `raise`、`torch._check` 调用和 dynamo 的
graph break。每条消息的字符串字面量保留下来，它打印的值（形状、名字、大小）成为通配符；消息中按顺序
出现某个模板的全部字面片段，就算定位到了。

模板必须有足够多自己的文字：至少 15 个字面字符且有一段不短于 12 个，或者开头 25 个字符是字面量。
Python、操作系统、numpy 和 CUDA 对所有程序都会打印的措辞（`No such file or directory`、
`object has no attribute`、CUDA 建议设置 `CUDA_LAUNCH_BLOCKING=1` 的那段话）不计入；所有文字都是
Python 或 numpy 自己会打印的模板不收录：那样的报错未必来自 PyTorch。

只有在没有条目匹配时才会读取这个索引，一次查找远不到一毫秒。PyTorch 源码版权属于 PyTorch
贡献者，采用随索引一同发布的 BSD 许可证。
""",
}


def unknown_page(lang: str) -> str:
    """The "Unknown error?" page: what the source tier is, with the index's own numbers."""
    from ..knowledge.source_tier import count, locate, versions
    from ..speak.source import site_line

    found = locate("selected index k out of range", "RuntimeError")
    example = site_line(found.sites[0], lang) if found else "..."
    v = versions()
    return (
        _UNKNOWN[lang]
        .replace("{example}", example)
        .replace("{templates}", f"{count():,}")
        .replace("{cpp}", " / ".join(v.get("cpp", "?").split(",")))
        .replace("{wheel}", v.get("wheel", "?"))
    )


def _versions(entry: Entry) -> list[tuple[str, str]]:
    """Each wording whose torch versions are known, shown by the first example it matches."""
    rows = []
    for sig in entry.signatures:
        if not sig.torch:
            continue
        regex = re.compile(sig.pattern, re.IGNORECASE)
        example = next((ex for ex in entry.examples if regex.search(ex)), None)
        if example is not None:
            line = message_line(entry, example)
            rows.append((line if len(line) <= 100 else line[:97] + "...", sig.torch))
    return rows


def _indent(md: str) -> str:
    return "\n".join(("    " + line) if line.strip() else "" for line in md.split("\n"))


def quick_table(entries: list[Entry], lang: str, prefix: str = "") -> list[str]:
    """Entry → message → cause → fix, one row each: the founding guides' quick-reference table.
    The link comes first: on a phone the table scrolls sideways, and a last column started
    beyond the screen's right edge."""
    columns = [_w(key, lang) for key in ("entry", "message", "cause", "quick_fix")]
    out = ["| " + " | ".join(columns) + " |", "| --- | --- | --- | --- |"]
    for e in entries:
        message = _code(_EXCEPTION.sub("", canonical_message(e, lang)), 70)
        cause, fix = _cell(getattr(e.glance.cause, lang)), _cell(getattr(e.glance.fix, lang))
        out.append(f"| [{e.id}]({prefix}{e.id}.md) | {message} | {cause} | {fix} |")
    return [*out, ""]


def by_frequency(entries: list[Entry]) -> list[Entry]:
    """Ranked entries first (most frequent first), then the rest by id."""
    return sorted(entries, key=lambda e: (e.rank is None, e.rank or 0, e.id))


def index_page(entries: list[Entry], lang: str) -> str:
    out = [f"# {_w('all', lang)}", "", _w("all_intro", lang), ""]
    for group, names in GROUPS.items():
        members = by_frequency([e for e in entries if e.group == group])
        if members:
            out += [f"## {names[lang]}", "", *quick_table(members, lang)]
    return "\n".join(out)


def search_words(entries: list[Entry]) -> set[str]:
    """The Chinese words of how people describe each entry ("爆显存", "一直不下降"), for the
    search's word segmenter: the browser looks a Chinese query up by the index's own words, so a
    phrase that jieba cuts into pieces ("不" is a stop word) could never be found whole."""
    words: set[str] = set()
    for e in entries:
        for phrase in phrases(e, "zh"):
            words.update(w for w in re.findall(f"[{_CJK}]+", phrase) if len(w) > 1)
    return words


def nav(entries: list[Entry]) -> tuple[list[object], dict[str, str]]:
    """The navigation: home, the quick reference, one section per group with its entries (most
    frequent first), the lint rules, the runtime checks, the CLI, the Python API. Titles are
    English; the second value translates them for zh."""
    zh = {
        "Home": "首页",
        "Quick reference": "速查表",
        "Lint rules": "Lint 规则",
        "Runtime checks": "运行时检查",
        "CLI": "命令行",
        "Unknown error?": "未知报错？",
        "Diagnose": "在线诊断",
    }
    sections: list[object] = []
    for group, names in GROUPS.items():
        members = by_frequency([e for e in entries if e.group == group])
        if members:
            zh[names["en"]] = names["zh"]
            pages = []
            for e in members:
                title = nav_label(e, "en")
                zh[title] = nav_label(e, "zh")
                pages.append({title: f"entries/{e.id}.md"})
            sections.append({names["en"]: pages})
    items: list[object] = [
        {"Home": "index.md"},
        {"Diagnose": "diagnose.md"},
        {"Quick reference": "entries/index.md"},
        {"Unknown error?": "unknown.md"},
    ]
    tools = [
        {"Lint rules": "rules/index.md"},
        {"Runtime checks": "runtime.md"},
        {"CLI": "cli.md"},
        {"Python API": "api.md"},
    ]
    return [*items, *sections, *tools], zh


def cli_page(lang: str) -> str:
    parsers = [build_parser(), *(build_command_parser(c) for c in COMMANDS)]
    out = [f"# {_w('cli', lang)}", "", _w("cli_intro", lang), ""]
    for parser in parsers:
        if lang == "zh":
            out += command_section(parser)
        else:
            out += [f"## {parser.prog}", "", _fence(parser.format_help()), ""]
    return "\n".join(out)


_PASTE = {
    "en": {
        "label": "Paste a traceback, a training log or a sentence",
        "placeholder": "Traceback (most recent call last): ... or: my loss is nan after 3 epochs",
        "button": "Diagnose",
        "keys": "Ctrl+Enter",
        "private": "The diagnoser runs in your browser: nothing you paste leaves this page. "
        "The engine (about 15 MB) loads the first time you paste, then works offline.",
        "title": "Diagnose",
        "intro": "The same diagnoser as the `diagnoser` command, running in this page: the same "
        "entries, the same explanation with your own shapes, dtypes and line, the same answer "
        "as `diagnoser --json`.",
    },
    "zh": {
        "label": "粘贴报错堆栈、训练日志或一句描述",
        "placeholder": "Traceback (most recent call last): ……"
        "或者：训练 3 个 epoch 后 loss 变成 nan",
        "button": "诊断",
        "keys": "Ctrl+Enter",
        "private": "诊断完全在你的浏览器里运行：粘贴的内容不会离开这个页面。"
        "诊断引擎（约 15 MB）在你第一次粘贴时加载，之后可以离线使用。",
        "title": "在线诊断",
        "intro": "与命令行 `diagnoser` 相同的诊断器，直接在这个页面里运行：同样的条目，"
        "同样结合你自己的形状、dtype 和代码行的解释，与 `diagnoser --json` 给出的结果相同。",
    },
}


def paste_box(lang: str, root: str) -> str:
    """The paste box (site/javascripts/paste.js runs it): `root` is the site's root relative to
    the page, where engine/ and javascripts/ are."""
    w = _PASTE[lang]
    return (
        f'<div class="td-paste" data-lang="{lang}" data-root="{root}">\n'
        f'<label for="td-paste-{lang}">{w["label"]}</label>\n'
        f'<textarea id="td-paste-{lang}" rows="8" spellcheck="false" autocomplete="off" '
        f'placeholder="{w["placeholder"]}"></textarea>\n'
        f'<div class="td-paste__bar"><button type="button" class="md-button md-button--primary">'
        f"{w['button']}</button> <kbd>{w['keys']}</kbd> "
        f'<progress max="1" value="0" hidden></progress> '
        f'<span class="td-paste__status" role="status" aria-live="polite"></span></div>\n'
        f'<p class="td-paste__private">{w["private"]}</p>\n'
        f'<div class="td-paste__answer" aria-live="polite"></div>\n'
        f"</div>\n"
        f'<script type="module" src="{root}javascripts/paste.js"></script>\n'
    )


def diagnose_page(lang: str) -> str:
    root = "../../" if lang == "zh" else "../"  # diagnose/ and zh/diagnose/
    w = _PASTE[lang]
    return f"# {w['title']}\n\n{w['intro']}\n\n{paste_box(lang, root)}"


def home_page(entries: list[Entry], template: str, lang: str) -> str:
    top = by_frequency([e for e in entries if e.rank is not None])
    table = "\n".join(quick_table(top, lang, prefix="entries/"))
    box = paste_box(lang, "../" if lang == "zh" else "./")  # the homes: / and zh/
    return (
        template.replace("{{top_errors}}", table)
        .replace("{{count}}", str(len(entries)))
        .replace("{{paste_box}}", box)
    )


def _write(path: Path, text: str) -> None:
    """Only when the text changed: mkdocs serve rebuilds on every write."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def write_pages(docs_dir: Path, kb: Path | None = None) -> list[Path]:
    kb = kb or kb_dir()
    scripts = kb.parent / "reproductions"  # beside kb/, in the repository and in the wheel
    entries = load_kb(kb)
    titles = {e.id: e for e in entries}
    pages_dir = docs_dir / "entries"
    written = []
    for lang in ("en", "zh"):
        for entry in entries:
            path = pages_dir / f"{entry.id}.{lang}.md"
            _write(path, entry_page(entry, titles, scripts, lang))
            written.append(path)
        _write(pages_dir / f"index.{lang}.md", index_page(entries, lang))
        template = (docs_dir / "_templates" / f"home.{lang}.md").read_text(encoding="utf-8")
        _write(docs_dir / f"index.{lang}.md", home_page(entries, template, lang))
        _write(docs_dir / f"cli.{lang}.md", cli_page(lang))
        _write(docs_dir / f"unknown.{lang}.md", unknown_page(lang))
        _write(docs_dir / f"diagnose.{lang}.md", diagnose_page(lang))
        written += [
            docs_dir / f"diagnose.{lang}.md",
            docs_dir / f"unknown.{lang}.md",
            pages_dir / f"index.{lang}.md",
            docs_dir / f"index.{lang}.md",
            docs_dir / f"cli.{lang}.md",
        ]
    for stale in pages_dir.glob("*.md"):  # an entry whose YAML is gone
        if stale not in written:
            stale.unlink()
    written += write_rule_pages(
        docs_dir, {e.id: {"en": e.title.en, "zh": e.title.zh} for e in entries}
    )
    written += write_runtime_pages(docs_dir, set(titles))
    return written
