"""Who printed a line and when: ranks from prefixes, file names and torchrun's report; timestamps
in the formats training logs use."""

from __future__ import annotations

import os
import re

from ..knowledge.regex_cache import compile_cached
from ..text.cleanup import RANK_PREFIX

TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime

# A rank is a global rank number, or a label such as "node2/worker5" when only that is known.
Rank = int | str

_FILE_RANK = compile_cached(r"(?:rank|default|proc|process|worker|gpu|local_rank)[-_.]?(\d+)", re.I)
_NODE = compile_cached(r"(?:node|host)[-_.]?(\d+)", re.I)
_TIMES = [
    # ISO 8601, logging's asctime, torchrun's `time : 2026-11-24_10:01:02`
    (
        compile_cached(
            r"(?P<date>\d{4}-\d{2}-\d{2})[ T_](?P<time>\d{2}:\d{2}:\d{2})(?:[.,](?P<frac>\d{1,6}))?"
            r"(?P<tz>Z|[+-]\d{2}:?\d{2})?"
        ),
        "iso",
    ),
    # glog, as torch's C++ side logs: `W1124 10:01:02.123456 1234 file.cpp:12]` (no year printed)
    (
        compile_cached(
            r"(?:^|\]:? ?)[IWEF](?P<month>\d{2})(?P<day>\d{2}) "
            r"(?P<time>\d{2}:\d{2}:\d{2})(?:\.(?P<frac>\d{1,6}))?"
        ),
        "glog",
    ),
]
_ROOT_CAUSE = compile_cached(r"Root Cause \(first observed failure\):")
# The value up to its last non-blank; blanks are read by one quantifier at a time (`\s*X?\s*` and
# `.+?\s*$` rescan a run of blanks: quadratic on a long line)
_REPORT_FIELD = compile_cached(
    r"^\s*(?:\[[\w,]+\]:\s*)?(?P<key>time|rank|host)\s*:\s*(?P<value>.(?:.*\S)?)\s*$"
)


def rank_from_path(path: str) -> Rank | None:
    """`rank3.log` → 3, `logs/default1.txt` → 1, `node2/worker5.out` → "node2/worker5", torchrun's
    `--log-dir` layout `attempt_0/3/stderr.log` → 3."""
    name = os.path.basename(path)
    parent = os.path.basename(os.path.dirname(path))
    m = _FILE_RANK.search(name) or _FILE_RANK.search(parent)
    node = _NODE.search(parent) or _NODE.search(name)
    if m and node:  # a local rank on a node: the global rank is not printed, the label says it
        return f"node{int(node.group(1))}/{m.group(0)}"
    if m:
        return int(m.group(1))
    if parent.isdigit() and os.path.basename(os.path.dirname(os.path.dirname(path))).startswith(
        "attempt_"
    ):
        return int(parent)
    return None


def rank_prefix(line: str) -> tuple[Rank | None, int]:
    """The rank a per-process prefix names (`[rank3]:`, `[default3]:`, horovod's `[1,0]<stderr>:`)
    and where the rest of the line starts."""
    tag = RANK_PREFIX.match(line)
    if not tag:
        return None, 0
    who = tag.group("who") or tag.group("who2") or tag.group("who3")
    digits = re.match(r"\D*(\d+)", who)
    return (int(digits.group(1)) if digits else who), tag.end()


def by_rank(lines: list[str], default: Rank | None = None) -> dict[Rank | None, list[int]]:
    """Which lines each process printed (by index), their prefixes cut off in place: interleaved
    output from several ranks read as one block per rank. Unprefixed lines belong to `default`."""
    out: dict[Rank | None, list[int]] = {}
    for i, line in enumerate(lines):
        rank, cut = rank_prefix(line)
        while cut:  # torchrun --tee nests them: `[default1]:[rank1]: Traceback ...`
            line = line[cut:]
            _, cut = rank_prefix(line)
        lines[i] = line
        out.setdefault(default if rank is None else rank, []).append(i)
    return out


def timestamp(line: str, year: int | None = None) -> datetime | None:
    """The time a log line was printed, naive UTC; None when it carries none."""
    # imported here: `diagnoser FILE` reads logs with this module, and reads no times
    from datetime import datetime, timezone

    for pattern, kind in _TIMES:
        m = pattern.search(line[:200])
        if not m:
            continue
        frac = (m.group("frac") or "0").ljust(6, "0")
        try:
            if kind == "iso":
                at = datetime.fromisoformat(f"{m.group('date')}T{m.group('time')}.{frac}")
                tz = m.group("tz")
                if tz:
                    offset = datetime.strptime(tz.replace("Z", "+0000").replace(":", ""), "%z")
                    at = (at.replace(tzinfo=offset.tzinfo)).astimezone(timezone.utc)
                    at = at.replace(tzinfo=None)
                return at
            # glog prints no year: the current one (runs are triaged soon after they fail)
            return datetime.fromisoformat(
                f"{year or datetime.now(timezone.utc).year}-{m.group('month')}-{m.group('day')}"
                f"T{m.group('time')}.{frac}"
            )
        except ValueError:  # 2026-13-45: looks like a time, is none
            continue
    return None


def root_cause(lines: list[str]) -> tuple[Rank | None, datetime | None]:
    """torchrun's "Root Cause (first observed failure)" block: the rank that failed first, when."""
    for i, line in enumerate(lines):
        if not _ROOT_CAUSE.search(line):
            continue
        rank: Rank | None = None
        at: datetime | None = None
        for field in lines[i + 1 : i + 12]:
            m = _REPORT_FIELD.match(field)
            if not m:
                continue
            if m.group("key") == "rank":
                digits = re.match(r"\d+", m.group("value"))
                rank = int(digits.group(0)) if digits else rank
            elif m.group("key") == "time":
                at = timestamp(m.group("value"))
        return rank, at
    return None, None
