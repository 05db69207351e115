"""Every byte of a log is untrusted: what reaches a terminal or a Markdown page from it must not
act there. Control characters (ESC c clears a screen, 8-bit CSI U+009B moves the cursor, BEL,
BS) are shown as `\\xNN`; in Markdown, text outside code keeps no raw HTML (`<img onerror=…>`)
and a table cell no `|` or line break of its own."""

from __future__ import annotations

from ..knowledge.regex_cache import compile_cached

# C0 but tab and newline, DEL, C1: nothing a report needs, and each can act on a terminal.
_CONTROL = compile_cached(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Our own colours, when the report is coloured: SGR sequences and nothing else.
_COLOUR_OR_CONTROL = compile_cached(r"(\x1b\[[0-9;]*m)|[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Code spans (any run of backticks, closed by the same run) are shown as written. The opening run
# is taken whole: a part of it would be retried at each of its backticks (quadratic on a long run).
_CODE_SPAN = compile_cached(r"(?<!`)(`+)(?!`)(?:(?!\1)[\s\S])*?\1")


def _shown(control: str) -> str:
    return f"\\x{ord(control):02x}"


def visible(text: str, colour: bool = False) -> str:
    """`text` with every control character but tab and newline made visible; with `colour`, the
    report's own colour sequences kept (the input's were removed when it was read)."""
    if not colour:
        return _CONTROL.sub(lambda m: _shown(m.group(0)), text)
    return _COLOUR_OR_CONTROL.sub(lambda m: m.group(1) or _shown(m.group(0)), text)


def markdown_text(text: str) -> str:
    """Markdown prose that quotes the input: `<` and `&` outside code spans as entities, so a
    log's HTML stays text; code spans are left alone (Markdown shows them literally)."""
    out, last = [], 0
    for span in _CODE_SPAN.finditer(text):
        out += [_escaped(text[last : span.start()]), span.group(0)]
        last = span.end()
    out.append(_escaped(text[last:]))
    return "".join(out)


def _escaped(prose: str) -> str:
    return prose.replace("&", "&amp;").replace("<", "&lt;")


def table_cell(text: str) -> str:
    """One Markdown table cell: one line, no column break of its own, no raw HTML."""
    return markdown_text(text.replace("\n", " ")).replace("|", "\\|")


def _longest_backticks(text: str) -> int:
    longest = run = 0
    for c in text:
        run = run + 1 if c == "`" else 0
        longest = max(longest, run)
    return longest


def code_span(text: str) -> str:
    """Inline code that holds any text whole (CommonMark): its backtick fence is longer than any
    run of backticks inside, and a space pads text that starts or ends with a backtick (or with
    a space at both ends: CommonMark strips one from each side)."""
    ticks = "`" * (_longest_backticks(text) + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" or text[:1] == text[-1:] == " " else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fence(text: str, info: str = "") -> list[str]:
    """A fenced code block that holds any text whole: its fence is longer than any backtick run
    inside (a line of three backticks would close a ``` fence)."""
    ticks = "`" * max(3, _longest_backticks(text) + 1)
    return [ticks + info, text.rstrip("\n"), ticks]
