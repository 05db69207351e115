"""rapidfuzz, or where it cannot be imported (the guide's paste box runs the engine in Pyodide,
which has no rapidfuzz here), a pure-Python stand-in that gives exactly rapidfuzz's results for
what the engine uses:

    fuzz.ratio                 normalized Indel similarity × 100, the LCS found bit-parallel
                               over Python ints (Hyyrö/Allison-Dix), as rapidfuzz's own
    fuzz.partial_ratio         the best ratio of the shorter string against every alignment in
                               the longer one (rapidfuzz's "short needle" algorithm: for a needle
                               longer than 64 characters rapidfuzz only tries some alignments,
                               the engine only passes words)
    process.extract            (choice, score, index) for a list, at or above score_cutoff,
                               best first, ties by index (limit=None or a number)
    process.extractOne         the first best choice, or None
    Levenshtein.distance       unit-cost edit distance (Hyyrö's bit-parallel algorithm)

Callers import `fuzz`, `process` and `Levenshtein` from here, inside the functions that need them,
so a start-up that needs none pays for neither. tests/test_fuzzy.py compares the two on random
and real strings: the same scores, exactly.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any


def _block(s1: str) -> dict[str, int]:
    """Each character of s1 -> the bit mask of its positions."""
    block: dict[str, int] = {}
    bit = 1
    for ch in s1:
        block[ch] = block.get(ch, 0) | bit
        bit <<= 1
    return block


def _lcs(block: dict[str, int], len1: int, s2: str) -> int:
    """The length of the longest common subsequence of s1 (as its block) and s2."""
    if not len1:
        return 0
    full = (1 << len1) - 1
    state = full
    get = block.get
    for ch in s2:
        u = state & get(ch, 0)
        state = (state + u) | (state - u)
    return len1 - (state & full).bit_count()


def _norm_sim(lcs: int, len1: int, len2: int) -> float:
    """rapidfuzz's Indel.normalized_similarity from the LCS, with its floating-point steps."""
    lensum = len1 + len2
    dist = lensum - 2 * lcs
    norm_dist = dist / lensum if lensum else 0.0
    return 1.0 - norm_dist


def _ratio_block(block: dict[str, int], s1: str, s2: str, cutoff: float) -> float:
    """norm_sim of s1 (with its block) and s2 if >= cutoff (a fraction), else 0."""
    sim = _norm_sim(_lcs(block, len(s1), s2), len(s1), len(s2))
    return sim if sim >= cutoff else 0.0


class fuzz:
    @staticmethod
    def ratio(
        s1: str,
        s2: str,
        *,
        processor: Callable[[str], str] | None = None,
        score_cutoff: float | None = None,
    ) -> float:
        if s1 is None or s2 is None:
            return 0.0
        if processor is not None:
            s1, s2 = processor(s1), processor(s2)
        cutoff = (score_cutoff or 0) / 100
        return _ratio_block(_block(s1), s1, s2, cutoff) * 100

    @staticmethod
    def partial_ratio(
        s1: str,
        s2: str,
        *,
        processor: Callable[[str], str] | None = None,
        score_cutoff: float | None = None,
    ) -> float:
        if s1 is None or s2 is None:
            return 0.0
        if processor is not None:
            s1, s2 = processor(s1), processor(s2)
        cutoff = score_cutoff or 0
        if not s1 and not s2:
            return 100.0
        shorter, longer = (s1, s2) if len(s1) <= len(s2) else (s2, s1)
        score = _partial(shorter, longer, cutoff / 100)
        if score != 100 and len(s1) == len(s2):
            cutoff = max(cutoff, score)
            score = max(score, _partial(longer, shorter, cutoff / 100))
        return score if score >= cutoff else 0.0


def _partial(s1: str, s2: str, cutoff: float) -> float:
    """rapidfuzz's _partial_ratio_impl (len(s1) <= len(s2)): the best ratio of s1 against each
    prefix of s2 shorter than s1, each window of s1's length, and each suffix."""
    chars = set(s1)
    len1, len2 = len(s1), len(s2)
    block = _block(s1)
    best = 0.0

    def consider(window: str) -> bool:
        nonlocal best, cutoff
        sim = _ratio_block(block, s1, window, cutoff)
        if sim > best:
            best = cutoff = sim
            return sim == 1
        return False

    for i in range(1, len1):
        if s2[i - 1] in chars and consider(s2[:i]):
            return 100.0
    for i in range(len2 - len1):
        if s2[i + len1 - 1] in chars and consider(s2[i : i + len1]):
            return 100.0
    for i in range(len2 - len1, len2):
        if s2[i] in chars and consider(s2[i:]):
            return 100.0
    return best * 100


class process:
    @staticmethod
    def extract(
        query: str,
        choices: Sequence[str],
        *,
        scorer: Callable[..., float] = fuzz.ratio,
        processor: Callable[[str], str] | None = None,
        score_cutoff: float | None = None,
        limit: int | None = 5,
    ) -> list[tuple[str, float, int]]:
        found = _scores(query, choices, scorer, processor, score_cutoff)
        found.sort(key=lambda hit: (-hit[1], hit[2]))
        return found if limit is None else found[:limit]

    @staticmethod
    def extractOne(
        query: str,
        choices: Sequence[str],
        *,
        scorer: Callable[..., float] = fuzz.ratio,
        processor: Callable[[str], str] | None = None,
        score_cutoff: float | None = None,
    ) -> tuple[str, float, int] | None:
        found = _scores(query, choices, scorer, processor, score_cutoff)
        return min(found, key=lambda hit: (-hit[1], hit[2])) if found else None


def _scores(
    query: str,
    choices: Sequence[str],
    scorer: Callable[..., float],
    processor: Callable[[str], str] | None,
    score_cutoff: float | None,
) -> list[tuple[str, float, int]]:
    if scorer is not _RATIO:
        raise NotImplementedError("the pure-Python process.extract supports fuzz.ratio only")
    if processor is not None:
        query = processor(query)
    cutoff = score_cutoff or 0
    block, len1 = _block(query), len(query)
    found = []
    for i, choice in enumerate(choices):
        if choice is None:
            continue
        if processor is not None:
            choice = processor(choice)
        len2 = len(choice)
        # The best ratio the lengths allow: most choices are ruled out without an LCS.
        if len1 + len2 and 200 * min(len1, len2) / (len1 + len2) < cutoff:
            continue
        score = _norm_sim(_lcs(block, len1, choice), len1, len2) * 100
        if score >= cutoff:
            found.append((choice, score, i))
    return found


class Levenshtein:
    @staticmethod
    def distance(s1: str, s2: str, **_: Any) -> int:
        """Unit-cost edit distance, bit-parallel (Hyyrö 2003)."""
        if not s1:
            return len(s2)
        length = len(s1)
        peq = _block(s1)
        mask = (1 << length) - 1
        last = 1 << (length - 1)
        vp, vn, score = mask, 0, length
        for ch in s2:
            x = peq.get(ch, 0) | vn
            d0 = (((x & vp) + vp) ^ vp) | x
            hp = vn | ~(d0 | vp)
            hn = vp & d0
            if hp & last:
                score += 1
            if hn & last:
                score -= 1
            hp = (hp << 1) | 1
            hn <<= 1
            vp = (hn | ~(d0 | hp)) & mask
            vn = hp & d0 & mask
        return score


pure_fuzz, pure_process, pure_levenshtein = fuzz, process, Levenshtein
_RATIO = fuzz.ratio

try:
    from rapidfuzz import fuzz, process  # type: ignore[assignment]
    from rapidfuzz.distance import Levenshtein  # type: ignore[assignment]
except ImportError:  # Pyodide; tests/test_layers.py runs the engine with rapidfuzz blocked
    pass
