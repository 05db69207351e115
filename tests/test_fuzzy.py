"""The pure-Python stand-in for rapidfuzz (diagnoser/knowledge/fuzzy.py, the engine's in the
browser) gives exactly rapidfuzz's scores, on random strings and on the knowledge base's own."""

from __future__ import annotations

import random
import re

import pytest

from diagnoser.knowledge import fuzzy
from diagnoser.knowledge.fuzzy import pure_fuzz, pure_levenshtein, pure_process

rapidfuzz = pytest.importorskip("rapidfuzz")
from rapidfuzz import fuzz, process  # noqa: E402
from rapidfuzz.distance import Levenshtein  # noqa: E402


def _random_pairs(n: int, seed: int = 27) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = []
    for k in range(n):
        alphabet = "ab" if k % 3 == 0 else "abcde xyz" if k % 3 == 1 else "形状不匹配 shape[]0123"
        a = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 90)))
        b = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 150)))
        pairs.append((a, b))
    pairs += [("", ""), ("", "a"), ("a", ""), ("a" * 64, "a" * 64), ("a" * 200, "ab" * 150)]
    return pairs


def _real_strings() -> list[str]:
    from diagnoser.knowledge.index import load_index
    from diagnoser.text.mask import mask, squash

    index = load_index()
    texts = []
    for entry in index.entries:
        for example in entry.examples:
            line = example.strip().splitlines()[-1]
            texts += [line, mask(line), squash(mask(line))]
    return texts


REAL = _real_strings()


def test_ratio_is_rapidfuzz_ratio() -> None:
    rng = random.Random(1)
    real = [(rng.choice(REAL), rng.choice(REAL)) for _ in range(1500)]
    for a, b in _random_pairs(1500) + real:
        assert pure_fuzz.ratio(a, b) == fuzz.ratio(a, b), (a, b)
        for cutoff in (50, 85):
            got = pure_fuzz.ratio(a, b, score_cutoff=cutoff)
            assert got == fuzz.ratio(a, b, score_cutoff=cutoff), (a, b, cutoff)


def test_partial_ratio_is_rapidfuzz_partial_ratio() -> None:
    """As the engine calls it: a word (shorter than 65 characters) against a message."""
    rng = random.Random(2)
    words = sorted({w for t in REAL for w in re.findall(r"[a-z]{4,}", t)})
    pairs = [(rng.choice(words), rng.choice(REAL)) for _ in range(1500)]
    pairs += [(a[:64], b) for a, b in _random_pairs(1500, seed=3)]
    pairs += [(b, a[:64]) for a, b in _random_pairs(300, seed=4)]
    pairs += [("abcd", "abcd"), ("abcd", "dcba"), ("same", "sane")]
    for a, b in pairs:
        assert pure_fuzz.partial_ratio(a, b) == fuzz.partial_ratio(a, b), (a, b)
        got = pure_fuzz.partial_ratio(a, b, score_cutoff=80)
        assert got == fuzz.partial_ratio(a, b, score_cutoff=80), (a, b)


def test_levenshtein_distance_is_rapidfuzz_distance() -> None:
    rng = random.Random(5)
    real = [(rng.choice(REAL), rng.choice(REAL)) for _ in range(500)]
    for a, b in _random_pairs(1500, seed=6) + real:
        assert pure_levenshtein.distance(a, b) == Levenshtein.distance(a, b), (a, b)


def test_extract_and_extract_one_are_rapidfuzz_s() -> None:
    rng = random.Random(7)
    queries = [rng.choice(REAL) for _ in range(40)] + ["", "loss is nan", "mat1 and mat2"]
    for query in queries:
        for cutoff in (60, 85):
            ours = pure_process.extract(
                query,
                REAL,
                scorer=pure_fuzz.ratio,
                processor=None,
                score_cutoff=cutoff,
                limit=None,
            )
            theirs = process.extract(
                query, REAL, scorer=fuzz.ratio, processor=None, score_cutoff=cutoff, limit=None
            )
            assert sorted(ours, key=lambda h: h[2]) == sorted(theirs, key=lambda h: h[2])
            assert [h[1] for h in ours] == [h[1] for h in theirs]  # best first
    words = sorted({w for t in REAL for w in re.findall(r"[a-z]{4,}", t.lower())})
    for word in [rng.choice(words) + "x" for _ in range(200)] + ["decresing", "nann"]:
        ours_one = pure_process.extractOne(word, words, scorer=pure_fuzz.ratio, score_cutoff=85)
        assert ours_one == process.extractOne(word, words, scorer=fuzz.ratio, score_cutoff=85)


def test_the_engine_uses_rapidfuzz_where_it_is_installed() -> None:
    assert fuzzy.fuzz is fuzz and fuzzy.process is process and fuzzy.Levenshtein is Levenshtein
