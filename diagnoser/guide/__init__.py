"""The bilingual guide's generator (sitegen): every page of site/ that comes from kb/, the lint
rules and the runtime checks, written before each `mkdocs build` by hooks/kb_pages.py."""
