"""mkdocs hook: generate the pages from kb/ before every build (see diagnoser/guide/sitegen.py),
put the entries into the navigation by group, and point each entry's "edit" button at its YAML.

DIAGNOSER_KB names another kb/ directory (the tests build the site from a modified copy)."""

import json
import logging
import os
import re
import shutil
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.pages import Page

from diagnoser.guide.sitegen import join_chinese_lines, nav, search_words, write_pages
from diagnoser.knowledge.schema import load_kb
from diagnoser.speak.optional import MissingOptional, requires

log = logging.getLogger("mkdocs.hooks.kb_pages")


def _kb() -> Path | None:
    kb = os.environ.get("DIAGNOSER_KB")
    return Path(kb) if kb else None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    # Runs before the i18n plugin's on_config (priority -100), which reads nav and its translations.
    from diagnoser.knowledge.index import kb_dir

    entries = load_kb(_kb() or kb_dir())
    config["nav"], zh = nav(entries)
    try:
        with requires("jieba", extra="docs", feature="the guide's Chinese search"):
            import jieba  # the search plugin's Chinese segmenter: the same global instance
    except MissingOptional as e:
        raise PluginError(str(e)) from None

    jieba.setLogLevel(logging.WARNING)  # not its "Building prefix dict..." lines on every build
    for word in sorted(search_words(entries)):
        jieba.add_word(word)
    for language in config.plugins["i18n"].config["languages"]:
        if language["locale"] == "zh":
            language["nav_translations"] = {**(language["nav_translations"] or {}), **zh}
    return config


def _inner_build(config: MkDocsConfig) -> bool:
    """The i18n plugin builds the other language by running a whole build inside its own
    on_post_build (flag `building`): the pages are written and the site finished once, by the
    outer build, not twice."""
    return bool(getattr(config.plugins.get("i18n"), "building", False))


def on_pre_build(config: MkDocsConfig) -> None:
    if not _inner_build(config):
        write_pages(Path(config["docs_dir"]), _kb())


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Any) -> str:
    # every Chinese page, the generated ones and the runtime, rule and API pages alike
    return join_chinese_lines(markdown) if page.file.src_uri.endswith(".zh.md") else markdown


# The rendered Chinese page's text, block by block: code blocks and block tags become a break
# (\x00) that no space "follows", inline code one character (\x01: its text is shown as
# written), other inline tags vanish.
_PRE = re.compile(r"<pre\b.*?</pre>", re.S)
_INLINE_CODE = re.compile(r"<code\b.*?</code>", re.S)
_BLOCK = re.compile(
    r"</?(?:p|li|td|th|tr|ul|ol|dl|dd|dt|div|h\d|table|thead|tbody|blockquote|details|summary)\b[^>]*>"
)
_TAG = re.compile(r"<[^>]+>")
_STRAY_SPACE = re.compile(r"([^\x00\s]{0,8})([，。：；！？、）」』】])[ \n]+(?=[^\s\x00])")


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Any) -> str:
    """A Chinese page that still shows a space after full-width punctuation fails the build,
    naming the line of its source (join_chinese_lines removes those it can)."""
    if not page.file.src_uri.endswith(".zh.md"):
        return html
    text = _INLINE_CODE.sub("\x01", _BLOCK.sub("\x00", _PRE.sub("\x00", html)))
    text = unescape(_TAG.sub("", text))
    found = _STRAY_SPACE.search(text)
    if found:
        source = Path(config["docs_dir"], page.file.src_uri)
        lines = source.read_text(encoding="utf-8").split("\n") if source.exists() else []
        before = re.escape(found.group(1)[-4:] + found.group(2))
        after = re.escape(text[found.end() : found.end() + 2])
        where = re.compile(f"{before}[*_`\\s]*{after}|{before}$")  # markup between, or a break
        line = next((i for i, row in enumerate(lines, 1) if where.search(row)), 0)
        raise PluginError(
            f"{source}:{line}: a space after full-width punctuation shows on the page: "
            f"{found.group(0)!r} (hooks/kb_pages.py, sitegen.join_chinese_lines)"
        )
    return html


def on_page_context(context: Any, page: Page, config: MkDocsConfig, nav: Any) -> Any:
    # Entry pages are generated: their source is kb/<id>.yaml, not the page under site/.
    src = Path(page.file.src_uri)
    if src.parts[0] == "entries" and src.stem.split(".")[0] != "index" and config.repo_url:
        page.edit_url = f"{config.repo_url.rstrip('/')}/edit/main/kb/{src.stem.split('.')[0]}.yaml"
    return context


_ALTERNATE_HEAD = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
_SELECT_LINK = re.compile(r'<a href="(/[^"]*)" hreflang="([^"]*)" class="md-select__link">')
_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S)


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """Make every link relative (the site works wherever it is served) and give each language its
    own search index.

    - Material reads each head <link rel="alternate"> as a language *root* and fetches its
      sitemap.xml, but the i18n plugin points them at the page itself: two 404s on every page.
      hreflang alternates are declared in sitemap.xml, so the head links go.
    - On the home pages the i18n plugin writes the language links as absolute paths from
      site_url, which break when the site is served anywhere else.
    - Material loads search/search_index.json from its "base"; pointing a Chinese page's base at
      zh/ makes it load the Chinese index that on_post_build writes there.
    """
    to_root = "../" * page.url.count("/") or "./"
    site_path = urlsplit(config.site_url or "/").path
    output = _ALTERNATE_HEAD.sub("", output)

    def relative(match: re.Match[str]) -> str:
        target = match.group(1).removeprefix(site_path).lstrip("/")
        return f'<a href="{to_root}{target}" hreflang="{match.group(2)}" class="md-select__link">'

    output = _SELECT_LINK.sub(relative, output)
    if page.url.startswith("zh/"):

        def zh_base(match: re.Match[str]) -> str:
            settings = json.loads(match.group(2))
            settings["base"] = (to_root + "zh/").removeprefix("./")
            return match.group(1) + json.dumps(settings) + match.group(3)

        output = _CONFIG.sub(zh_base, output, count=1)
    return output


@event_priority(-200)  # after the i18n plugin has written the combined index (priority -100)
def on_post_build(config: MkDocsConfig) -> None:
    if _inner_build(config):  # the outer build's call comes after the combined index
        return
    site = Path(config["site_dir"])
    index_path = site / "search" / "search_index.json"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    zh_docs = [d for d in index["docs"] if d["location"].startswith("zh/")]
    en_docs = [d for d in index["docs"] if not d["location"].startswith("zh/")]
    for doc in zh_docs:
        doc["location"] = doc["location"].removeprefix("zh/")
    index_path.write_text(json.dumps({**index, "docs": en_docs}), encoding="utf-8")
    zh_dir = site / "zh"
    (zh_dir / "search").mkdir(exist_ok=True)
    (zh_dir / "search" / "search_index.json").write_text(
        json.dumps({**index, "docs": zh_docs}), encoding="utf-8"
    )
    # Material fetches sitemap.xml from its base: the Chinese pages' base is zh/.
    shutil.copyfile(site / "sitemap.xml", zh_dir / "sitemap.xml")
    _patch_search_worker(site)
    _bundle_engine(site)


def _bundle_engine(site: Path) -> None:
    """The paste box's engine (diagnoser/guide/engine.py): Pyodide from the npm cache and the
    engine with a prebuilt index, into engine/. Without Pyodide the site still builds, and the
    box says the engine is not bundled."""
    from diagnoser.guide.engine import bundle, pyodide_dir

    manifest = bundle(site, _kb())
    if not manifest["bundled"]:
        log.info(
            "the paste box's engine is not bundled: no Pyodide in %s "
            "(python -m diagnoser.guide.engine fetch, which `make site` runs, gets it from npm)",
            pyodide_dir(),
        )


# Material's worker cuts a Chinese query into the index's words, but its loop stops one
# character short, so a query never matches a word that ends the query ("loss 一直不下降" loses
# "不下降"). Fixed here until Material fixes it; a test runs such queries in a real browser.
_SEGMENT_LOOP = "for(let o=s+1;o<t.length;o++)t.slice(s,o)in e"
# The worker's query message, where hooks/search_query.js's tdPlainQuery turns a paste into words.
_QUERY_MESSAGE = re.compile(r"(case 2:let (\w+)=\w+\.data;)")
_PLAIN_QUERY = Path(__file__).with_name("search_query.js")


def _patch_search_worker(site: Path) -> None:
    workers = list((site / "assets" / "javascripts" / "workers").glob("search.*.min.js"))
    for worker in workers:
        code = worker.read_text(encoding="utf-8")
        if "function tdPlainQuery" in code:  # `mkdocs build --dirty` keeps the last build's worker
            continue
        if _SEGMENT_LOOP not in code or len(_QUERY_MESSAGE.findall(code)) != 1:
            raise PluginError(
                f"{worker.name}: Material's search worker changed; review the query patches "
                "in hooks/kb_pages.py (Chinese segmentation, tdPlainQuery)"
            )
        code = code.replace(_SEGMENT_LOOP, _SEGMENT_LOOP.replace("<t.", "<=t."))
        code = _QUERY_MESSAGE.sub(r"\1\2=tdPlainQuery(\2);", code)
        worker.write_text(_PLAIN_QUERY.read_text(encoding="utf-8") + code, encoding="utf-8")


def on_post_template(output: str, template_name: str, config: MkDocsConfig) -> str:
    """The 404 page is served at any address, so its links stay absolute; but the i18n plugin
    gives it the language links of whichever page it rendered last: point them at the homes."""
    if template_name != "404.html":
        return output
    site_path = urlsplit(config.site_url or "/").path

    def home(match: re.Match[str]) -> str:
        lang = match.group(2)
        target = site_path if lang == "en" else f"{site_path}{lang}/"
        return f'<a href="{target}" hreflang="{lang}" class="md-select__link">'

    return _SELECT_LINK.sub(home, _ALTERNATE_HEAD.sub("", output))
