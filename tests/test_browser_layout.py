"""The guide's visible defects of issue 27, each checked as a person sees it: Chromium at a
desktop (1440x900) and a phone (390x844) size against the built site. The fixtures are
test_browser.py's (one browser for this module)."""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_browser import ARTIFACTS, _search, base_url, browser  # noqa: F401  (fixtures)

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(params=["desktop", "phone"])
def sized(request: Any, browser: Any) -> Iterator[Any]:  # noqa: F811
    viewport = DESKTOP if request.param == "desktop" else PHONE
    context = browser.new_context(viewport=viewport, locale="en-US", is_mobile=viewport == PHONE)
    page = context.new_page()
    page.size_name = request.param  # type: ignore[attr-defined]
    yield page
    context.close()


def test_search_results_do_not_show_the_hidden_keywords(sized: Any, base_url: str) -> None:  # noqa: F811
    sized.goto(f"{base_url}/")
    if sized.size_name == "phone":
        sized.locator("label[for='__search']").first.click()
    _search(sized, "CUDA out of memory")
    tags = sized.locator(".md-search-result nav.md-tags")
    assert tags.count() > 0  # the entry pages' keywords are in the results' markup...
    assert not any(tag.is_visible() for tag in tags.all())  # ...and shown nowhere
    sized.screenshot(path=str(ARTIFACTS / f"search-{sized.size_name}.png"))


# The message under "What you see": the block right after its heading.
_MESSAGE = ".md-typeset h2 + div.highlight pre"
_OVERFLOW = """(MESSAGE) => [...document.querySelectorAll(MESSAGE + ' > code')]
    .filter(c => c.offsetParent !== null)
    .map(c => [c.scrollWidth, c.clientWidth])"""

_COPY = "button[data-md-type='copy'], button.md-clipboard"  # Material 9.8 / older
_UNDER_COPY_BUTTON = """([MESSAGE, COPY]) => {
    const out = [];
    for (const pre of document.querySelectorAll(MESSAGE)) {
        const button = pre.closest('.highlight').querySelector(COPY);
        const code = pre.querySelector('code');
        if (!button || !code || pre.offsetParent === null) continue;
        const b = button.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(code);
        for (const r of range.getClientRects()) {
            if (r.width && r.left < b.right && r.right > b.left
                && r.top < b.bottom && r.bottom > b.top) out.push(code.textContent.slice(0, 40));
        }
    }
    return out;
}"""


def test_error_messages_wrap_and_stay_clear_of_the_copy_button(
    sized: Any,
    base_url: str,  # noqa: F811
) -> None:
    sized.goto(f"{base_url}/entries/cuda-oom/")
    sized.locator(_COPY).first.wait_for(state="attached", timeout=10_000)  # added by the theme
    widths = sized.evaluate(_OVERFLOW, _MESSAGE)
    assert widths, "no error-message block on the cuda-oom page"
    assert [w for w in widths if w[0] > w[1] + 1] == []  # scrollWidth beyond the visible width
    assert sized.evaluate(_UNDER_COPY_BUTTON, [_MESSAGE, _COPY]) == []
    sized.screenshot(path=str(ARTIFACTS / f"cuda-oom-{sized.size_name}.png"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_numbered_fix_steps_count_up(browser: Any, base_url: str, lang: str) -> None:  # noqa: F811
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    prefix = "zh/" if lang == "zh" else ""
    page.goto(f"{base_url}/{prefix}entries/backward-twice/")
    fixed = page.locator(".tabbed-block").first
    lists = fixed.locator(":scope > ol")
    # The steps are one list: five items, shown 1. to 5., not five lists each showing "1."
    assert lists.count() == 1
    assert lists.first.locator(":scope > li").count() >= 5
    context.close()


def _glance_first_line(page: Any) -> tuple[str, str]:
    """At a glance's first line: its label and its value."""
    item = page.locator(".md-typeset h2 + ul > li").first
    return item.locator("strong").first.inner_text(), item.locator("code").first.inner_text()


@pytest.mark.parametrize(
    ("entry", "printed"),
    [
        ("torchrun-child-failed", "ChildFailedError: train.py FAILED"),
        ("slow-training-dataloader", "does not have many workers"),
        ("gradient-none", "object has no attribute"),
    ],
)
def test_at_a_glance_shows_the_message_itself(
    browser: Any,  # noqa: F811
    base_url: str,  # noqa: F811
    entry: str,
    printed: str,
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{base_url}/entries/{entry}/")
    label, message = _glance_first_line(page)
    assert label == "Message"
    # not a row of "=" nor the path of the file that printed the warning on someone's machine
    assert printed in message and not message.startswith(("=", "/"))
    context.close()


@pytest.mark.parametrize(("lang", "label"), [("en", "Symptom"), ("zh", "现象")])
def test_a_symptom_without_a_message_is_not_labelled_as_one(
    browser: Any,  # noqa: F811
    base_url: str,  # noqa: F811
    lang: str,
    label: str,
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{base_url}/{'zh/' if lang == 'zh' else ''}entries/gradient-explosion/")
    assert _glance_first_line(page)[0] == label
    context.close()


@pytest.mark.parametrize("where", ["entries/", "", "zh/entries/"])
def test_on_a_phone_the_quick_reference_links_are_on_screen(
    browser: Any,  # noqa: F811
    base_url: str,  # noqa: F811
    where: str,
) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    page.goto(f"{base_url}/{where}")
    links = page.locator(".md-typeset table tbody tr td a")
    assert links.count() > 0
    box = links.first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    context.close()


_STRAY_SPACE = """() => [...document.querySelectorAll('article p, article li, article td')]
    .filter(e => !e.querySelector('p, ul, ol, pre'))
    .map(e => e.innerText.match(/.{0,6}[，。：；！？、）][ \\n]+\\S/))
    .filter(m => m).map(m => m[0])"""


@pytest.mark.parametrize("where", ["zh/runtime/", "zh/unknown/", "zh/entries/cuda-oom/"])
def test_no_space_after_chinese_punctuation(browser: Any, base_url: str, where: str) -> None:  # noqa: F811
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{base_url}/{where}")
    assert page.evaluate(_STRAY_SPACE) == []
    context.close()


_VISIBLE_SIDEBAR_LINKS = """() => [
    ...document.querySelectorAll('.md-sidebar--primary a.md-nav__link')
].filter(a => a.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})).length"""


def test_the_sidebar_collapses_by_group(browser: Any, base_url: str) -> None:  # noqa: F811
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{base_url}/")
    sidebar = page.locator(".md-sidebar--primary")
    # the pages and one line per group, not every entry of every group (101 links on main)
    assert page.evaluate(_VISIBLE_SIDEBAR_LINKS) <= 20
    ddp = sidebar.get_by_role("link", name="DDP does not average the gradients")
    assert not ddp.is_visible()
    sidebar.get_by_text("Distributed", exact=True).first.click()
    assert ddp.is_visible()
    page.screenshot(path=str(ARTIFACTS / "sidebar-desktop.png"))
    context.close()


# The groups' links (with navigation.prune each leads to its group's first entry), and the
# entries' labels on such a page: its group's section of the sidebar.
_GROUP_LINKS = """() => [
    ...document.querySelectorAll('.md-sidebar--primary a.md-nav__link[href^="entries/"]')
].filter(a => a.getAttribute('href') !== 'entries/').map(a => a.href)"""
_SECTION_LABELS = """() => [
    ...document.querySelectorAll('.md-sidebar--primary nav[data-md-level="1"] a.md-nav__link')
].filter(a => !a.closest('.md-nav--secondary')).map(a => a.textContent.trim())"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_sidebar_labels_say_what_the_family_is(browser: Any, base_url: str, lang: str) -> None:  # noqa: F811
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{base_url}/{'zh/' if lang == 'zh' else ''}")
    labels: set[str] = set()
    for group in page.evaluate(_GROUP_LINKS):
        page.goto(group)
        labels.update(page.evaluate(_SECTION_LABELS))
    assert len(labels) >= 100
    # A word: a run of Latin letters and code, or one Chinese character (sitegen._WORD).
    words = re.compile(r"[A-Za-z0-9_.'\[\]()]+|[\u4e00-\u9fff]")
    # "DDP", "CTCLoss", "F.interpolate" name a component, not what went wrong
    assert sorted(label for label in labels if len(words.findall(label)) < 3) == []
    context.close()


# Each entry's heading, rendered in this page's article (the same width and style): its lines.
_HEADING_LINES = """async (urls) => {
    const article = document.querySelector('article.md-content__inner');
    const out = [];
    for (const url of urls) {
        const html = await (await fetch(url)).text();
        const h1 = new DOMParser().parseFromString(html, 'text/html').querySelector('article h1');
        const probe = document.createElement('h1');
        probe.innerHTML = h1.innerHTML;
        article.prepend(probe);
        const lineHeight = parseFloat(getComputedStyle(probe).lineHeight);
        out.push(Math.round(probe.getBoundingClientRect().height / lineHeight));
        probe.remove();
    }
    return out;
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_entry_headings_are_short(
    browser: Any,  # noqa: F811
    base_url: str,  # noqa: F811
    built_site: Path,
    lang: str,
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    prefix = "zh/" if lang == "zh" else ""
    page.goto(f"{base_url}/{prefix}entries/cuda-oom/")
    entries = sorted(p.name for p in (built_site / "entries").iterdir() if p.is_dir())
    lines = page.evaluate(_HEADING_LINES, [f"{base_url}/{prefix}entries/{e}/" for e in entries])
    assert len(lines) >= 100
    assert statistics.median(lines) <= 2  # 3 on main's build; a heading of 3 lines is a paragraph
    context.close()


# Every Chinese page's paragraphs, list items and cells as Chromium lays them out, inline code
# left out (a message quoted as printed keeps its spaces): a space after full-width punctuation.
_STRAY_SPACES_ON = """async (urls) => {
    const out = [];
    for (const url of urls) {
        const html = await (await fetch(url)).text();
        const article = new DOMParser().parseFromString(html, 'text/html').querySelector('article');
        const holder = document.createElement('div');
        holder.innerHTML = article.innerHTML;
        for (const code of holder.querySelectorAll('code')) code.textContent = 'c';
        document.body.append(holder);
        for (const e of holder.querySelectorAll('p, li, td')) {
            if (e.querySelector('p, ul, ol, pre')) continue;
            const m = e.innerText.match(/.{0,6}[，。：；！？、）][ \\n]+\\S/);
            if (m) out.push(url.split('/zh/')[1] + ' ' + m[0]);
        }
        holder.remove();
    }
    return out;
}"""


def test_no_space_after_chinese_punctuation_on_any_page(
    browser: Any,  # noqa: F811
    base_url: str,  # noqa: F811
    built_site: Path,
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(f"{base_url}/zh/")
    pages = sorted(p.parent.relative_to(built_site) for p in built_site.glob("zh/**/index.html"))
    assert len(pages) >= 150
    assert page.evaluate(_STRAY_SPACES_ON, [f"{base_url}/{p}/" for p in pages]) == []
    context.close()
