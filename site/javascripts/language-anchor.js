// The language switch keeps the section: from /entries/x/#how-to-fix-it to the Chinese page's
// same section (its heading has another id, 怎么修). Both languages' pages have the same
// headings in the same order, so the section is found by its place among the headings; where the
// other page's headings do not line up one for one, it opens at the top as before.
(() => {
  const HEADINGS = "article.md-content__inner :is(h1, h2, h3, h4, h5, h6)[id]";

  const sectionIndex = (doc, id) => [...doc.querySelectorAll(HEADINGS)].findIndex((h) => h.id === id);

  document.addEventListener("click", async (event) => {
    const link = event.target instanceof Element && event.target.closest("a.md-select__link[hreflang]");
    if (!link || !location.hash || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const id = decodeURIComponent(location.hash.slice(1));
    const index = sectionIndex(document, id);
    if (index < 0) return;
    event.preventDefault();
    const target = new URL(link.href);
    try {
      const html = await (await fetch(target)).text();
      const other = new DOMParser().parseFromString(html, "text/html");
      const headings = [...other.querySelectorAll(HEADINGS)];
      if (headings.length === document.querySelectorAll(HEADINGS).length) {
        target.hash = headings[index].id;
      }
    } catch {
      // offline or file://: the other page opens at its top
    }
    location.href = target.href;
  });
})();
