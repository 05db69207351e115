"""The paste box in a real browser (Chromium, served from the built site on 127.0.0.1): the
diagnoser's own engine, run by Pyodide in the page, answers every paste exactly as
`diagnoser --json --lang LANG` does, in both languages. The first and the next answers' times are
printed (run with -s), not asserted: they depend on the machine.

Without Pyodide in the build (`python -m diagnoser.guide.engine fetch` gets it from npm; `make
site` and `make test` run it) the tests skip locally and fail in CI (CI=true)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import statistics
from pathlib import Path
from typing import Any

import pytest

from diagnoser.cli import main as cli
from diagnoser.text.cleanup import decode

from .conftest import ROOT
from .test_browser import base_url, browser  # noqa: F401 - the fixtures, shared

SENTENCES = [
    "loss is nan after a few steps",
    "my loss is nann after 3 epoches",
    "val loss goes up while train loss goes down",
    "training is very slow, the GPU is idle most of the time",
    "gradients are None after backward",
    "the loss does not decrease at all",
    "CUDA out of memory when I increase the batch size",
    "loss 变成 nan",
    "训练 loss 一直不下降",
    "验证集 loss 上升，训练集 loss 一直在降",
    "显存爆了",
    "损失为负数",
    "训练特别慢，GPU 利用率很低",
]
NO_MATCH = [
    "hello world",
    "今天天气不错",
    "Everything went fine, training finished.",
    "RuntimeError: selected index k out of range",
    "ValueError: something entirely unheard of happened here",
]


def _texts() -> list[tuple[str, bytes]]:
    """(name, bytes) of every text pasted: the real pastes under tests/data, the samples, blocks
    of tests/data's other files, old wordings, sentences in both languages and texts no entry
    explains."""
    found = [
        (p.relative_to(ROOT).as_posix(), p.read_bytes())
        for p in sorted((ROOT / "tests" / "data" / "real").rglob("*.txt"))
    ]
    found += [(p.name, p.read_bytes()) for p in sorted((ROOT / "samples").glob("*.txt"))]
    for path in sorted((ROOT / "tests" / "data").glob("not_pytorch_errors*.txt")):
        blocks = path.read_text(encoding="utf-8").split("\n----\n")
        for n, block in enumerate(blocks[:3]):
            found.append((f"{path.name}#{n}", block.encode()))
    lines = (ROOT / "tests" / "data" / "old_wordings.tsv").read_text(encoding="utf-8").splitlines()
    wordings = [
        line.split("\t", 1)[1] for line in lines if "\t" in line and not line.startswith("#")
    ]
    found += [
        (f"old_wordings#{n}", w.replace("\\n", "\n").encode()) for n, w in enumerate(wordings[:8])
    ]
    found += [(f"sentence: {s}", s.encode()) for s in SENTENCES]
    found += [(f"no match: {s}", s.encode()) for s in NO_MATCH]
    return found


TEXTS = _texts()


def _cli_json(data: bytes, lang: str, tmp_path: Path) -> dict[str, Any]:
    """`diagnoser --json --lang LANG FILE`: the CLI's own main(), its output captured."""
    path = tmp_path / "paste.txt"
    path.write_bytes(data)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cli(["--json", "--lang", lang, str(path)])
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def engine(built_site: Path) -> Path:
    manifest = json.loads((built_site / "engine" / "manifest.json").read_text(encoding="utf-8"))
    if not manifest["bundled"]:
        message = "the built site has no paste-box engine: Pyodide was not fetched from npm"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (run `python -m diagnoser.guide.engine fetch`)")
        pytest.skip(message)
    return built_site / "engine"


def _paste(page: Any, text: str) -> dict[str, Any]:
    """Paste `text` into the box, press Ctrl+Enter, wait for the answer: its JSON and time."""
    box = page.locator(".td-paste")
    before = int(box.get_attribute("data-answers") or 0)
    errors = box.get_attribute("data-errors")
    page.fill(".td-paste textarea", text)
    page.press(".td-paste textarea", "Control+Enter")
    page.wait_for_function(
        "([n, e]) => { const b = document.querySelector('.td-paste');"
        " return Number(b.dataset.answers || 0) > n || (b.dataset.errors || null) !== e; }",
        arg=[before, errors],
        timeout=180_000,
    )
    if box.get_attribute("data-errors") != errors:
        raise AssertionError("the paste box failed: " + page.inner_text(".td-paste__status"))
    return page.evaluate("() => document.querySelector('.td-paste').pasteBox.last")  # type: ignore[no-any-return]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_browser_answers_every_paste_as_the_cli_does(
    browser: Any,  # noqa: F811
    base_url: str,  # noqa: F811
    engine: Path,
    lang: str,
    tmp_path: Path,
) -> None:
    assert len(TEXTS) >= 50
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{base_url}/{'zh/' if lang == 'zh' else ''}diagnose/")
    times, wrong = [], []
    for n, (name, data) in enumerate(TEXTS):
        text = decode(data)
        answer = _paste(page, text)
        times.append(answer["ms"])
        if n == 0:
            load_ms = int(page.locator(".td-paste").get_attribute("data-load-ms") or 0)
            steps = json.loads(page.locator(".td-paste").get_attribute("data-load-steps") or "{}")
            load_ms_steps = ", ".join(f"{k} {v:.0f} ms" for k, v in steps.items())
            status = page.inner_text(".td-paste__status")
        ours = json.loads(answer["report"])
        theirs = _cli_json(data, lang, tmp_path)
        if ours != theirs:
            wrong.append(
                f"{name}: browser {json.dumps(ours)[:600]}\n  cli {json.dumps(theirs)[:600]}"
            )
    # Loaded, the page needs no network: the next paste is answered offline.
    context.set_offline(True)
    offline = json.loads(_paste(page, "loss is nan after a few steps")["report"])
    assert [m["id"] for m in offline["matches"]][:1] == ["nan-loss"]
    context.close()
    later = times[1:]
    print(
        f"\n[{lang}] {len(TEXTS)} pastes; first answer {times[0]:.0f} ms"
        f" (engine load {load_ms} ms: {load_ms_steps};"
        f" status {status!r}); next answers median {statistics.median(later):.0f} ms,"
        f" p90 {sorted(later)[int(len(later) * 0.9)]:.0f} ms, max {max(later):.0f} ms"
    )
    assert not wrong, f"{len(wrong)} of {len(TEXTS)} differ:\n" + "\n".join(wrong[:5])


def test_the_box_is_on_both_homes_and_says_nothing_leaves_the_browser(
    browser: Any,  # noqa: F811
    base_url: str,  # noqa: F811
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    for path, words in (("/", "nothing you paste leaves"), ("/zh/", "不会离开")):
        page.goto(base_url + path)
        box = page.locator(".td-paste")
        assert box.is_visible() and words in box.inner_text()
        assert page.locator(".td-paste textarea").is_visible()
    # nothing of the engine is fetched before someone pastes
    assert not [u for u in requests if "/engine/" in u], requests
    context.close()


def test_without_the_engine_the_box_says_so(
    browser: Any,  # noqa: F811
    base_url: str,  # noqa: F811
) -> None:
    """A site built where npm was not reachable: the box says the engine is not bundled."""
    context = browser.new_context()
    page = context.new_page()
    page.route("**/engine/manifest.json", lambda route: route.fulfill(json={"bundled": False}))
    for path, words in (("/diagnose/", "not bundled"), ("/zh/diagnose/", "没有打包")):
        page.goto(base_url + path)
        page.fill(".td-paste textarea", "loss is nan")
        page.press(".td-paste textarea", "Control+Enter")
        page.wait_for_function("() => document.querySelector('.td-paste').dataset.errors")
        assert words in page.inner_text(".td-paste__status")
    context.close()
