"""`diagnoser triage PATH...`: the command-line face of triage."""

from __future__ import annotations

import os
import re
import sys

from ..speak.i18n import default_lang
from ..speak.optional import MissingOptional, install_hint
from .inputs import InputError, check_decompressors, expand

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

EXIT_FOUND, EXIT_NOTHING, EXIT_USAGE, EXIT_BAD_KB = 0, 1, 2, 3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`diagnoser triage`'s own arguments (cli.py adds --lang and --kb to every command)."""
    parser.description = (
        "Read every byte of many logs (files, folders, globs, .gz, .zst), group the errors and "
        "symptoms they hold, and say which failure came first across ranks. Exit codes: 0 "
        "something was found, 1 nothing was, 2 bad usage or no input."
    )
    parser.add_argument("paths", nargs="+", help="files, folders (read recursively) or globs")
    fmt = parser.add_mutually_exclusive_group()
    fmt.add_argument(
        "--json", dest="format", action="store_const", const="json", help="JSON for tools"
    )
    fmt.add_argument("--format", choices=("text", "json", "markdown", "html"), default="text")
    parser.add_argument(
        "-j", "--jobs", type=int, default=1, help="files read in parallel (default: 1)"
    )
    parser.add_argument(
        "--engine",
        choices=("local", "spark"),
        default="local",
        help="spark reads PATH-OR-URL globs (s3a://, hdfs://) on a Spark cluster; it needs "
        f"pyspark: {install_hint('pyspark', 'spark')}",
    )
    parser.add_argument("--no-color", action="store_true", help="never colour the output")


def run(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        print("diagnoser triage: -j needs a number of 1 or more", file=sys.stderr)
        return EXIT_USAGE
    from ..knowledge.index import load_index

    try:
        index = load_index(args.kb)
    except Exception as e:  # schema.KBError, matched by name: schema imports pydantic
        if type(e).__name__ != "KBError":
            raise
        print(f"diagnoser: invalid knowledge base: {e}", file=sys.stderr)  # as every command
        return EXIT_BAD_KB
    lang = args.lang or default_lang()
    if args.engine == "spark":
        from .spark import triage_spark

        try:
            report = triage_spark(args.paths, index, kb=args.kb)
        except MissingOptional as e:
            print(e.line(lang, feature="diagnoser triage --engine spark"), file=sys.stderr)
            return EXIT_USAGE
        except Exception as e:  # Py4J / Spark errors (no such path, no Java): one line, no trace
            print(f"diagnoser triage: spark: {_spark_reason(e)}", file=sys.stderr)
            return EXIT_USAGE
    else:
        from . import local
        from .progress import progress_for

        unread: list[str] = []
        try:
            paths = expand(args.paths, unread)
        except InputError as e:
            print(f"diagnoser triage: {e}", file=sys.stderr)
            return EXIT_USAGE
        try:
            check_decompressors(paths)
        except MissingOptional as e:
            feature = (
                "diagnoser triage：读取 .zst 文件"
                if lang == "zh"
                else "diagnoser triage: reading .zst files"
            )
            print(e.line(lang, feature=feature), file=sys.stderr)
            return EXIT_USAGE
        bar = progress_for(sum(local.file_size(p) for p in paths))
        try:
            report = local.run(paths, index, args.jobs, args.kb, bar)
        finally:
            if bar:
                bar.close()
        report.problems[:0] = unread
    for problem in report.problems:
        print(f"diagnoser triage: cannot read to the end: {problem}", file=sys.stderr)
    sys.stdout.write(_render(report, index, args.format, lang, args.no_color))
    sys.stdout.flush()
    return EXIT_FOUND if report.groups else EXIT_NOTHING


def _render(report: object, index: object, fmt: str, lang: str, no_color: bool) -> str:
    from . import output

    if fmt == "json":
        return output.to_json(report, index, lang) + "\n"  # type: ignore[arg-type]
    if fmt == "markdown":
        return output.to_markdown(report, index, lang)  # type: ignore[arg-type]
    if fmt == "html":
        return output.to_html(report, index, lang)  # type: ignore[arg-type]
    from ..speak.wrap import terminal_width

    colour = not no_color and "NO_COLOR" not in os.environ and sys.stdout.isatty()
    return output.to_text(report, index, lang, colour, terminal_width(sys.stdout))  # type: ignore[arg-type]


def _spark_reason(e: Exception) -> str:
    """The Java exception's own line ("InvalidInputException: Input Pattern ... matches 0
    files") rather than Py4J's "An error occurred while calling ..."."""
    lines = [line.strip().lstrip(": ") for line in str(e).splitlines() if line.strip()]
    for line in lines[1:]:
        if re.match(r"[\w.$]+(?:Exception|Error): ", line):
            return line
    return f"{type(e).__name__}: {lines[0] if lines else ''}"
