"""What the bridge of issue 24 (item 5) would add, measured, not wired into matching.

The strict bridge: a template is linked to a family only when the examples of that one family hit
it (a template two families' examples hit words something generic), and a query then takes the
family only when its values at the template's wildcards equal those that were the same in every
example of the family (the argument parser's "X(): argument 'Y' ... must be Z, not W" is linked to
unpack-mismatch only for the X, Y, Z, W its examples print). Prints each declined error the bridge
would name a family for, to be judged by hand.

    python bench/source_tier_bridge.py < tests/data/source_tier_dev.tsv   # synthetic dev set
    python bench/source_tier_bridge.py --real   # tests/data/real/source_posts.yaml
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_EXCEPTION = re.compile(r"^([\w.]+(?:Error|Exception|Warning)): ")

Key = tuple[str, int]


def _templates(message: str, exc: str | None) -> list[tuple[Key, tuple[str, ...]]]:
    """The sites the tier names for a message, each with the values its wildcards take."""
    from diagnoser.knowledge import source_tier as st

    found = st.locate(message, exc)
    index = st._load()
    if not found or index is None:
        return []
    text = found.message
    wanted = {(s.file, s.line) for s in found.sites}
    out = []
    for i in index.candidates(text):
        rec = index.record(i)
        fields = dict(zip(st._FIELDS, rec, strict=False))
        key = (index.text(fields["file"]), int(fields["line"] or 0))
        if key not in wanted:
            continue
        # the index keeps a wildcard as an empty piece
        pieces = [p or None for p in index.text(fields["pieces"]).split("\x1e")]
        m = re.search(st.template_regex(pieces) + r"\Z", text)
        out.append((key, m.groups() if m else ()))
    return out


def links() -> dict[Key, tuple[str, dict[int, str]]]:
    """Template -> (the one family whose examples hit it, the wildcard values they all share)."""
    from diagnoser.knowledge.index import kb_dir
    from diagnoser.knowledge.schema import load_kb

    seen: dict[Key, dict[str, list[tuple[str, ...]]]] = defaultdict(lambda: defaultdict(list))
    for entry in load_kb(kb_dir()):
        for example in entry.examples:
            text = example.strip()
            m = _EXCEPTION.match(text)
            message, exc = (text[m.end() :], m.group(1)) if m else (text, None)
            for key, values in _templates(message, exc):
                seen[key][entry.id].append(values)
    linked = {}
    for key, families in seen.items():
        if len(families) != 1:
            continue
        ((family, hits),) = families.items()
        fixed = {
            n: hits[0][n]
            for n in range(min(len(h) for h in hits))
            if all(h[n] == hits[0][n] for h in hits)
        }
        linked[key] = (family, fixed)
    return linked


def bridge(linked: dict[Key, tuple[str, dict[int, str]]], message: str, exc: str | None) -> str:
    for key, values in _templates(message, exc):
        if key in linked:
            family, fixed = linked[key]
            if all(n < len(values) and values[n] == v for n, v in fixed.items()):
                return family
    return ""


def _why(linked: dict[Key, tuple[str, dict[int, str]]], message: str, exc: str | None) -> str:
    keys = [k for k, _ in _templates(message, exc) if k in linked]
    return "; ".join(f"{k[0]}:{k[1]} {linked[k][1]}" for k in keys)


def _queries() -> list[tuple[str, str | None, str]]:
    if "--real" in sys.argv:
        import yaml

        from diagnoser import parse

        posts = yaml.safe_load((ROOT / "tests/data/real/source_posts.yaml").read_text("utf-8"))
        out = []
        for post in posts:
            errors = parse(post["text"])
            if errors:
                last = errors[-1]
                out.append((post["id"], last.get("type"), last.get("message", "")))
        return out
    rows = [r.rstrip("\n").split("\t") for r in sys.stdin if not r.startswith(("#", "snippet"))]
    return [(r[0], r[1] or None, r[2]) for r in rows if len(r) >= 3]


def main() -> int:
    linked = links()
    print(f"{len(linked)} templates linked to {len({f for f, _ in linked.values()})} families")
    added = 0
    queries = _queries()
    for code, exc, message in queries:
        family = bridge(linked, message, exc)
        if family:
            added += 1
            why = _why(linked, message, exc)
            print(f"{code}\n    {exc}: {message[:100]}\n    -> {family} {why}")
    print(f"{added} of {len(queries)} declined errors would get a family")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
