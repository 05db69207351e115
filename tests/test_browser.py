"""The guide in a real browser: Chromium, driven by Playwright, against the built site served on
127.0.0.1. Each test checks what a person would see. Without Chromium the tests skip locally; in
CI (CI=true) a missing Chromium is a failure."""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"

if not CHROMIUM.exists():
    if os.environ.get("CI") == "true":
        raise RuntimeError("CI needs Chromium at /usr/bin/chromium for the browser tests")
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(built_site: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m))
    yield page
    context.close()


def _real_console_errors(page: Any) -> list[str]:
    """Every console error of the site itself. Material asks GitHub's API for the repository's
    stars; this sandbox reaches no outside host, so those requests fail here and only here."""
    return [
        m.text
        for m in page.console_errors
        if not (m.location.get("url") or "").startswith("https://api.github.com/")
    ]


def test_english_entry_page(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/entries/shape-matmul/")
    for heading in (
        "What you see",
        "Why it happens",
        "How to fix it",
        "Reproduce it",
        "Related entries",
    ):
        assert page.get_by_role("heading", name=heading).is_visible()
    fixed_tab = page.locator(".tabbed-labels label").nth(0)
    broken_tab = page.locator(".tabbed-labels label").nth(1)
    assert "Fixed" in fixed_tab.inner_text() and "Broken" in broken_tab.inner_text()
    script_line = page.get_by_text("fixed_flag(__doc__)")
    assert not script_line.is_visible()
    broken_tab.click()
    assert script_line.is_visible()
    copy = page.locator("button[data-md-type='copy'], button.md-clipboard")  # 9.8 / older Material
    copy.first.wait_for(state="attached", timeout=10_000)  # added by the theme's JavaScript
    assert copy.first.get_attribute("title") == "Copy to clipboard"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "entry-en.png"), full_page=False)
    assert _real_console_errors(page) == []


def test_language_switcher_goes_to_the_same_entry_in_chinese(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/entries/shape-matmul/")
    page.locator(".md-header__option .md-select").hover()
    page.get_by_role("link", name="中文").click()
    page.wait_for_url("**/zh/entries/shape-matmul/")
    assert page.get_by_role("heading", name="为什么会这样").is_visible()
    assert page.get_by_text("矩阵乘法要求中间的维度一致").is_visible()
    page.screenshot(path=str(ARTIFACTS / "entry-zh.png"), full_page=False)
    assert _real_console_errors(page) == []


def _switch_language(page: Any, name: str) -> None:
    page.locator(".md-header__option .md-select").hover()
    page.get_by_role("link", name=name).click()


def test_the_language_switch_keeps_the_section(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/entries/shape-matmul/#how-to-fix-it")
    _switch_language(page, "中文")
    page.wait_for_url("**/zh/entries/shape-matmul/#*")
    section = page.evaluate("decodeURIComponent(location.hash.slice(1))")
    heading = page.locator(f"[id='{section}']")
    assert heading.inner_text().startswith("怎么修")
    assert heading.is_visible() and heading.bounding_box()["y"] < 300  # scrolled to it
    _switch_language(page, "English")
    page.wait_for_url("**/entries/shape-matmul/#how-to-fix-it")
    assert "/zh/" not in page.url
    assert _real_console_errors(page) == []


def _search(page: Any, text: str) -> list[str]:
    """The pages the search lists, best first (Material groups a page's sections under it)."""
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(text)
    box.press("End")  # Material searches on key events; fill() alone sends none for Chinese
    page.locator(".md-search-result__item").first.wait_for(timeout=15_000)
    hrefs = [a.get_attribute("href") or "" for a in page.locator(".md-search-result__link").all()]
    return list(dict.fromkeys(h.split("?")[0].split("#")[0] for h in hrefs))


def test_search_finds_an_entry_by_a_message_fragment(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/")
    hits = _search(page, "mat1 and mat2")
    assert any("entries/shape-matmul/" in h for h in hits), hits


def test_search_finds_a_chinese_word_from_mid_sentence(page: Any, base_url: str) -> None:
    # "展平" sits inside a sentence of shape-matmul's Chinese cause, with no space around it.
    page.goto(f"{base_url}/zh/")
    hits = _search(page, "展平")
    assert any("entries/shape-matmul/" in h for h in hits), hits
    assert _real_console_errors(page) == []


# What readers type or paste, in each language, and the entry that must come first. Pasted
# messages are real torch output (the entries' own examples hold the same wordings).
QUERIES = [
    ("en", "mat1 and mat2", "shape-matmul"),
    (
        "en",
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and 256x10)",
        "shape-matmul",
    ),
    (
        "en",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
        "total capacity of 23.65 GiB of which 1.03 GiB is free. Including non-PyTorch memory, "
        "this process has 22.61 GiB memory in use.",
        "cuda-oom",
    ),
    (
        "en",
        "RuntimeError: Expected all tensors to be on the same device, but found at least two "
        "devices, cuda:0 and cpu!",
        "device-mismatch",
    ),
    ("en", "dtype", "dtype-mismatch"),
    ("en", "loss is nan", "nan-loss"),
    ("en", "RuntimeError: Trying to backward through the graph a second time", "backward-twice"),
    ("en", "IndexError: Target 5 is out of bounds.", "target-out-of-bounds"),
    ("zh", "loss 不下降", "loss-not-decreasing"),
    ("zh", "loss 一直不下降", "loss-not-decreasing"),
    ("zh", "dtype", "dtype-mismatch"),
    ("zh", "显存不足", "cuda-oom"),
    ("zh", "爆显存", "cuda-oom"),
    ("zh", "梯度消失", "vanishing-gradient"),
    ("zh", "设备不一致", "device-mismatch"),
    ("zh", "维度不匹配", "shape-matmul"),
    ("zh", "mat1 and mat2 shapes cannot be multiplied", "shape-matmul"),
]


@pytest.mark.parametrize(("lang", "query", "entry"), QUERIES, ids=[q[1][:40] for q in QUERIES])
def test_search_finds_the_entry_first(
    page: Any, base_url: str, lang: str, query: str, entry: str
) -> None:
    page.goto(f"{base_url}/{'zh/' if lang == 'zh' else ''}")
    pages = _search(page, query)
    assert all((("/zh/" in p) == (lang == "zh")) for p in pages), pages  # its own language only
    assert pages[0].endswith(f"/entries/{entry}/"), pages[:3]


def test_the_sidebar_leads_to_an_entry_and_the_footer_to_the_next(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/")
    sidebar = page.locator(".md-sidebar--primary")
    # a section label (Material repeats it as the title of the section's own list)
    group = sidebar.get_by_text("CUDA and memory", exact=True).first
    assert group.is_visible()
    group.click()  # the groups are collapsed
    sidebar.get_by_role("link", name="CUDA out of memory", exact=True).click()
    page.wait_for_url("**/entries/cuda-oom/")
    assert page.locator(".md-path").get_by_text("CUDA and memory").is_visible()  # breadcrumbs
    nxt = page.locator("a.md-footer__link--next")
    assert nxt.is_visible()
    nxt.click()
    page.wait_for_url("**/entries/**")
    assert "cuda-oom" not in page.url
    assert _real_console_errors(page) == []


def test_on_a_phone_the_entry_has_its_table_of_contents(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    phone = context.new_page()
    phone.goto(f"{base_url}/zh/entries/cuda-oom/")
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "entry-zh-phone.png"))
    phone.locator("label.md-header__button[for='__drawer']").click()
    phone.locator(".md-sidebar--primary label[for='__toc']").first.click()  # the ≡ by the page
    toc = phone.locator(".md-sidebar--primary .md-nav--secondary").first
    fix = toc.get_by_role("link", name="怎么修")
    fix.wait_for(state="visible", timeout=10_000)
    box = fix.bounding_box()
    assert box is not None and 0 <= box["x"] < 390 and 0 <= box["y"] < 844  # on the screen
    phone.screenshot(path=str(ARTIFACTS / "drawer-zh-phone.png"))
    context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_screenshots_of_home_and_search(page: Any, base_url: str, lang: str) -> None:
    """For a person to look at: home (the quick-reference table) and a search, each language."""
    page.goto(f"{base_url}/{'zh/' if lang == 'zh' else ''}")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"home-{lang}.png"))
    table = page.locator("table").first
    assert table.get_by_role("link", name="shape-matmul").is_visible()
    _search(page, "显存不足" if lang == "zh" else "CUDA out of memory")
    page.screenshot(path=str(ARTIFACTS / f"search-{lang}.png"))
    assert _real_console_errors(page) == []
