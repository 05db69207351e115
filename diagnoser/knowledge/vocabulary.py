"""The words the knowledge base and the text reader share: the signals a training log's detectors
report (with the values each hands to an entry's evidence templates), and the vocabulary typos in
a sentence are corrected towards. The schema checks entries against SIGNALS and the index keeps
the cleaned vocabulary; diagnoser/text/symptoms.py implements the detectors."""

from __future__ import annotations

# The values each detector can hand to an entry's evidence templates (checked by the schema).
SIGNALS: dict[str, set[str]] = {
    "nan": {"value", "at", "prev", "exploded_from", "first"},
    "flat": {"metric", "first", "last", "n", "from_at", "to_at"},
    "val-diverges": {
        "train_from",
        "train_to",
        "val_best",
        "val_best_at",
        "val_last",
        "val_last_at",
        "train_acc",
        "val_acc",
    },
    "zero": {"n", "from_at", "to_at", "printed", "alone_at"},
    "negative": {"value", "at", "n"},
    "grad-explodes": {
        "first",
        "first_at",
        "peak",
        "peak_at",
        "nonfinite_at",
        # a loss that exploded, then sat at chance (no grad norms in the log)
        "loss_first",
        "loss_peak",
        "loss_peak_at",
        "chance",
        "classes",
        "flat_from",
        # per-parameter gradient norms printed after backward(), the largest a million and more
        "huge_params",
        "weights",
        "peak_param",
    },
    "grad-none": {"count", "params", "with_grad"},
    "memory-grows": {"first", "last", "n", "first_at", "last_at", "per_step"},
    "data-bound": {"pct", "gpu_util", "n", "loader_ms", "workers", "best_workers", "best_ms"},
    "oscillates": {"n", "low", "high", "from_at", "to_at", "level", "flat_to"},
    "underfit": {"loss_first", "loss_last", "acc", "at", "val_acc"},
    "grad-vanishes": {"first_param", "first_norm", "last_param", "last_norm", "ratio"},
    "bn-small-batch": {"batch_size", "train", "val", "metric", "at"},
    "step-overhead": {"phase", "pct", "phase_ms", "fb_ms"},
}


def clean_vocabulary(words: list[str]) -> frozenset[str]:
    """The words typos are corrected towards, minus the typos among them: a word that a more
    frequent word resembles closely is taken for a misspelling of it ("decresing")."""
    from collections import Counter

    from .fuzzy import fuzz

    counts = Counter(words)
    keep = set()
    for word, n in counts.items():
        rivals = (
            v
            for v, m in counts.items()
            if m > n
            and v[0] == word[0]
            # "gradient" is no misspelling of "gradients": one word inflected, not mistyped
            and not (v.startswith(word) or word.startswith(v))
            and fuzz.ratio(word, v) >= 85
        )
        if next(rivals, None) is None:
            keep.add(word)
    return frozenset(keep)
