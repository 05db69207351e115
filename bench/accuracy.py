"""How often the diagnoser is right on real public posts, sampled as users post them.

Reads the development set (tests/data/real/devset/*.yaml; how it was sampled and labelled is in
METHOD.md there), diagnoses each post's text as the CLI would, and compares the first answer with
the label given before the tool ever ran on it. Prints the numbers README.md reports:

- PyTorch posts (errors and symptoms) answered with the right family first;
- posts of a family the knowledge base has, recognised (right family first);
- non-PyTorch errors answered at all (a wrong answer: nothing applies to them);
- PyTorch posts answered with a wrong family first;
each also by language and by kind. `--misses` lists the posts answered wrongly or not at all.

`--set heldout` measures heldout.yaml instead (likewise heldout2 to heldout87): posts
sampled the same way but kept aside from development (rules are never tuned on them), so that the
sets' numbers show how a change generalises.

Usage: python bench/accuracy.py
       [--set dev|heldout|heldout2|heldout3|heldout4|heldout5|heldout6|heldout7|heldout8|heldout9|
              heldout10|heldout11|heldout12|heldout13|heldout14|
              heldout15|heldout16|heldout17|heldout18|heldout19|heldout20|heldout21|heldout22|
              heldout23|heldout24|heldout25|heldout26|heldout27|heldout28|heldout29|
              heldout30|heldout31|heldout32|heldout33|heldout34|heldout35|
              heldout36|heldout37|heldout38|heldout39|heldout40|heldout41|heldout42|heldout43|
              heldout44|heldout45|heldout46|heldout47|heldout48|heldout49|heldout50|
              heldout51|heldout52|heldout53|heldout54|heldout55|heldout56|heldout57|
              heldout58|heldout59|heldout60|heldout61|heldout62|heldout63|heldout64|
              heldout65|heldout66|heldout67|heldout68|
              heldout69|heldout70|heldout71|heldout72|
              heldout73|heldout74|heldout75|heldout76|heldout77|heldout78|heldout79|
              heldout80|heldout81|heldout82|heldout83|heldout84|heldout85|heldout86|heldout87]
       [--misses] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from diagnoser.knowledge.index import Index, load_index  # noqa: E402
from diagnoser.text.match import diagnose  # noqa: E402

DEVSET = ROOT / "tests" / "data" / "real" / "devset"
# each a file <name>.yaml kept out of the development set
HELD_ASIDE = (
    "heldout",
    "heldout2",
    "heldout3",
    "heldout4",
    "heldout5",
    "heldout6",
    "heldout7",
    "heldout8",
    "heldout9",
    "heldout10",
    "heldout11",
    "heldout12",
    "heldout13",
    "heldout14",
    "heldout15",
    "heldout16",
    "heldout17",
    "heldout18",
    "heldout19",
    "heldout20",
    "heldout21",
    "heldout22",
    "heldout23",
    "heldout24",
    "heldout25",
    "heldout26",
    "heldout27",
    "heldout28",
    "heldout29",
    "heldout30",
    "heldout31",
    "heldout32",
    "heldout33",
    "heldout34",
    "heldout35",
    "heldout36",
    "heldout37",
    "heldout38",
    "heldout39",
    "heldout40",
    "heldout41",
    "heldout42",
    "heldout43",
    "heldout44",
    "heldout45",
    "heldout46",
    "heldout47",
    "heldout48",
    "heldout49",
    "heldout50",
    "heldout51",
    "heldout52",
    "heldout53",
    "heldout54",
    "heldout55",
    "heldout56",
    "heldout57",
    "heldout58",
    "heldout59",
    "heldout60",
    "heldout61",
    "heldout62",
    "heldout63",
    "heldout64",
    "heldout65",
    "heldout66",
    "heldout67",
    "heldout68",
    "heldout69",
    "heldout70",
    "heldout71",
    "heldout72",
    "heldout73",
    "heldout74",
    "heldout75",
    "heldout76",
    "heldout77",
    "heldout78",
    "heldout79",
    "heldout80",
    "heldout81",
    "heldout82",
    "heldout83",
    "heldout84",
    "heldout85",
    "heldout86",
    "heldout87",
)


@dataclass(frozen=True)
class Post:
    id: str
    url: str
    lang: str
    kind: str  # error | symptom | non-pytorch
    label: str | None
    text: str
    # a second family that explains the post as well as the label (METHOD.md says which and why)
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Answer:
    post: Post
    first: str | None  # the first match's id, with its aliases resolved to the label's name
    right: bool


# libyaml's parser where PyYAML was built with it: the set is some 12 MB of YAML, which the pure
# Python one reads in seconds per pass
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def posts(folder: Path = DEVSET, part: str = "dev") -> list[Post]:
    """The development posts (every file but the held-aside ones), or with part set to one of
    HELD_ASIDE the posts of that held-aside file alone."""
    found = []
    for path in sorted(folder.glob("*.yaml")):
        if path.stem != part and (part != "dev" or path.stem in HELD_ASIDE):
            continue
        for item in yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or ():
            also = tuple(item.get("also", ()))
            found.append(
                Post(
                    item["id"],
                    item["url"],
                    item["lang"],
                    item["kind"],
                    item["label"],
                    item["text"],
                    also,
                )
            )
    return found


def answer(post: Post, index: Index) -> Answer:
    best = diagnose(post.text, index).best
    if best is None:
        return Answer(post, None, post.label is None)
    names = {best.entry.id, *best.entry.aliases}
    fitting = [f for f in (post.label, *post.also) if f in names]
    first = fitting[0] if fitting else best.entry.id
    return Answer(post, first, post.kind != "non-pytorch" and bool(fitting))


def share(answers: Iterable[Answer], hit: str) -> tuple[int, int]:
    """(how many, out of how many) of the answers satisfy `hit`."""
    chosen = list(answers)
    tests = {
        "right": lambda a: a.right,
        "answered": lambda a: a.first is not None,
        "wrong": lambda a: a.first is not None and not a.right,
    }
    return sum(map(tests[hit], chosen)), len(chosen)


def report(answers: list[Answer], index: Index) -> dict[str, tuple[int, int]]:
    known = set(index.by_id)
    torch_posts = [a for a in answers if a.post.kind != "non-pytorch"]
    rows = {
        "PyTorch posts, right family first": share(torch_posts, "right"),
        "known families recognised": share(
            [a for a in torch_posts if a.post.label in known], "right"
        ),
        "non-PyTorch errors answered (wrong)": share(
            [a for a in answers if a.post.kind == "non-pytorch"], "answered"
        ),
        "PyTorch posts, wrong family first": share(torch_posts, "wrong"),
    }
    for lang in ("en", "zh"):
        rows[f"  {lang}: PyTorch posts right"] = share(
            [a for a in torch_posts if a.post.lang == lang], "right"
        )
    for kind in ("error", "symptom"):
        rows[f"  {kind}s right"] = share([a for a in torch_posts if a.post.kind == kind], "right")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", action="store_true", help="list the posts answered wrongly")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--set", choices=("dev", *HELD_ASIDE), default="dev", dest="part")
    args = parser.parse_args()
    index = load_index()
    found = posts(part=args.part)
    answers = [answer(p, index) for p in found]
    rows = report(answers, index)
    if args.json:
        print(json.dumps({k.strip(): {"n": n, "of": of} for k, (n, of) in rows.items()}))
    else:
        zh = sum(p.lang == "zh" for p in found)
        kinds = {k: sum(p.kind == k for p in found) for k in ("error", "symptom", "non-pytorch")}
        counts = ", ".join(f"{n} {k}" for k, n in kinds.items())
        print(f"{len(found)} posts: {zh} in Chinese; {counts}")
        for name, (n, of) in rows.items():
            print(f"{name:42} {n:4d} / {of:<4d} {100 * n / of if of else 0:5.1f}%")
    if args.misses:
        for a in answers:
            if not a.right:
                post = a.post
                print(f"{post.id:14} {post.kind:11} label={post.label} first={a.first}  {post.url}")


if __name__ == "__main__":
    main()
