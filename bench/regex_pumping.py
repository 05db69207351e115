"""Does a regex's search cost grow faster than its input? Inputs built to make it backtrack.

A pattern is super-linear when two quantifiers (or one quantifier and the search's own start
positions) can split the same run of characters many ways: `\\s*[:=]?\\s*` on a run of blanks,
`(?:\\w+\\s*)*` on a run of letters, `[^\\n]*?x[^\\n]*` on a line without x. The run only costs
anything once the text before it has led the pattern to the quantifier ("loss" before the blanks),
so each input is a way in (the shortest texts that reach a quantified group, read from the parsed
pattern), then a run of a character the quantifier accepts, then an end that fails.

Time is compared, never bounded: the run is searched at two lengths, GROWTH times apart, and a
pattern is flagged when the longer search costs clearly more than GROWTH times the shorter one
(a quadratic search costs GROWTH**2 times more, a linear one GROWTH times): first by the wall's
clock on short runs, then, for what that flags, by CPU time summed over many calls.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

RUN = 1000
GROWTH = 4
# A linear search costs GROWTH times more on the longer run, a quadratic one GROWTH**2 (16).
# Timed by the wall's clock at a few thousand characters (microseconds, so that a timer tick of the
# machine rarely falls inside one), a search that costs more than SCREEN_RATIO times more is timed
# again by CPU time, over enough calls to span many ticks, at twice the lengths: flagged above
# FLAG_RATIO, far from both 4 and 16, so that a busy machine flags nothing linear.
SCREEN_RATIO = 6.0
FLAG_RATIO = 2.5 * GROWTH
CPU_PER_TIMING = 0.05  # seconds of CPU time summed over the calls of one timing: 12 ticks of 4 ms
# Characters a run is made of: blanks, letters, digits and the punctuation of logs and shapes.
RUN_CHARACTERS = [" ", "a", "1", "_", "-", ".", "/", ":", ",", "x", "\t", "(", "'", "\n"]
# Ends that fail: the end of the text, and a control character no pattern names.
FAILING_ENDS = ["", "\x01"]
HEADS_PER_QUANTIFIER = 3
UNITS_PER_QUANTIFIER = 4
# Exponential backtracking on RUN characters takes hours: past this many CPU seconds a search
# counts as super-linear. A linear search of GROWTH x RUN characters takes microseconds.
HANG_SECONDS = 5


def _sre() -> tuple[Any, Any]:
    """re's own parser and its node kinds (re._parser since Python 3.11, sre_parse before)."""
    try:
        return importlib.import_module("re._parser"), importlib.import_module("re._constants")
    except ImportError:
        return importlib.import_module("sre_parse"), importlib.import_module("sre_constants")


_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}


def _class_accepts(items: list[Any], ch: str, c: Any, ignore_case: bool) -> bool:
    """Whether `[...]` (its parsed items) matches ch."""
    negated = bool(items) and items[0][0] is c.NEGATE
    if negated:
        items = items[1:]
    chars = {ch, ch.lower(), ch.upper()} if ignore_case else {ch}
    hit = any(
        (op is c.LITERAL and chr(arg) in chars)
        or (op is c.RANGE and any(arg[0] <= ord(x) <= arg[1] for x in chars))
        or (op is c.CATEGORY and re.fullmatch(_CATEGORIES.get(str(arg), "(?!)"), ch))
        for op, arg in items
    )
    return hit != negated


def _accepts(op: Any, arg: Any, ch: str, c: Any, ignore_case: bool) -> bool:
    """Whether the one-character node (op, arg) matches ch."""
    if op is c.LITERAL:
        return ch == chr(arg) or (ignore_case and ch.lower() == chr(arg).lower())
    if op is c.NOT_LITERAL:
        return not (ch == chr(arg) or (ignore_case and ch.lower() == chr(arg).lower()))
    if op is c.ANY:
        return ch != "\n" or arg is not None  # arg is set under DOTALL
    if op is c.IN:
        return _class_accepts(list(arg), ch, c, ignore_case)
    return False


def _one_character(op: Any, arg: Any, c: Any, ignore_case: bool) -> list[str]:
    """The run characters a one-character node accepts (a representative one for a literal)."""
    if op is c.LITERAL:
        return [chr(arg)]
    return [ch for ch in RUN_CHARACTERS if _accepts(op, arg, ch, c, ignore_case)]


def ways_in(pattern: str, flags: int = 0) -> list[tuple[str, str]]:
    """(way in, unit) pairs: a shortest text that leads the pattern to one of its quantified
    groups, and a text one repetition of that group matches (a character its class accepts).
    Lookarounds are walked too: `(?=.*x)` rescans the rest of the line at each start."""
    parser, c = _sre()
    try:
        parsed = parser.parse(pattern, flags)
    except re.error:
        return []
    ignore_case = bool((flags | parsed.state.flags) & re.IGNORECASE)
    repeats = (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None))
    found: dict[tuple[str, str], None] = {}

    def units(items: list[Any]) -> list[str]:
        """Texts one pass over items matches: each accepted run character for a one-character
        item, the shortest ways through otherwise."""
        if len(items) == 1 and items[0][0] in (c.LITERAL, c.NOT_LITERAL, c.ANY, c.IN):
            return _one_character(items[0][0], items[0][1], c, ignore_case)[:UNITS_PER_QUANTIFIER]
        texts = sorted(set(walk(items, [""])), key=lambda t: (len(t), t))
        return [t for t in texts if t][:UNITS_PER_QUANTIFIER]

    def walk(items: list[Any], heads: list[str]) -> list[str]:
        for op, arg in items:
            if op in (c.LITERAL, c.NOT_LITERAL, c.ANY, c.IN):
                accepted = _one_character(op, arg, c, ignore_case) or ["\x02"]
                heads = [h + accepted[0] for h in heads]
            elif op in repeats:
                low, high, sub = arg
                if high > 1:
                    shortest = sorted(set(heads), key=lambda t: (len(t), t))
                    for head in shortest[:HEADS_PER_QUANTIFIER]:
                        for unit in units(list(sub)):
                            found[(head, unit)] = None
                for _ in range(min(low, 3)):
                    heads = walk(list(sub), heads)
            elif op is c.SUBPATTERN:
                heads = walk(list(arg[-1]), heads)
            elif op is getattr(c, "ATOMIC_GROUP", None):
                heads = walk(list(arg), heads)
            elif op is c.BRANCH:
                heads = [t for alt in arg[1] for t in walk(list(alt), heads)][:64]
            elif op in (c.ASSERT, c.ASSERT_NOT):
                walk(list(arg[1]), heads)  # its quantifiers count; it consumes nothing
            # anchors and backreferences consume nothing here
        return heads

    walk(list(parsed), [""])
    return list(found)


def pumped(pattern: str, flags: int = 0) -> list[tuple[str, str, str]]:
    """(way in, unit, failing end) for each input to pump: the way in, then the unit repeated,
    then the end."""
    return [(head, unit, end) for head, unit in ways_in(pattern, flags) for end in FAILING_ENDS]


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Turns a search that never ends into a TimeoutError after `seconds` of this process's CPU
    time (not the clock's: a busy machine slows the clock, not the work)."""

    def fail(*_: object) -> None:
        raise TimeoutError(f"took more than {seconds} CPU seconds")

    old = signal.signal(signal.SIGPROF, fail)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def seconds(
    compiled: re.Pattern[str], text: str, method: str = "search", repeats: int = 1
) -> float:
    """The least wall time of `repeats` calls: the least is the one the machine disturbed least.
    Nanoseconds: this process's CPU clock moves by whole ticks (4 ms) on some machines."""
    find = getattr(compiled, method)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter_ns()
        find(text)
        best = min(best, (time.perf_counter_ns() - start) / 1e9)
    return best


def cpu_seconds(compiled: re.Pattern[str], text: str, method: str = "search") -> float:
    """The CPU time of one call, averaged over as many calls as take CPU_PER_TIMING: a tick of the
    CPU clock, and whatever the machine does at each, then weighs the same on every length."""
    find = getattr(compiled, method)
    calls, start = 0, time.process_time()
    while (spent := time.process_time() - start) < CPU_PER_TIMING:
        find(text)
        calls += 1
    return spent / calls


def _texts(head: str, unit: str, end: str, length: int) -> tuple[str, str]:
    run = max(1, length // len(unit))
    return head + unit * run + end, head + unit * (run * GROWTH) + end


def growth(
    compiled: re.Pattern[str], head: str, unit: str, end: str, method: str = "search"
) -> float:
    """How many times more `method` (search, or match where the code only matches) costs on
    GROWTH x RUN characters of units than on RUN, by the wall's clock; infinite when they do not
    end within HANG_SECONDS of CPU time."""
    short, long = _texts(head, unit, end, RUN)
    try:
        with deadline(HANG_SECONDS):
            # the shorter one timed best of many: its microseconds are the noisiest
            small = max(seconds(compiled, short, method, repeats=7), 1e-7)
            ratio = float("inf")
            for _ in range(3):  # the least of three, or the first that is not over
                ratio = min(ratio, seconds(compiled, long, method) / small)
                if ratio <= SCREEN_RATIO:
                    break
    except TimeoutError:
        return float("inf")
    return ratio


def cpu_growth(
    compiled: re.Pattern[str], head: str, unit: str, end: str, method: str = "search"
) -> float:
    """growth() by CPU time, at twice the lengths."""
    short, long = _texts(head, unit, end, 2 * RUN)
    try:
        with deadline(HANG_SECONDS + 2 * CPU_PER_TIMING):
            small = cpu_seconds(compiled, short, method)
            return cpu_seconds(compiled, long, method) / max(small, 1e-9)
    except TimeoutError:
        return float("inf")


def super_linear(
    compiled: re.Pattern[str], head: str, unit: str, end: str, method: str = "search"
) -> float | None:
    """How many times more the longer run costs, when it is above FLAG_RATIO (timed as growth()
    says, then again as cpu_growth() says), else None."""
    ratio = growth(compiled, head, unit, end, method)
    if ratio <= SCREEN_RATIO:
        return None
    if ratio == float("inf"):
        return ratio  # no disturbance lasts HANG_SECONDS on a few thousand characters
    ratio = cpu_growth(compiled, head, unit, end, method)
    return ratio if ratio > FLAG_RATIO else None


SEPARATORS = [
    " ",
    "  ",
    "\t",
    ",",
    ", ",
    ":",
    ": ",
    ".",
    "/",
    "\\",
    "_",
    "-",
    "=",
    "'",
    '"',
    "\n",
    "|",
]


def words(pattern: str) -> list[str]:
    """The pattern's literal words: what a quantifier next to them could rescan (`hidden\\S*` on
    "hiddenhidden...", `\\w*_?dataloader` on "aaaa...")."""
    return re.findall(r"[A-Za-z_]{3,}", re.sub(r"\\.", " ", pattern))[:8]


def inputs(pattern: str, flags: int) -> list[tuple[str, str, str]]:
    """(way in, repeated unit, end): the pumped ways into the pattern's quantifiers, then runs of
    letters, digits, shapes like `(1x1x...` and `[1, 1, ...`, each separator, and the pattern's
    words (with and without a separator; then with an end that fails)."""
    pumps = pumped(pattern, flags)
    found = words(pattern)
    blocks = ["a", "1", "x", "1x", "(1x", "[1, ", "A_", *SEPARATORS, *found]
    blocks += [w + sep for w in found for sep in (" ", "_", ".")] + ["".join(found)]
    runs = [("", b, "") for b in dict.fromkeys(blocks) if b]
    runs += [("", w, "!") for w in found]
    return [*pumps, *runs]


def flagged(pattern: str, flags: int, method: str = "search") -> dict[str, float]:
    """The first input on which the pattern's search (or match) grows super-linearly, described,
    with how many times more the longer run cost; empty when none does."""
    compiled = re.compile(pattern, flags)
    for head, unit, end in inputs(pattern, flags):
        ratio = super_linear(compiled, head, unit, end, method)
        if ratio is not None:  # one is enough, and each costs seconds
            times = max(1, RUN // len(unit))
            return {f"{head!r} + {unit!r} x {times} + {end!r}": round(ratio, 1)}
    return {}


def kb_patterns() -> list[tuple[str, str, int]]:
    """(where, pattern, flags) of each regex of the knowledge base, compiled as the matcher does."""
    from diagnoser.knowledge.index import kb_dir
    from diagnoser.knowledge.schema import load_kb

    found: list[tuple[str, str, int]] = []
    for e in load_kb(kb_dir()):
        for i, sig in enumerate(e.signatures):
            found.append((f"{e.id}-{i}", sig.pattern, re.IGNORECASE))
            if sig.unless:
                found.append((f"{e.id}-{i}-unless", sig.unless, re.IGNORECASE))
            if sig.code:
                found.append((f"{e.id}-{i}-code", sig.code, 0))
        for i, pattern in enumerate(e.symptoms.patterns if e.symptoms else []):
            found.append((f"{e.id}-symptom-{i}", pattern, re.IGNORECASE))
        # the words that rule a sentence out are searched in every sentence that names the entry
        for rule in ("contradicted_by", "confirmed_by", "ruled_out_by", "ruled_out_in_clause_by"):
            for i, pattern in enumerate(getattr(e.symptoms, rule) if e.symptoms else []):
                found.append((f"{e.id}-{rule}-{i}", pattern, re.IGNORECASE))
    return found


def _in_globals(value: object, depth: int = 0) -> list[re.Pattern[str]]:
    """The str patterns in a module's global, in lists, tuples and dicts of them too."""
    if isinstance(value, re.Pattern):
        return [value] if isinstance(value.pattern, str) else []
    if isinstance(value, dict):
        value = list(value.values())
    if depth < 3 and isinstance(value, (list, tuple, set, frozenset)):
        return [p for v in value for p in _in_globals(v, depth + 1)]
    return []


def code_patterns() -> list[tuple[str, str, int]]:
    """(where, pattern, flags) of every regex of diagnoser/ but the knowledge base's: those in its
    modules' globals, and those compile_cached holds after a run over the samples, the real logs
    and every report format (patterns built at run time). Not re's own cache: the libraries
    imported here fill it with theirs."""
    import diagnoser
    from diagnoser.knowledge import regex_cache
    from diagnoser.knowledge.index import load_index
    from diagnoser.speak.prompt import to_prompt
    from diagnoser.speak.render import to_markdown, to_text
    from diagnoser.text.match import diagnose

    found: dict[tuple[str, int], str] = {}
    for mod in pkgutil.walk_packages(diagnoser.__path__, "diagnoser."):
        if mod.name in ("diagnoser.__main__", "diagnoser.auto"):
            continue  # importing them runs the CLI, or installs the exception hook for good
        try:
            module = importlib.import_module(mod.name)
        except ImportError:  # an optional extra not installed: not on the text path
            continue
        for name, value in vars(module).items():
            for p in _in_globals(value):
                found.setdefault((p.pattern, p.flags & ~re.UNICODE), f"{mod.name}.{name}")
    index = load_index()
    data = ROOT / "tests" / "data"
    for path in [*(ROOT / "samples").glob("*.txt"), *data.glob("real/*/*.txt")]:
        result = diagnose(path.read_text(encoding="utf-8", errors="replace"), index)
        to_text(result, "en"), to_markdown(result, "zh"), to_prompt(result, "en")
    diagnose("训练时 loss 一直不下降\nepoch 1 loss 2.3 acc 0.1\nepoch 2 loss 2.3 acc 0.1", index)
    for pattern, flags in regex_cache._made:
        found.setdefault((pattern, flags & ~re.UNICODE), "compile_cached")
    kb = {p for _, p, _ in kb_patterns()}
    return sorted((where, p, f) for (p, f), where in found.items() if p not in kb)
