"""What the bridge of issue 24 (item 5) would add, measured, not wired into matching.

Links each family to the source templates its examples hit (the sites the tier names for each
example), then reads the development set's declined errors (bench/source_tier_devset.py's output
on stdin) and prints, for each one whose first site is linked, the family the bridge would name.

    python bench/source_tier_devset.py > /tmp/dev.tsv
    python bench/source_tier_bridge.py < /tmp/dev.tsv
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_EXCEPTION = re.compile(r"^([\w.]+(?:Error|Exception|Warning)): ")


def links() -> dict[tuple[str, int], set[str]]:
    from diagnoser.knowledge.index import kb_dir
    from diagnoser.knowledge.schema import load_kb
    from diagnoser.knowledge.source_tier import locate

    linked: dict[tuple[str, int], set[str]] = defaultdict(set)
    for entry in load_kb(kb_dir()):
        for example in entry.examples:
            text = example.strip()
            m = _EXCEPTION.match(text)
            found = locate(text[m.end() :] if m else text, m.group(1) if m else None)
            for site in found.sites if found else ():
                linked[(site.file, site.line)].add(entry.id)
    return linked


def main() -> int:
    linked = links()
    print(f"{len(linked)} sites linked to {len(set().union(*linked.values()))} families")
    added = 0
    for row in sys.stdin:
        code, exc, message, family, count, sites = row.rstrip("\n").split("\t")
        if family != "-" or count == "0":
            continue
        first = sites.split(" | ")[0].split(" ")[0]
        file, _, line = first.rpartition(":")
        ids = linked.get((file, int(line)))
        if ids:
            added += 1
            print(f"{code}\n    {exc}: {message[:100]}\n    -> {sorted(ids)}")
    print(f"{added} declined errors would get a family")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
