"""What a sentence says: the entries it names (their phrases, as whole words) and the symptoms it
describes (their patterns). Both look at every entry for every sentence, so each first finds, in
one Aho-Corasick pass over the sentence, the phrases or the literals that can be there: the cost
grows with the sentence, not with the knowledge base.
"""

from __future__ import annotations

from functools import cache

from ..knowledge.index import Index
from ..knowledge.regex_cache import compile_cached
from ..knowledge.substrings import automaton
from .symptoms import compact, fold

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs a start-up milliseconds
    from typing import Any


# The small words English puts between a phrase's words ("the dataloader worker gets killed",
# "the loss is nan"): left out of sentences and phrases alike where they are compared, so that a
# phrase is said with or without them.
_FILLERS = compile_cached(
    r"(?<![^ \n])(?:is|are|was|were|be|been|being|gets?|got|getting|gotten|the|an?|my|our|your|"
    r"its|their) (?=[a-z])"
)


def _unfilled(text: str) -> str:
    return _FILLERS.sub("", text)


def named_entries(sentence: str, index: Index) -> set[str]:
    """The entries one of whose phrases the sentence contains, as whole words, small words aside
    (above). The longer phrase wins: "batch size mismatch" names batch-size-mismatch, not the
    "size mismatch" inside it."""
    text = _unfilled(compact(sentence))
    automaton = _phraseautomaton(index)
    found: dict[str, set[str]] = {}
    # every occurrence of every phrase, overlapping ones too
    for end, (phrase, entry_ids) in automaton.iter(text) if automaton else ():
        start = end + 1 - len(phrase)
        if _whole_words(text, start, end + 1) and not _log_field(text, phrase, end + 1):
            for entry_id in entry_ids:
                found.setdefault(entry_id, set()).add(phrase)
    longer = {p for hits in found.values() for p in hits}
    return {
        entry_id
        for entry_id, hits in found.items()
        if any(not any(p != q and p in q for q in longer) for p in hits)
    }


_HYPHEN = compile_cached(r"(?<=[a-z])-(?=[a-z])")


@cache
def _phraseautomaton(index: Index) -> Any:
    """Every entry's phrases, compacted as sentences are: phrase -> (phrase, the ids of the
    entries that use it). None when there is no phrase (an automaton without words cannot
    search)."""
    # Reading every entry's phrases means reading every entry's texts: done once per index.
    phrases = index.derived("sentence-phrases", lambda: _compact_phrases(index))
    return automaton({phrase: (phrase, tuple(ids)) for phrase, ids in phrases})


def _compact_phrases(index: Index) -> list[tuple[str, list[str]]]:
    """(phrase as sentences are compacted, the ids of the entries that use it)."""
    by_phrase: dict[str, dict[str, None]] = {}  # a dict as an ordered set
    for e in index.entries:
        for p in e.phrases["en"] + e.phrases["zh"]:
            phrase = _unfilled(compact(fold(p)))
            # a compound is written either way: "device-side assert" and "device side assert",
            # "in-place operation" and "in place operation"
            for variant in dict.fromkeys((phrase, _HYPHEN.sub(" ", phrase))):
                by_phrase.setdefault(variant, {})[e.id] = None
    return [(phrase, list(ids)) for phrase, ids in by_phrase.items()]


# A one-word name followed by a number is a log's column or a setting, not a word of a sentence:
# fairseq prints `oom=0` and `| oom 0 |`, the count of out-of-memory retries, on every line, and a
# command sets `CUDA_LAUNCH_BLOCKING=1` whatever the error it debugs, and a printed dict's key is
# quoted (SD.Next's memory stats, `'oom': 0`).
_FIELD_VALUE = compile_cached(r"['\"]?[^\S\n]?[=:]?[^\S\n]?\d")


def _log_field(text: str, phrase: str, end: int) -> bool:
    return (
        phrase.isascii()
        and phrase.replace("_", "").isalpha()
        and _FIELD_VALUE.match(text, end) is not None
    )


def _whole_words(text: str, start: int, end: int) -> bool:
    """text[start:end] does not start or end inside a word ("nan" is not in "nanny", "no module
    named torch" not in "no module named torch_tensorrt")."""
    phrase = text[start:end]
    before = text[start - 1] if start else " "
    # "0.69" is one word: a phrase ending in "0" does not end inside it
    after = text[end : end + 2] if end < len(text) else " "
    after = after if after[:1] == "." and after[1:].isdigit() else after[:1]
    cut_before = _in_word(phrase[0]) and _in_word(before)
    cut_after = _in_word(phrase[-1]) and (_in_word(after) or after[1:].isdigit())
    return not (cut_before or cut_after)


def _in_word(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")


def described_symptoms(sentence: str, index: Index) -> set[str]:
    """The symptom entries one of whose patterns matches the sentence (lower case, as
    symptoms.normalise leaves it). A pattern runs only when one of the literals that every match
    of it contains is in the sentence (or when it has none)."""
    automaton, always, patterns = _symptom_patterns(index)
    possible = set(always)
    for _end, positions in automaton.iter(sentence) if automaton else ():
        possible.update(positions)
    spaced = spaced_apart(sentence)
    described: set[str] = set()
    for i in possible:
        entry_id, pattern = patterns[i]
        if entry_id in described:
            continue
        regex = compile_cached(pattern)
        if regex.search(sentence) or (spaced != sentence and regex.search(spaced)):
            described.add(entry_id)
    return described


def spaced_apart(sentence: str) -> str:
    """The sentence with a space between Chinese and an English word glued to it ("如果batchsize=1",
    "用了batchnorm"): CJK characters are word characters, so a pattern's \\b finds no boundary
    there. Patterns read the sentence in both forms."""
    return _CJK_ASCII.sub(" ", sentence)


_CJK_ASCII = compile_cached(r"(?<=[\u3400-\u9fff])(?=[a-z0-9])|(?<=[a-z0-9])(?=[\u3400-\u9fff])")


@cache
def _symptom_patterns(index: Index) -> tuple[Any, tuple[int, ...], tuple[tuple[str, str], ...]]:
    """(literal -> positions of the patterns that need it, the positions of patterns that need
    none, every (entry id, pattern))."""
    patterns = tuple(
        (e.id, p) for e in index.symptom_entries if e.symptoms for p in e.symptoms["patterns"]
    )
    # re's parser reads every pattern to find its literals (~20 ms): done once per index.
    literals = index.derived("sentence-literals", lambda: _literals(patterns))
    by_literal: dict[str, list[int]] = {}
    always = []
    for i, choices in enumerate(literals):
        for literal in choices:
            by_literal.setdefault(literal, []).append(i)
        if not choices:
            always.append(i)
    return automaton({k: tuple(v) for k, v in by_literal.items()}), tuple(always), patterns


def _literals(patterns: tuple[tuple[str, str], ...]) -> list[list[str]]:
    from ..knowledge.anchor import literal_choices

    return [sorted(literal_choices(pattern)) for _, pattern in patterns]
