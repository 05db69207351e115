"""Undo what happened to a traceback between the program and the diagnoser.

Logs arrive with bytes in any encoding, colour codes, carriage-return progress bars, a prefix on
every line (timestamps, log levels, `[rank3]:`, journald, horovod, markdown quotes, pytest's `E`,
rich's boxes), interleaved ranks, or the whole traceback squashed into a repr(), a JSON object,
HTML or one line. `normalise(text)` gives back plain lines that parse.py can read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..knowledge.regex_cache import compile_cached

# No line of a traceback is this long; cutting keeps every later regex linear on junk.
MAX_LINE = 10_000

# Terminal sequences, 7- and 8-bit: CSI (colours, cursor moves), OSC (titles, links) to its end,
# charset designations (ESC ( 0), any other ESC pair (ESC c resets the screen); then any control
# character left but tab, newline and carriage return (which become newlines below).
_ANSI = compile_cached(
    r"(?:\x1b\[|\x9b)[0-9;?]*[ -/]*[@-~]"
    r"|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]{0,4096}(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
)
_CONTROL = compile_cached(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_CURLY = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "\u00a0": " "})
# A traceback header glued to what came before it (a progress bar); "Original Traceback" (a
# DataLoader worker re-raise) stays where it is.
_GLUED_HEADER = compile_cached(r"(?<=\S)(?<!Original )(Traceback \(most recent call last\):)")

# Per-process prefixes: the part in group "who" says which process printed the line (public:
# triage reads the rank from it).
RANK_PREFIX = compile_cached(
    r"^(?:\[(?P<who>(?:rank|default)?\d+)\]:|\[(?P<who2>\d+,\d+)\]<std(?:err|out)>:"
    r"|(?P<who3>\d+): (?=\S|\s{2})) ?"
)
# The prefixes a logger writes (a time, a level), then a quote's, a relay's and pytest's.
_RECORD_PREFIXES = [
    compile_cached(
        r"^\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?"
        r"(?: ?[-|:] ?| )"
    ),
    compile_cached(r"^\[?\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\]? (?:[-|] )?"),
    compile_cached(
        r"^[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \S+ [^\s:\[]+(?:\[\d+\])?: ?"
    ),  # journald
    # glog (C++, and torch.distributed's Python logs since 2.4, with a path)
    compile_cached(r"^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+ +\d+ [\w./\\-]+:\d+\] "),
    compile_cached(r"^\[(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\]:? ?"),
    # logging formats; a record that says only "failed" keeps its logger's name, which says
    # what failed (torchrun's "ERROR:torch.distributed.elastic.multiprocessing.api:failed")
    compile_cached(r"^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)(?: - | \| |:[\w.]+:(?!failed[ \t]*$))"),
    compile_cached(r"^[\w.]+ - (?:DEBUG|INFO|WARNING|ERROR|CRITICAL) - "),
    # torch 2.0-2.1's own loggers: "torch._dynamo.convert_frame: [WARNING] " (a module path, in
    # lower case: "RuntimeError: [ERROR] ..." is an exception line)
    compile_cached(r"^(?:[a-z_]\w*\.)+[a-z_]\w*: \[(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\] ?"),
]
_PREFIXES = [
    compile_cached(r"^(?:> ?)+"),  # markdown quote
    *_RECORD_PREFIXES,
    compile_cached(r"^\[[^\]\n]{1,40} (?:STDERR|STDOUT|stderr|stdout)\] ?"),
    compile_cached(r"^(?:stderr|stdout): "),  # a subprocess's output relayed (accelerate's tests)
    compile_cached(r"^E {3}|^E$"),  # pytest's failure lines
    # pdb's and ipdb's report of an exception a command raised ("*** RuntimeError: ...")
    compile_cached(r"^\*\*\* (?=(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning): )"),
    # a list's number before an exception line ("(1) RuntimeError: ...", "2. ValueError: ..."):
    # a post that lists the errors it got. A Chinese list's ("1、", "（2）") is kept: its items
    # are read together (_after_a_chinese_lead)
    compile_cached(
        r"^\(?\d{1,2}[).]"
        r"(?=[ \t]{0,4}(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning): )[ \t]*"
    ),
]
# Any of them, asked once: most lines hold none, and one match costs a twelfth of the subs.
_ANY_PREFIX = compile_cached("|".join(f"(?:{prefix.pattern})" for prefix in _PREFIXES))
_RECORD_PREFIX = compile_cached("|".join(f"(?:{prefix.pattern})" for prefix in _RECORD_PREFIXES))
_BOX_EDGE = compile_cached(r"^[│┃║|] ?|\s?[│┃║]\s*$")
# An exception line a forum post set in bold or as inline code, "**RuntimeError: ...**": markdown
# around the whole line, which the line itself never has.
_EMPHASISED_EXC = compile_cached(
    r"^(\*\*|__|`)((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Warning)\b.*?)\1$"
)
# Italics opened on an error line and closed lines later ("_ERROR: pip's dependency resolver ...",
# its conflicts below, "... which is incompatible._"): the opening mark would read as part of a
# class name. A lower-case name after an underscore is a real module (_pickle.UnpicklingError).
_ITALIC_OPENED = compile_cached(
    r"^[_*](?=(?:ERROR|WARNING|[A-Z][A-Za-z0-9]*(?:Error|Exception|Warning)): )"
)
_BOX_BORDER = compile_cached(r"^\s*[╭╰┌└╔╚][─━═╴ ].*$|^\s*[─━═]{5,}\s*$")
_RICH_HEADER = compile_cached(r"^\s*╭─+ Traceback \(most recent call last\) ─+╮\s*$")
_RICH_FRAME = compile_cached(r"^(?P<file>\S.*?):(?P<line>\d+) in (?P<name>\S+)\s*$")
# The source up to its last non-blank (not `.*?` then `\s*$`, which rescans the blanks after each
# character: quadratic on a long blank tail)
# (">" where the console cannot print "❱": rich's legacy Windows console)
_RICH_SOURCE = compile_cached(r"^[❱>] ?\d+ (?:│ ?)*(?P<src>(?:.*\S)?)\s*$")
# A frame's line of a box whose top was cut off the paste (a Python file, its name possibly
# wrapped onto the next line): the traceback goes on from there
_RICH_HEADLESS_FRAME = compile_cached(r"^\S[^│]*?\.py:\d+ in(?: \S+)?$")
# A Markdown code fence around a paste: its ``` would end up in the message above it.
_FENCE = compile_cached(r"^[ \t>]*(?:```|~~~)[\w+-]*[ \t]*$", re.M)
_FLAT_FRAME = compile_cached(r' (?=File "[^"]+", line \d+)')
# A traceback quoted in a sentence: 'The console feed me back "File "C:\...\module.py", line 201,
# in _forward_unimplemented' and the frames go on below. The frame ends the sentence's line.
_FRAME_AT_END = compile_cached(r'File "[^"\n]+", line \d+, in \S+[ \t]*')
# Chinese characters, CJK and full-width punctuation: a paste without any is left as it is.
_CJK = compile_cached(r"[\u3000-\u303f\u3400-\u9fff\uff01-\uff5e]")
# An exception's class (ASCII: \w would run on into the Chinese before it; capitalised, ending as
# Python's classes do) right after a Chinese character, with its colon; a CUDA kernel's assertion
# likewise (or inside the curly quotes a Chinese sentence opens: 报错“FloatingPointError: ...”), and
# an error glued after that assertion ("报错Assertion `t >= 0 && t < n_classes`
# failed.RuntimeError: CUDA error: device-side assert triggered")
_CJK_BEFORE_EXC = compile_cached(
    r"(?:(?<=[\u3000-\u303f\u3400-\u9fff\uff01-\uff5e])|(?<=[\u3000-\u303f\u3400-\u9fff\uff01-\uff5e][“‘\"'])"
    r"|(?<=` failed\.))"
    # (the class alone at the line's end too: its message follows on the next line, as
    # torch.utils.cpp_extension raises it, "报错：RuntimeError:\nThe detected CUDA version ...")
    r"(?=(?:[A-Za-z_][A-Za-z0-9_]{0,80}\.){0,8}[A-Z][A-Za-z0-9_]{0,80}"
    r"(?:Error|Exception|Warning):(?: |\n|$)"
    r"|Assertion `)"
)
_LIST_NUMBER = compile_cached(r"\s{0,8}[(（]?[0-9一二三四五六七八九十]{1,3}[)）、.．:：]?\s{0,8}")
_FLAT_EXC = compile_cached(r" (?=(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning): )")
_REPR_EXC = compile_cached(
    r"(?<![\w.])((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception))\((['\"])"
)
_JSON_FIELD = compile_cached(
    r'"(?:message|msg|stack|stacktrace|traceback|error|stderr|detail|log)"\s*:\s*("(?:[^"\\]|\\.)*")'
)


def decode(data: bytes) -> str:
    """Bytes to text whatever the encoding: UTF-8/UTF-16 by BOM or by its NUL pattern, GB18030
    for Chinese Windows logs, anything else with replacement characters."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    sample = data[:4000]
    if len(sample) >= 8 and sample[1::2].count(0) > 0.4 * len(sample) // 2:
        return data.decode("utf-16-le", errors="replace")  # PowerShell's `>` without a BOM
    try:  # "utf-8-sig" would do the same, at the cost of importing its codec on every start
        return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("gb18030")
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace")


def normalise(text: str) -> str:
    text = _unwrap(text)
    # (each substitution only where what it looks for is in the text: tried at every position of
    # every paste, the three cost a tenth of a diagnosis)
    if _CONTROL.search(text):  # every sequence _ANSI removes starts with a control character
        text = _ANSI.sub("", text)
    text = text.translate(_CURLY)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "Traceback (most recent call last):" in text:
        text = _GLUED_HEADER.sub(r"\n\1", text)
    if "```" in text or "~~~" in text:
        text = _FENCE.sub("", text)
    if "it/s]" in text or "s/it]" in text:
        text = _AFTER_A_BAR.sub("\n", text)
    # (isascii first: a str knows whether it is ASCII, where the search reads every character)
    if (
        not text.isascii()
        and ("Error" in text or "Exception" in text or "Warning" in text)
        and _CJK.search(text)
    ):
        text = _after_a_chinese_lead(text)
    if "）" in text:
        text = _MIXED_PAIR.sub(r"(\1)", text)
    lines = _rich_boxes(text.split("\n"))
    lines = _by_process(_unflatten(line[:MAX_LINE]) for line in lines)
    if 'File "' in text:
        lines = list(map(_quoted_frame, lines))
    return "\n".join(lines)


# An ASCII bracket closed by a full-width one, as a Chinese input method types it after a
# message's last digit ("not enough values to unpack (expected 3, got 2）"): the message's own.
_MIXED_PAIR = compile_cached(r"\(([\x20-\x27\x2a-\x7e]{1,200})）")


# A tqdm bar the next output was written after, on the same line once the carriage returns are
# gone ("  0% 0/480 [00:00<?, ?it/s]/content/.../inference.py:44: FutureWarning: ..."): the bar
# ends its line, so that what follows is read as the line it was printed as.
_AFTER_A_BAR = compile_cached(r"(?<=[\d?](?:it/s|s/it)\])(?=[^\s\],|])")


def _after_a_chinese_lead(text: str) -> str:
    """An error line retold after a Chinese lead-in, with no space or line break between
    them ("报错RuntimeError: CUDA error: ...", "文本识别训练报错：OSError: ...",
    "训练时出现BrokenPipeError: [Errno 32] Broken pipe"): the error goes on a line of its own,
    as Python prints it, so that it is read with its class."""

    def split(m: re.Match[str]) -> str:
        # a list's number ("1、IndexError: ...", "（2）RuntimeError: ...") is no lead-in: the items
        # of a list of errors are read together, as before
        lead = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
        return "" if _LIST_NUMBER.fullmatch(lead) else "\n"

    return _CJK_BEFORE_EXC.sub(split, text)


def _rich_boxes(lines: list[str]) -> list[str]:
    """rich's boxed traceback back into Python's layout: frames, the ❱ source line, no context."""
    out: list[str] = []
    inside = False
    skip = False
    for n, line in enumerate(lines):
        if skip:
            skip = False
            continue
        if _RICH_HEADER.match(line):
            inside = True
            out.append("Traceback (most recent call last):")
            continue
        if not inside:
            if not (line.lstrip()[:1] == "│" and _headless_frame(line, lines[n + 1 : n + 2])):
                out.append(line)
                continue
            inside = True
            out.append("Traceback (most recent call last):")
        if line.lstrip().startswith("╰"):
            inside = False
            continue
        content = _in_box(line)
        frame = _RICH_FRAME.match(content)
        if frame is None and content and n + 1 < len(lines):
            # A frame's `path:line in name` wrapped at the box's width (a long path)
            rest = _in_box(lines[n + 1])
            # rich breaks at a space (dropped) when it can, else inside the path
            is_context = content[:1].isdigit() or content[:1] in "❱>"  # numbered source
            if rest and not is_context:
                frame = _RICH_FRAME.match(content + rest) or _RICH_FRAME.match(f"{content} {rest}")
            skip = frame is not None
        source = _RICH_SOURCE.match(content)
        if frame:
            file, lineno, name = frame.group("file", "line", "name")
            out.append(f'  File "{file}", line {lineno}, in {name}')
        elif source:
            out.append(f"    {source.group('src')}")
    return out


def _headless_frame(line: str, after: list[str]) -> bool:
    """A frame's line of a box whose top was cut off, or its first part, the path wrapped at the
    box's width onto the next line (rich breaks at a space, dropped, or inside the path)."""
    content = _in_box(line)
    if _RICH_HEADLESS_FRAME.match(content):
        return True
    rest = _in_box(after[0]) if after and after[0].lstrip()[:1] == "│" else ""
    return bool(rest) and any(
        _RICH_HEADLESS_FRAME.match(joined) for joined in (content + rest, f"{content} {rest}")
    )


def _in_box(line: str) -> str:
    return _BOX_EDGE.sub("", line.strip()).strip()


def _unwrap(text: str) -> str:
    """A traceback kept inside a JSON object, a repr() with literal \\n, or HTML."""
    stripped = text.strip()
    if stripped[:1] in "{[" and '"' in stripped:
        found = _json_strings(stripped)
        if found:
            text = "\n\n".join(found)
    if text.count("\\n") >= 2 and text.count("\\n") > text.count("\n"):
        text = text.replace("\\r\\n", "\n").replace("\\n", "\n").replace("\\t", "\t")
        text = text.replace("\\'", "'").replace('\\"', '"')
        text = _REPR_EXC.sub(r"\1: ", text)
    if _HTML_ENTITY.search(text):
        import html  # its table of entities is a cost only HTML-escaped text should pay

        text = html.unescape(text)
    return text


_HTML_ENTITY = compile_cached(r"&(?:lt|gt|amp|quot|#39|#x27);")


def _json_strings(text: str) -> list[str]:
    import json  # only for a paste wrapped in JSON: a plain diagnosis never reads any

    # strict=False: VS Code's "copy error" JSON keeps raw line breaks inside its strings.
    try:
        data = json.loads(text, strict=False)
    except ValueError:
        return [json.loads(m, strict=False) for m in _JSON_FIELD.findall(text) if _loads_ok(m)]
    out: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    return out


def _loads_ok(literal: str) -> bool:
    import json

    try:
        json.loads(literal, strict=False)
    except ValueError:
        return False
    return True


def _quoted_frame(line: str) -> str:
    """A frame quoted at the end of a sentence's line (above) on a line of its own, without the
    quote that opened it; what a process prefix began is left to _by_process, which ran before."""
    at = line.rfind('File "')
    if at <= 0 or not _FRAME_AT_END.fullmatch(line, at):
        return line
    head = line[:at].rstrip(" \t")
    if not head or head[-1] not in "\"'`:：":
        return line  # not quoted: two processes' output run together ("RuntimeError  File ...")
    return f"{head[:-1]}\n{line[at:]}"


def _unflatten(line: str) -> str:
    """A whole traceback squashed onto one line: put frames and the exception back on lines."""
    if "Traceback (most recent call last):" not in line or 'File "' not in line:
        return line
    line = _FLAT_FRAME.sub(
        "\n  ",
        line.replace("Traceback (most recent call last): ", "Traceback (most recent call last):\n"),
    )
    return _FLAT_EXC.sub("\n", line)


# What a line that starts with a space may start with after it, for _BOX_BORDER to match; no
# other prefix matches a line that starts with a space.
_BORDER_STARTS = "╭╰┌└╔╚─━═"


def _strip_prefix(line: str) -> str:
    if line[:1].isspace():  # most of a traceback: its frames and source lines
        rest = line.lstrip()
        if not rest or rest[0] not in _BORDER_STARTS:
            return line  # what _strip_prefixes returns, without its dozen regexes
    return _strip_prefixes(line)


def _strip_prefixes(line: str) -> str:
    for _ in range(4):  # prefixes stack: "[rank0]: 2024-01-01 12:00:00 ERROR - ..."
        before = line
        if _BOX_BORDER.match(line):
            return ""
        line = _BOX_EDGE.sub("", line) if line[:1] in "│┃║" else line
        if _ANY_PREFIX.match(line):
            for prefix in _PREFIXES:
                line = prefix.sub("", line, count=1)
        if line[:1] in "*_`" and (emphasised := _EMPHASISED_EXC.match(line.rstrip())):
            line = emphasised.group(2)
        elif line[:1] in "*_":
            line = _ITALIC_OPENED.sub("", line, count=1)
        if line == before:
            break
    return line


def _by_process(lines: Iterator[str]) -> list[str]:
    """Strip per-line prefixes; lines tagged with a rank are regrouped rank by rank, so that
    interleaved output from several processes reads as one traceback per process."""
    plain: list[str] = []
    ranks: dict[str, list[str]] = {}
    logged = False  # whether the last plain line was a logger's record
    for raw in lines:
        for line in raw.split("\n"):
            tag = RANK_PREFIX.match(line)
            if tag:
                who = tag.group("who") or tag.group("who2") or tag.group("who3")
                rest = line[tag.end() :]
                while inner := RANK_PREFIX.match(rest):  # torchrun --tee: `[default1]:[rank1]:`
                    rest = rest[inner.end() :]
                ranks.setdefault(who, []).append(_strip_prefix(rest))
                continue
            stripped = _strip_prefix(line)
            record = stripped != line and bool(_RECORD_PREFIX.match(line))
            if record and not logged and plain and plain[-1].strip():
                # A logger's record right below an exception's message is no line of it (Python
                # prefixes none): it starts a paragraph of its own, as its prefix said
                plain.append("")
            logged = record
            plain.append(stripped)
    for block in ranks.values():
        plain += ["", *block]
    return plain
