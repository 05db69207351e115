"""The matcher's judgement: exact signatures, fuzzy fallback for new wordings, honest abstention."""

from __future__ import annotations

import subprocess
import sys

import pytest

from diagnoser.index import Index
from diagnoser.match import THRESHOLD, diagnose

from .conftest import run_reproduction


def _real_message() -> str:
    proc = run_reproduction("shape-matmul")
    return proc.stderr.strip().splitlines()[-1]


def test_a_reworded_message_is_found_by_fuzzy_matching(index: Index) -> None:
    # A future torch could reword the message; keep its shape, change its words.
    real = _real_message()
    reworded = real.replace("cannot be multiplied", "can not be multiplied together")
    assert index.by_id["shape-matmul"].signatures[0].regex.search(reworded) is None
    best = diagnose(reworded, index).best
    assert best is not None and best.entry.id == "shape-matmul" and best.method == "fuzzy"
    assert THRESHOLD <= best.score < 100


def test_exception_type_that_contradicts_the_signature_lowers_the_score(index: Index) -> None:
    real = _real_message()
    right = diagnose(real, index).best
    wrong = diagnose(real.replace("RuntimeError", "KeyError", 1), index).best
    assert right is not None and wrong is not None
    assert wrong.score < right.score


def test_unrelated_sentences_get_nothing(index: Index) -> None:
    for text in ("hello world", "The build finished in 3 minutes.", "ssh: connect to host port 22"):
        assert diagnose(text, index).matches == ()


def test_the_root_error_outranks_earlier_noise(index: Index) -> None:
    real = _real_message()
    log = (
        "RuntimeError: something unrelated happened earlier\n"
        + "\n".join(["step"] * 5)
        + "\n"
        + real
    )
    best = diagnose(log, index).best
    assert best is not None and best.entry.id == "shape-matmul" and best.score == 100


NEAR_MISSES = {
    # Real Python/torch messages one word away from an entry's example, but other errors.
    "dataset-init": "class MyDataset:\n    def __init__(self, root): pass\nMyDataset()",
    "dict-to": "{}.to('cpu')",
    "tuple-str-index": "(1, 2)['a']",
    "linear-ndarray": "import numpy as np, torch\ntorch.nn.functional.linear(np.ones(3), None)",
}


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_a_near_miss_is_not_claimed_by_resemblance(name: str, index: Index) -> None:
    proc = subprocess.run([sys.executable, "-c", NEAR_MISSES[name]], capture_output=True, text=True)
    assert proc.returncode == 1 and "Error" in proc.stderr
    assert diagnose(proc.stderr, index).matches == (), proc.stderr.splitlines()[-1]
