"""Answers name the runtime tool that checks them next ("Check it"), from the runtime checks'
catalogue: the knowledge layer's copy of it (diagnoser/knowledge/checks.json) must agree with
diagnoser/runtime/catalog.py, and text, Markdown, the prompt and the JSON show it, in both
languages."""

from __future__ import annotations

import json

import pytest

from diagnoser import diagnose
from diagnoser.knowledge.index import Index
from diagnoser.runtime import checkdata
from diagnoser.runtime.catalog import CHECKS

from .conftest import cli


def test_the_shipped_data_is_the_catalogues() -> None:
    """A check added to or changed in catalog.py changes checks.json too."""
    shipped = checkdata.PATH.read_text(encoding="utf-8")
    assert shipped == checkdata.dumps(), (
        "diagnoser/knowledge/checks.json is out of date with diagnoser/runtime/catalog.py: "
        "run python -m diagnoser.runtime.checkdata"
    )


def test_every_check_with_an_entry_is_listed_under_it(index: Index) -> None:
    """Read back from the compiled index, each check is under its entry, with its tool and title,
    and nothing else is there."""
    listed = {
        (entry.id, step["tool"], check["id"], check["title"]["en"], check["title"]["zh"])
        for entry in index.entries
        for step in entry.checks
        for check in step["checks"]
    }
    expected = {(c.entry, c.tool, c.id, c.title["en"], c.title["zh"]) for c in CHECKS if c.entry}
    assert listed == expected


def test_the_entries_named_exist(index: Index) -> None:
    named = set(json.loads(checkdata.PATH.read_text(encoding="utf-8"))["entries"])
    assert named <= set(index.ids)
    assert set(checkdata.OPTIONS) <= {c.id for c in CHECKS}


def test_an_option_a_check_needs_is_in_the_call(index: Index) -> None:
    calls = {s["tool"]: s["call"] for s in index.by_id["loss-not-decreasing"].checks}
    assert calls["preflight"] == (
        "diagnoser.preflight(model, loader, loss_fn, optimizer, overfit_steps=50)"
    )
    assert "overfit_one_batch" in calls and "lr_find" in calls
    oom = {s["tool"]: s["call"] for s in index.by_id["cuda-oom"].checks}
    assert oom["preflight"].endswith(", memory=True)")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_json_names_the_checks_and_the_call(lang: str) -> None:
    first = diagnose("loss is nan", lang=lang)["matches"][0]
    assert first["id"] == "nan-loss"
    steps = {s["tool"]: s for s in first["checks"]}
    assert steps["preflight"]["call"] == "diagnoser.preflight(model, loader, loss_fn, optimizer)"
    assert "loss.nonfinite" in steps["preflight"]["checks"]
    assert steps["watch"] == {
        "tool": "watch",
        "call": "diagnoser.watch(model)",
        "checks": ["watch.nonfinite"],
    }


def test_an_error_a_check_detects_names_it_and_one_none_detects_does_not() -> None:
    out = diagnose("IndexError: Target 10 is out of bounds.", lang="en")["matches"][0]
    assert out["id"] == "target-out-of-bounds"
    assert out["checks"][0]["checks"] == ["data.target-range"]
    matmul = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (32x64 and 128x10)"
    out = diagnose(matmul, lang="en")["matches"][0]
    assert out["id"] == "shape-matmul"
    assert out["checks"] == []
    assert "Check it" not in cli("--lang", "en", stdin=matmul).stdout


@pytest.mark.parametrize(
    ("lang", "sentence", "heading", "checks"),
    [
        ("en", "my loss is not decreasing", "Check it", "Checks: "),
        ("zh", "loss 一直不下降", "检查一下", "检查："),
    ],
)
def test_a_symptom_answer_says_what_to_run_next(
    lang: str, sentence: str, heading: str, checks: str
) -> None:
    calls = (
        "diagnoser.preflight(model, loader, loss_fn, optimizer, overfit_steps=50)",
        "diagnoser.overfit_one_batch(model, batch, loss_fn, optimizer)",
        "diagnoser.lr_find(model, loader, loss_fn, optimizer)",
    )
    text = cli("--lang", lang, sentence).stdout
    assert "[loss-not-decreasing," in text
    section = text.split(f"\n{heading}\n", 1)[1]
    assert section.index(calls[0]) < section.index(calls[1]) < section.index(calls[2])
    assert checks in section
    # before "Reproduce it": what to run on your own code first
    assert text.index(heading) < text.index("diagnoser repro loss-not-decreasing")
    markdown = cli("--lang", lang, "--format", "markdown", sentence).stdout
    assert f"### {heading}\n" in markdown
    assert all(f"- `{call}`" in markdown for call in calls)
    assert "(`optim.step`)" in markdown or "（`optim.step`）" in markdown
    prompt = cli("--lang", lang, "--format", "prompt", sentence).stdout
    assert all(f"- `{call}`" in prompt for call in calls)


@pytest.mark.parametrize(("lang", "heading"), [("en", "## Check it"), ("zh", "## 检查一下")])
def test_show_names_the_checks_after_the_fix(lang: str, heading: str) -> None:
    out = cli("show", "nan-loss", "--lang", lang).stdout
    section = out.split(f"\n{heading}\n", 1)[1]
    assert section.lstrip().startswith("- `diagnoser.preflight(model, loader, loss_fn, optimizer)`")
    assert "- `diagnoser.watch(model)`" in section
    assert out.index(heading) < out.index("diagnoser repro nan-loss")
    assert heading not in cli("show", "shape-matmul", "--lang", lang).stdout
