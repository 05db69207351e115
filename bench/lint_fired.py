"""How often each lint rule fires on real repositories, for the rule catalogue pages: writes
diagnoser/lint/fired.json (docs.write_rule_pages shows it on each rule's page and the index).

Each argument is NAME=PATH (or PATH, named by its folder): a folder of sources, or a git
repository (bare or not), whose .py files are read at HEAD and whose commit is recorded. Only the
.py files are linted; syntax errors and unreadable files are not rule findings and are not counted.

Usage: python bench/lint_fired.py [--out FILE] [--print] NAME=PATH ...
Measured: karpathy/nanoGPT, lucidrains/vit-pytorch, lucidrains/denoising-diffusion-pytorch,
facebookresearch/DiT, bubbliiiing/yolov4-pytorch, L1aoXingyu/pytorch-beginner,
sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning and pytorch/examples (shared/corpora).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "diagnoser" / "lint" / "fired.json"


def _git(path: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(
        ["git", f"--git-dir={path}", *args], input=data, capture_output=True, check=True
    ).stdout


def _git_dir(path: Path) -> Path | None:
    if (path / ".git").exists():
        return path / ".git"
    if (path / "HEAD").is_file() and (path / "objects").is_dir():
        return path  # bare
    return None


def sources(path: Path) -> tuple[str | None, list[tuple[str, str]]]:
    """(commit or None, [(name, source)]) of the .py files under path."""
    from diagnoser.lint.engine import _decode, iter_files

    git = _git_dir(path)
    if git is None:
        out = []
        for f in iter_files([path]):
            if f.suffix == ".py":
                try:
                    out.append((str(f.relative_to(path)), _decode(f.read_bytes())))
                except (OSError, SyntaxError, UnicodeDecodeError):
                    continue
        return None, out
    commit = _git(git, "rev-parse", "HEAD").decode().strip()
    names = [
        n
        for n in _git(git, "ls-tree", "-r", "-z", "--name-only", "HEAD").decode().split("\0")
        if n.endswith(".py")
    ]
    # one cat-file for every blob; blobs a partial mirror lacks come back "missing" and are skipped
    batch = _git(git, "cat-file", "--batch", data="".join(f"HEAD:{n}\n" for n in names).encode())
    out, pos = [], 0
    for name in names:
        end = batch.index(b"\n", pos)
        header = batch[pos:end].split()
        pos = end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        with contextlib.suppress(SyntaxError, UnicodeDecodeError):
            out.append((name, _decode(batch[pos : pos + size])))
        pos += size + 1
    return commit, out


def measure(repos: list[tuple[str, Path]]) -> dict[str, object]:
    from diagnoser.lint.engine import lint_source
    from diagnoser.lint.rule import RULES

    rules = list(RULES.values())
    fired: Counter[str] = Counter()
    listed = []
    for name, path in repos:
        commit, files = sources(path)
        lines = 0
        for file, source in files:
            lines += len(source.splitlines())
            fired.update(f.code for f in lint_source(source, file, rules) if f.code in RULES)
        listed.append({"name": name, "commit": commit, "files": len(files), "lines": lines})
    return {
        "generated_by": "bench/lint_fired.py (do not edit by hand)",
        "repositories": listed,
        "lines": sum(int(str(r["lines"])) for r in listed),
        "fired": {code: fired[code] for code in sorted(RULES)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("repos", nargs="+", help="NAME=PATH or PATH")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--print", action="store_true", help="print, write nothing")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    repos = []
    for arg in args.repos:
        name, _, path = arg.rpartition("=")
        repos.append((name or Path(path).name, Path(path)))
    data = measure(repos)
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if args.print:
        print(text, end="")
    else:
        args.out.write_text(text, encoding="utf-8")
    fired = {k: v for k, v in data["fired"].items() if v}  # type: ignore[attr-defined]
    print(f"{data['lines']:,} lines, {sum(fired.values())} findings: {fired}", file=sys.stderr)


if __name__ == "__main__":
    main()
