"""Capturing a failing frame's tensors: metadata only, no user code run, bounded work."""

from __future__ import annotations

import linecache
import sys
import time
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from diagnoser.live.capture import capture  # noqa: E402
from diagnoser.text.facts import Facts  # noqa: E402

USER_FILE = "/home/ana/project/train.py"  # any path outside site-packages is the user's code


def failing(source: str, namespace: dict[str, Any]) -> BaseException:
    """Run `source` as if from the user's file and return what it raised."""
    lines = [line + "\n" for line in source.split("\n")]
    linecache.cache[USER_FILE] = (len(source), None, lines, USER_FILE)  # as if the file existed
    code = compile(source, USER_FILE, "exec")
    try:
        exec(code, namespace)
    except Exception as e:
        return e
    raise AssertionError("the code was meant to fail")


def test_module_summaries() -> None:
    nn = torch.nn
    ns = {
        "fc": nn.Linear(128, 10),
        "conv": nn.Conv2d(3, 64, 3),
        "strided": nn.Conv1d(16, 32, 5, stride=2),
        "rnn": nn.LSTM(32, 64),
        "gru": nn.GRU(8, 16, num_layers=2, batch_first=True),
        "emb": nn.Embedding(1000, 64),
        "bn": nn.BatchNorm2d(64),
        "seq": nn.Sequential(nn.ReLU(), nn.Dropout(0.5)),
    }
    facts = capture(failing("raise ValueError('x')", ns))
    summaries = {m.name: m.summary for m in facts.modules}
    assert summaries == {
        "fc": "Linear(in=128, out=10)",
        "conv": "Conv2d(3→64, k=3)",
        "strided": "Conv1d(16→32, k=5, stride=2)",
        "rnn": "LSTM(input=32, hidden=64, batch_first=False)",
        "gru": "GRU(input=8, hidden=16, layers=2, batch_first=True)",
        "emb": "Embedding(1000, dim=64)",
        "bn": "BatchNorm2d(64)",
        "seq": "Sequential(2 sub-modules)",
    }


class Tripwire:
    """Any code of the user's that runs while capturing trips it."""

    calls: list[str] = []  # noqa: RUF012

    def __repr__(self) -> str:
        Tripwire.calls.append("repr")
        return "Tripwire()"

    def __getattr__(self, name: str) -> Any:
        Tripwire.calls.append(f"getattr {name}")
        raise AttributeError(name)

    @property
    def weight(self) -> Any:
        Tripwire.calls.append("property")
        return torch.zeros(1)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # what isinstance() would consult
        Tripwire.calls.append("__class__")
        return Tripwire


def test_no_user_code_runs_and_no_data_is_read() -> None:
    class Sneaky(torch.Tensor):
        def __repr__(self) -> str:
            Tripwire.calls.append("tensor repr")
            return "Sneaky"

    ns = {
        "trip": Tripwire(),
        "x": torch.randn(3, 4).as_subclass(Sneaky),
        "m": torch.nn.Linear(4, 2),
    }
    # the property runs here, in the user's own line, before torch raises; never in capture()
    exc = failing("y = m(x) @ trip.weight if trip else trip.other", ns)
    assert str(exc) == "size mismatch, got input (3), mat (3x2), vec (1)"
    Tripwire.calls.clear()
    facts = capture(exc)
    assert Tripwire.calls == []
    names = [t.name for t in facts.tensors]
    assert names[0] == "x" and facts.tensors[0].shape == (3, 4)
    assert [m.summary for m in facts.modules] == ["Linear(in=4, out=2)"]


def test_a_frame_with_ten_thousand_locals_stays_fast() -> None:
    ns: dict[str, Any] = {f"t{i}": torch.zeros(1) for i in range(10_000)}
    ns.update({f"v{i}": i for i in range(10_000)})
    ns["x"] = torch.randn(2, 3)
    exc = failing("x @ x", ns)
    start = time.process_time()  # CPU time: a busy machine slows the clock, not the work
    facts = capture(exc)
    elapsed = time.process_time() - start
    assert elapsed < 0.5, elapsed  # ~10 ms; looking at all 20,000 locals would take seconds
    assert facts.tensors[0].name == "x"  # the failing line's own names come first
    assert len(facts.tensors) <= 16


def test_nothing_to_capture_outside_user_code() -> None:
    try:
        torch.randn(2, 3) @ torch.randn(4, 5)  # raised from C++: no torch frame in Python
    except RuntimeError as e:
        facts = capture(e)
    # this test file is user code; the expression's tensors are temporaries with no name
    assert isinstance(facts, Facts) and not facts.tensors


def test_a_layer_inside_a_container_gets_the_users_name() -> None:
    nn = torch.nn
    ns = {
        "model": nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(128, 10)),
        "images": torch.randn(32, 64),
    }
    facts = capture(failing("logits = model(images)", ns))
    modules = {m.name: m.summary for m in facts.modules}
    assert modules == {"model": "Sequential(3 sub-modules)", "model.2": "Linear(in=128, out=10)"}
    operand = "model.2.forward(input)"  # torch's own local, named after the user's layer
    shapes = {t.name: t.shape for t in facts.tensors}
    assert shapes[operand] == (32, 32) and shapes["model.2.weight"] == (10, 128)
    assert ("model.2", operand) in facts.calls


def test_the_failing_expression_is_read_across_lines() -> None:
    ns = {"torch": torch}
    source = (
        "logits = torch.randn(8, 5)\n"
        "unused = torch.zeros(3)\n"
        "weights = torch.ones(5, dtype=torch.float64)\n"
        "loss = torch.nn.functional.cross_entropy(\n"
        "    logits,\n"
        "    torch.zeros(8).long(),\n"
        "    weight=weights,\n"
        ")\n"
    )
    exc = failing(source, ns)
    assert str(exc) == "expected scalar type Float but found Double"
    facts = capture(exc)
    if sys.version_info >= (3, 11):  # the span of the failing call is known
        assert {"logits", "weights"} <= facts.in_line and "unused" not in facts.in_line
        assert [t.name for t in facts.tensors][:2] == ["logits", "weights"]
