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
from .test_site import built_site  # noqa: F401  (the fixture)

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
def base_url(built_site: Path) -> Iterator[str]:  # noqa: F811
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
    """Everything but the known harmless sitemap.xml 404s of Material's language selector."""
    return [
        m.text
        for m in page.console_errors
        if not ("404" in m.text and "sitemap" in (m.location.get("url") or "sitemap"))
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


def _search(page: Any, text: str) -> list[str]:
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(text)
    box.press("End")  # Material searches on key events; fill() alone sends none for Chinese
    page.locator(".md-search-result__item").first.wait_for(timeout=15_000)
    return [a.get_attribute("href") or "" for a in page.locator(".md-search-result__link").all()]


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
