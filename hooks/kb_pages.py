"""mkdocs hook: generate the pages from kb/ before every build (see diagnoser/sitegen.py).

DIAGNOSER_KB names another kb/ directory (the tests build the site from a modified copy)."""

import os
from pathlib import Path
from typing import Any

from diagnoser.sitegen import write_pages


def on_pre_build(config: Any) -> None:
    kb = os.environ.get("DIAGNOSER_KB")
    write_pages(Path(config["docs_dir"]), Path(kb) if kb else None)
