"""`diagnoser lint [PATH ...]`: the arguments, the configuration, the exit code."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_CLEAN, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
FORMATS = ("text", "json", "sarif", "github")


def _codes(text: str) -> list[str]:
    return [c.strip().upper() for c in text.split(",") if c.strip()]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Static checks of PyTorch training code; each finding names the knowledge-base entry "
        "it prevents. Exit 0: nothing found, 1: findings, 2: usage error."
    )
    parser.add_argument(
        "paths", nargs="*", type=Path, help="files, folders and notebooks (default: .)"
    )
    parser.add_argument("--select", type=_codes, help="only these codes or prefixes (TD0,TD013)")
    parser.add_argument("--ignore", type=_codes, help="skip these codes or prefixes")
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format")
    parser.add_argument("--explain", metavar="CODE", help="explain one rule and exit")
    parser.add_argument(
        "--fix",
        action="store_true",
        help="rewrite the files for the mechanical rules "
        "(TD022 TD033 TD034 TD035 TD052 TD053 TD054 TD055), then report what is left",
    )
    parser.add_argument(
        "--diff", action="store_true", help="print the --fix rewrites as a diff; change nothing"
    )


def run(args: argparse.Namespace) -> int:
    from ..speak.i18n import default_lang
    from . import RULES, lint_paths, select_rules
    from .config import ConfigError, load_config
    from .engine import unknown_codes

    lang = args.lang or default_lang()
    if args.explain:
        rule = RULES.get(args.explain.strip().upper())
        if rule is None:
            return _usage(f"no rule {args.explain!r}; codes run from TD001 to {max(RULES)}")
        from .docs import explain

        sys.stdout.write(explain(rule, lang, args.kb))
        return EXIT_CLEAN
    try:
        config = load_config(Path.cwd())
    except ConfigError as e:
        return _usage(f"invalid configuration: {e}")
    select = args.select if args.select is not None else config.select
    ignore = args.ignore if args.ignore is not None else config.ignore
    bad = unknown_codes([*select, *ignore])
    if bad:
        return _usage(f"unknown rule code {', '.join(bad)}; `diagnoser lint --explain TD001`")
    paths = args.paths or [Path(".")]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        return _usage(f"no such file or directory: {', '.join(missing)}")
    rules = select_rules(select, ignore)
    if args.fix or args.diff:
        from .fix import fix_paths

        changed = fix_paths(paths, rules, config.exclude, write=not args.diff)
        if args.diff:
            return EXIT_FOUND if changed else EXIT_CLEAN
    findings = lint_paths(paths, rules, lang, config.exclude)
    from . import output

    if args.format == "json":
        text = output.to_json(findings)
    elif args.format == "sarif":
        text = output.to_sarif(findings, lang)
    elif args.format == "github":
        text = output.to_github(findings)
    else:
        text = output.to_text(findings)
    sys.stdout.write(text)
    if findings and args.format == "text":
        n = len(findings)
        print(f"发现 {n} 处问题。" if lang == "zh" else f"Found {n} problem{'s' * (n != 1)}.",
              file=sys.stderr)  # fmt: skip
    return EXIT_FOUND if findings else EXIT_CLEAN


def _usage(message: str) -> int:
    print(f"diagnoser lint: {message}", file=sys.stderr)
    return EXIT_USAGE
