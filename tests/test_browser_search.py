"""The guide's search as people use it: pasted messages, in Chromium against the built site. The
fixtures are test_browser.py's (one browser for this module)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from .conftest import ROOT
from .test_browser import _search, base_url, browser  # noqa: F401  (fixtures)

PASTES = yaml.safe_load((ROOT / "tests" / "data" / "search_pastes.yaml").read_text("utf-8"))

# Each query through the site's own search worker, set up as Material sets it up (the page's
# config, its language's index), answered with the pages in the order the search lists them.
_FIRST_HITS = """async (queries) => {
  const config = JSON.parse(document.getElementById("__config").textContent);
  const base = new URL(config.base, location.href);
  const index = await (await fetch(new URL("search/search_index.json", base))).json();
  const worker = new Worker(new URL(config.search, base));
  const ask = (msg) => new Promise((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.postMessage(msg);
  });
  await ask({type: 0, data: {config: index.config, docs: index.docs, options: {suggest: false}}});
  const out = [];
  for (const q of queries) {
    const answer = await ask({type: 2, data: q});
    const first = answer.data.items.length ? answer.data.items[0][0].location : "";
    out.push(first.split("#")[0]);
  }
  worker.terminate();
  return out;
}"""


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:  # noqa: F811
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.warnings = []
    page.on("console", lambda m: page.warnings.append(m.text))
    yield page
    context.close()


def test_the_table_is_real_and_large_enough() -> None:
    assert len(PASTES) >= 30
    entries = {p.stem for p in (ROOT / "kb").glob("*.yaml")}
    assert {row["entry"] for row in PASTES} <= entries
    for row in PASTES:
        source = row["source"].split()[0]
        assert (ROOT / source).exists(), row


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pasted_messages_find_their_entry_first(page: Any, base_url: str, lang: str) -> None:  # noqa: F811
    page.goto(f"{base_url}/{'zh/' if lang == 'zh' else ''}")
    firsts = page.evaluate(_FIRST_HITS, [row["paste"] for row in PASTES])
    missed = [
        (row["entry"], first, row["paste"][:60])
        for row, first in zip(PASTES, firsts, strict=True)
        if not first.endswith(f"entries/{row['entry']}/")
    ]
    assert len(missed) <= len(PASTES) // 10, missed  # first hit >= 90%
    assert not [w for w in page.warnings if "Invalid query" in w]


# Pastes with quotes, brackets, colons and parentheses, typed into the search box itself: each
# real (an entry's example), each once gave no result or "Invalid query".
TYPED = [
    ('Missing key(s) in state_dict: "module.fc.weight", "module.fc.bias".', "state-dict-mismatch"),
    ("ModuleNotFoundError: No module named 'torch._six'", "torch-private-api-removed"),
    (
        "[rank0]: RuntimeError: aten.embedding.default got mixed torch.Tensor and DTensor, need "
        "to convert all torch.Tensor to DTensor before calling distributed operators!",
        "dtensor-mixed-tensor",
    ),
    (
        "RuntimeError: stack expects each tensor to be equal size, but got [3, 224, 224] at "
        "entry 0 and [3, 200, 300] at entry 1",
        "collate-unequal-size",
    ),
    (
        "[0/0] torch.fx.experimental.symbolic_shapes.ConstraintViolationError: Constraints "
        'violated (seq_len)! For more information, run with TORCH_LOGS="+dynamic".',
        "export-constraint-violation",
    ),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_any_paste_is_a_query(page: Any, base_url: str, lang: str) -> None:  # noqa: F811
    prefix = "zh/" if lang == "zh" else ""
    for text, entry in TYPED:
        page.goto(f"{base_url}/{prefix}")
        hits = _search(page, text)
        assert any(h.endswith(f"entries/{entry}/") for h in hits[:3]), (text, hits[:3])
    assert not [w for w in page.warnings if "Invalid query" in w]
