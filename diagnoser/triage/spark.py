"""The Spark engine: the local engine's scan and grouping, run by Spark tasks, one per file.

Spark lists and reads the files (any URL its Hadoop file systems know: `s3a://bucket/jobs/*/`,
`hdfs:///logs/**`, `file:/...`); each task hands one file's bytes to `scan_binary`, the function
the local engine runs, and the driver combines the per-file results with the same `report()`. No
grouping logic lives here.

    from pyspark.sql import SparkSession
    from diagnoser.triage.spark import groups_dataframe

    spark = SparkSession.builder.getOrCreate()
    groups_dataframe(spark, "s3a://my-bucket/job-1234/**/*.log.gz").show(truncate=False)

Each file is read whole into one task's memory (Spark's `binaryFiles`): fine for per-rank logs,
not for one file larger than a task's memory (use the local engine for that).
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import Any

from ..knowledge.index import Index, load_index
from ..speak.optional import requires
from .grouping import FileResult, Report, report, scan_binary
from .inputs import decompressed, display_name, utf8
from .origin import rank_from_path

# One row per group, in order of first occurrence (`order`); `role` is "first_failure",
# "follower" or null.
SCHEMA = (
    "order INT, id STRING, kind STRING, role STRING, count LONG, ranks ARRAY<STRING>, "
    "files ARRAY<STRING>, first_file STRING, first_line LONG, first_time TIMESTAMP, "
    "first_rank STRING, message STRING"
)


def _local_name(url: str) -> str:
    """`file:/tmp/x.log` as the local engine names it (display_name); other URLs unchanged."""
    return display_name(url[len("file:") :]) if url.startswith("file:") else url


def _scan(item: tuple[str, bytes], kb: str | None) -> FileResult:
    url, content = item
    index = _index(kb)
    name = _local_name(url)
    # as the local engine reads a file: decompressed, UTF-16 as text, a damaged one reported
    # (scan_binary keeps what was read and says why the rest was not), never failing the job
    stream = utf8(decompressed(io.BytesIO(content), url))
    return scan_binary(stream, name, rank_from_path(name), index)


_indexes: dict[str | None, Index] = {}


def _index(kb: str | None) -> Index:
    """The knowledge base, loaded once per executor process."""
    if kb not in _indexes:
        _indexes[kb] = load_index(Path(kb) if kb else None)
    return _indexes[kb]


def triage_spark(
    paths: list[str], index: Index, kb: Path | None = None, spark: Any = None
) -> Report:
    """What `diagnoser triage --engine spark` prints: the local engine's Report, read by Spark."""
    if spark is None:
        with requires("pyspark.sql", extra="spark", feature="diagnoser.triage.spark"):
            from pyspark.sql import SparkSession

        # a local session's workers run this interpreter, which has diagnoser installed
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

        spark = SparkSession.builder.appName("diagnoser-triage").getOrCreate()
    kb_arg = str(kb) if kb else None
    rdd = spark.sparkContext.binaryFiles(",".join(paths))
    results: list[FileResult] = rdd.map(lambda item: _scan(item, kb_arg)).collect()
    return report(sorted(results, key=lambda r: r.file))


def groups_dataframe(spark: Any, paths: str | list[str], kb: Path | None = None) -> Any:
    """A Spark DataFrame of the groups in the files `paths` names (globs and URLs as Spark reads
    them), one row per group in order of first occurrence (SCHEMA), the first failure's row with
    role "first_failure"."""
    kb_arg = str(kb) if kb else None
    found = triage_spark([paths] if isinstance(paths, str) else paths, _index(kb_arg), kb, spark)
    rows = []
    for n, g in enumerate(found.groups):
        rows.append(
            (
                n,
                g.id,
                g.kind,
                found.role(g),
                g.count,
                [str(r) for r in g.ranks],
                list(g.files),
                g.first.file,
                g.first.line,
                g.first.time,
                None if g.first.rank is None else str(g.first.rank),
                g.message,
            )
        )
    return spark.createDataFrame(rows, SCHEMA)
