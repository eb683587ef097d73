"""Both checks run by Apache Spark (``--engine spark``), in local mode or on a cluster.

Spark reads the files and computes the sets; Python, on the driver, sorts the few
lists that fail and writes every output line, so the output bytes equal the Python
route's. Exactness is the point: strings are compared as bytes (Spark's
``UTF8_BINARY``, never a collation; column names are case-sensitive), and every
list is sorted by UTF-16 code units (:func:`helpers.core.ordering.sorted_ids`), not
by Spark's code-point order, which differs when a character above U+FFFF meets one
in U+E000–U+FFFF.

Spark only judges what it can vouch for; everything else goes to the Python route:

* **Target scope, JSON Lines.** A line is judged in Spark only when it is valid
  UTF-8 and Spark's own JSON writer, given the parsed fields in the line's key
  order, writes it back byte for byte (compact, each key once, only the record's
  fields, lists of non-empty, non-null strings, ``id``/``query``/``rewritten_query``
  strings). Any other line, blank, malformed or just spaced, is sent as raw bytes
  to the driver and read and checked there by the Python route, which names the
  line and the field. A file Spark would decompress (``.gz`` and the like) is left
  to the Python route whole.
* **Sentinels, Parquet keys.** As :mod:`helpers.team.duckdb_engine`: a column type
  other than a string or an integer, a null, an empty ID, a duplicate, invalid
  UTF-8, an empty baseline or a file Spark cannot read returns ``None``, and the
  caller runs the Python route, which names the row.

One ``SparkSession`` is started per process and master (start-up takes seconds)
and reused. Spark's own output (the JVM's log and progress bars) goes to an
unnamed temporary file, so a terminal shows only the check's output; a Spark that
cannot start is one line naming the cause. ``pyspark`` is imported only inside
these functions. Taught in ``05_check_your_data.ipynb`` ("When your files outgrow this machine").
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

from helpers.core.error_root import HelpersError
from helpers.core.ordering import sorted_ids
from helpers.core.outcomes import EXIT_PASS, code_for
from helpers.core.sentinels import SentinelResult
from helpers.core.target_scope import NeedsStaffLabels, TargetScopeResult
from helpers.team.answer_keys import AnswerKey
from helpers.team.batch import PRESERVED_LINE, BatchSummary, KeyCheck, check_blocks, output_line

__all__ = [
    "SPARK_EXTRA",
    "DEFAULT_MASTER",
    "SparkUnavailable",
    "spark_missing",
    "spark_session",
    "check_parquet_keys",
    "check_scope_file",
]

#: The extra that installs pyspark.
SPARK_EXTRA = "spark"

#: ``--spark-master``'s default: Spark in this process's machine, on two cores.
DEFAULT_MASTER = "local[2]"

#: Spark column types the Python key reader accepts: strings, and integers (never booleans).
_KEY_TYPES = frozenset({"string", "tinyint", "smallint", "int", "bigint"})

#: Names Spark (Hadoop) decompresses as it reads; the Python route reads the bytes as they are.
_COMPRESSED = re.compile(r"\.(gz|bz2|deflate|lz4|snappy|zst|xz|br)$", re.IGNORECASE)

#: The fields of a target-scope record Spark judges: lists of IDs, and carried strings.
_LIST_FIELDS = ("original", "rewritten", "unresolved")
_TEXT_FIELDS = ("id", "query", "rewritten_query")


class SparkUnavailable(HelpersError, RuntimeError):
    """Spark could not start or run; the message is one line naming what to install or fix."""


def spark_missing() -> str | None:
    """A one-line reason when pyspark or Java is missing, else ``None``."""
    import importlib.util

    if importlib.util.find_spec("pyspark") is None:
        return f"--engine spark needs pyspark: pip install 'eval-integrity-helpers[{SPARK_EXTRA}]'"
    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    if not java or not os.access(java, os.X_OK):
        return "--engine spark needs Java 17 or newer: apt-get install openjdk-17-jre-headless (or set JAVA_HOME)"
    return None


_SESSIONS: dict[str, Any] = {}
_LOGS: list[IO[bytes]] = []


def spark_session(master: str = DEFAULT_MASTER) -> Any:
    """The process's :class:`pyspark.sql.SparkSession` on ``master``, started on first use.

    Raises :class:`SparkUnavailable` with one line when pyspark or Java is missing or
    the JVM does not start. Taught in ``05_check_your_data.ipynb``.
    """
    session = _SESSIONS.get(master)
    if session is not None:
        return session
    if (missing := spark_missing()) is not None:
        raise SparkUnavailable(missing)
    import tempfile

    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway
    from pyspark.sql import SparkSession

    if _SESSIONS:  # one SparkContext per process: a new master replaces the old one
        for old in _SESSIONS.values():
            old.stop()
        _SESSIONS.clear()
    conf = (
        SparkConf()
        .setMaster(master)
        .setAppName("eval-integrity-helpers")
        .set("spark.ui.enabled", "false")
        .set("spark.ui.showConsoleProgress", "false")
        .set("spark.sql.caseSensitive", "true")
        .set("spark.sql.session.timeZone", "UTC")
    )
    log = tempfile.TemporaryFile()  # noqa: SIM115 - the JVM writes here for the whole session
    try:
        # A JVM already started in this process (a session stopped above) is reused.
        gateway = SparkContext._gateway or launch_gateway(conf, popen_kwargs={"stdout": log, "stderr": log})
        context = SparkContext(conf=conf, gateway=gateway)
    except Exception as exc:
        log.seek(0)
        said = [line for line in log.read().decode("utf-8", "replace").splitlines() if line.strip()]
        reason = said[-1].strip() if said else f"{type(exc).__name__}: {exc}".splitlines()[0]
        log.close()
        raise SparkUnavailable(f"Spark did not start on {master}: {reason}") from None
    context.setLogLevel("ERROR")
    session = SparkSession(context)
    _LOGS.append(log)  # kept open while the JVM may write to it
    _SESSIONS[master] = session
    return session


def _local_path(path: str) -> str:
    """A local path as a ``file:`` path Spark reads literally (its glob characters escaped)."""
    absolute = os.path.abspath(path)
    return "file://" + re.sub(r"([\\*?\[\]{}])", r"\\\1", absolute)


# --- the sentinel check over two Parquet keys --------------------------------------------------


def _key_frame(spark: Any, path: str, id_columns: Sequence[str], answer: str) -> tuple[Any, int] | None:
    """A frame of (k1[, k2], a) as strings and its row count, or ``None`` if Python must judge."""
    from pyspark.sql import functions as F

    frame = spark.read.parquet(_local_path(path))
    types = dict(frame.dtypes)
    wanted = [*id_columns, answer]
    if len(set(wanted)) != len(wanted) or any(types.get(c) not in _KEY_TYPES for c in wanted):
        return None
    names = [f"k{i}" for i in range(1, len(id_columns) + 1)]
    frame = frame.select(
        *(F.col(c).cast("string").alias(n) for c, n in zip(id_columns, names, strict=True)),
        F.col(answer).cast("string").alias("a"),
    )
    bad = F.lit(False)
    for n in names:
        bad = bad | F.col(n).isNull() | (F.col(n) == "") | ~F.expr(f"is_valid_utf8({n})")
    bad = bad | F.col("a").isNull() | ~F.expr("is_valid_utf8(a)")
    row = frame.agg(F.count(F.lit(1)), F.count(F.when(bad, 1))).first()
    count, refused = int(row[0]), int(row[1])
    if refused:
        return None
    if frame.groupBy(*names).count().where("count > 1").limit(1).count():
        return None
    return frame, count


def check_parquet_keys(
    baseline: str,
    proposed: str,
    *,
    id_columns: Sequence[str],
    answer_column: str,
    master: str = DEFAULT_MASTER,
) -> KeyCheck | None:
    """The sentinel check of two Parquet keys in Spark, or ``None`` when the Python route must judge.

    The same signature and result as :func:`helpers.team.duckdb_engine.check_parquet_keys`,
    with ``master`` instead of ``threads``. Taught in ``05_check_your_data.ipynb``.
    """
    spark = spark_session(master)
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    from helpers.team.key_formats import pair_id

    try:
        sides = [_key_frame(spark, path, id_columns, answer_column) for path in (baseline, proposed)]
        if sides[0] is None or sides[1] is None or sides[0][1] == 0:
            return None
        (b, b_count), (p, p_count) = sides[0], sides[1]
        names = [f"k{i}" for i in range(1, len(id_columns) + 1)]
        missing_rows = b.join(p, names, "left_anti").select(*names).collect()
        changed_rows = (
            b.alias("b")
            .join(p.alias("p"), names, "inner")
            .where("b.a <> p.a")
            .select(*names, "b.a", "p.a")
            .collect()
        )
        common = b.join(p, names, "left_semi").count()
    except (PySparkException, Py4JError):
        return None
    width = len(id_columns)

    def ident(row: Sequence[str]) -> str:
        return row[0] if width == 1 else pair_id(row[0], row[1])

    answers = {ident(row): (row[width], row[width + 1]) for row in changed_rows}
    result = SentinelResult(
        missing=tuple(sorted_ids(ident(row) for row in missing_rows)), changed=tuple(sorted_ids(answers))
    )
    return KeyCheck(
        AnswerKey(source=baseline, format="parquet"),
        AnswerKey(source=proposed, format="parquet"),
        result,
        [],
        width == 2,
        sizes=(b_count, p_count, p_count - int(common)),
        changed_answers=answers,
    )


# --- the target-scope check over JSON Lines ----------------------------------------------------


def _json_string(column: str) -> str:
    """SQL writing the string column as Spark's JSON writer writes a string."""
    written = f"to_json(array({column}))"
    return f"substr({written}, 2, length({written}) - 2)"


def _judged_rows(spark: Any, path: str, carry: bool) -> tuple[Any, Any]:
    """(rows in need of the driver, per-block counts): Spark's part of the target-scope check."""
    from pyspark.sql import functions as F

    schema = ", ".join(
        [*(f"{n} array<string>" for n in _LIST_FIELDS), *(f"{n} string" for n in _TEXT_FIELDS)]
    )
    text = spark.read.option("lineSep", "\n").text(_local_path(path))
    lines = text.select(
        F.col("value"),
        F.expr("input_file_block_start()").alias("bs"),
        F.spark_partition_id().alias("pid"),
        F.monotonically_increasing_id().alias("mid"),
    )
    blocks = lines.groupBy("bs", "pid").agg(F.count(F.lit(1)).alias("n"), F.min("mid").alias("first"))
    parts = " ".join(
        [f"WHEN '{n}' THEN to_json(j.{n})" for n in _LIST_FIELDS]
        + [f"WHEN '{n}' THEN {_json_string('j.' + n)}" for n in _TEXT_FIELDS]
    )
    allowed = ", ".join(f"'{n}'" for n in (*_LIST_FIELDS, *_TEXT_FIELDS))
    bad_item = "x -> x IS NULL OR x = ''"
    judged = (
        lines.withColumn("ok", F.expr("is_valid_utf8(value)"))
        .withColumn("keys", F.expr("CASE WHEN ok THEN json_object_keys(value) END"))
        .withColumn("j", F.expr(f"CASE WHEN ok THEN from_json(value, '{schema}') END"))
        .withColumn(
            "canonical",
            F.expr(
                "coalesce(ok AND size(keys) = size(array_distinct(keys))"
                f" AND forall(keys, k -> k IN ({allowed}))"
                " AND array_contains(keys, 'original') AND array_contains(keys, 'rewritten')"
                f" AND NOT exists(j.original, {bad_item}) AND NOT exists(j.rewritten, {bad_item})"
                f" AND NOT coalesce(exists(j.unresolved, {bad_item}), false)"
                " AND concat('{', array_join(transform(keys, k -> concat('\"', k, '\":',"
                f" CASE k {parts} END)), ','), '}}') = value, false)"
            ),
        )
        .withColumn("held", F.expr("canonical AND coalesce(size(j.unresolved), 0) > 0"))
        .withColumn("missing", F.expr("array_except(j.original, j.rewritten)"))
        .withColumn("added", F.expr("array_except(j.rewritten, j.original)"))
        .withColumn(
            "kind",
            F.expr(
                "CASE WHEN NOT canonical THEN 'f' WHEN held THEN 'h'"
                " WHEN size(missing) > 0 OR size(added) > 0 THEN 'c' ELSE 'p' END"
            ),
        )
    )
    if not carry:
        judged = judged.where("kind <> 'p'")
    rows = judged.select(
        "bs",
        "pid",
        "mid",
        "kind",
        F.expr("CASE WHEN kind = 'f' THEN CAST(value AS BINARY) END").alias("raw"),
        F.expr("CASE WHEN kind = 'h' THEN array_distinct(j.unresolved) END").alias("unresolved"),
        F.expr("CASE WHEN kind = 'c' THEN missing END").alias("missing"),
        F.expr("CASE WHEN kind = 'c' THEN added END").alias("added"),
        F.expr("CASE WHEN kind <> 'f' THEN array_contains(keys, 'id') END").alias("has_id"),
        F.expr("j.id").alias("id"),
        F.expr("CASE WHEN kind <> 'f' THEN array_contains(keys, 'query') END").alias("has_query"),
        F.expr("j.query").alias("query"),
    ).orderBy("bs", "mid")
    return rows, blocks


def _line_numbers(blocks: list[Any]) -> tuple[Callable[[Any], int], int]:
    """A row's line number from its (block start, partition, id): blocks in file order, rows in order."""
    base: dict[tuple[int, int], tuple[int, int]] = {}
    before = 0
    for block in sorted(blocks, key=lambda b: (b["bs"], b["first"])):
        base[(block["bs"], block["pid"])] = (before, block["first"])
        before += block["n"]

    def number(row: Any) -> int:
        start, first = base[(row["bs"], row["pid"])]
        return start + (row["mid"] - first) + 1

    return number, before


def check_scope_file(
    path: str,
    summary: BatchSummary,
    *,
    format: str = "jsonl",
    write: Callable[[bytes], Any] | None = None,
    carry: bool = False,
    bad_lines: IO[str] | None = None,
    master: str = DEFAULT_MASTER,
) -> BatchSummary | None:
    """Check a target-scope JSON Lines file in Spark into ``summary``; ``None`` for the Python route.

    Writes (to ``write``) and counts exactly what :func:`helpers.team.batch.check_records`
    would for the same file: lines Spark cannot vouch for are read and checked here by
    the Python route. Parquet and CSV rewrites, and files Spark would decompress,
    return ``None`` unread. Taught in ``05_check_your_data.ipynb``.
    """
    if format != "jsonl" or _COMPRESSED.search(path):
        return None
    spark = spark_session(master)
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    try:
        rows, blocks = _judged_rows(spark, path, carry)
        number, total = _line_numbers(blocks.collect())
        _merge(rows.toLocalIterator(prefetchPartitions=True), number, total, summary, write, carry, bad_lines)
    except (PySparkException, Py4JError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SparkUnavailable(f"Spark could not check {path}: {first}") from None
    return summary


def _merge(
    rows: Iterator[Any],
    number: Callable[[Any], int],
    total: int,
    summary: BatchSummary,
    write: Callable[[bytes], Any] | None,
    carry: bool,
    bad_lines: IO[str] | None,
) -> None:
    """Write and count all ``total`` records in order: Spark's verdicts, the passes between them
    (Spark sends no preserved rewrite unless ``carry``), and the lines the Python route reads."""
    parts: list[bytes] = []
    passes = 0
    expected = 1  # the next line not yet written
    fallback: list[bytes] = []
    fallback_first = 0

    def flush_parts() -> None:
        if write is not None and parts:
            write(b"".join(parts))
        parts.clear()

    def flush_fallback() -> None:
        if fallback:
            flush_parts()
            check_blocks(
                [fallback], summary, write=write, carry=carry, bad_lines=bad_lines, first_line=fallback_first
            )
            fallback.clear()

    def preserved(gap: int) -> None:
        nonlocal passes
        if gap > 0:
            flush_fallback()
            passes += gap
            if write is not None:
                parts.append(PRESERVED_LINE * gap)

    for row in rows:
        line = number(row)
        preserved(line - expected)
        expected = line + 1
        kind = row["kind"]
        if kind == "f":
            if not fallback:
                fallback_first = line
            fallback.append(bytes(row["raw"]))
            continue
        flush_fallback()
        if kind == "h":
            result: Any = NeedsStaffLabels(unresolved=tuple(sorted_ids(row["unresolved"])))
        elif kind == "c":
            result = TargetScopeResult(
                missing=tuple(sorted_ids(row["missing"])), added=tuple(sorted_ids(row["added"]))
            )
        else:
            result = TargetScopeResult(missing=(), added=())
        record: dict[str, Any] = {}
        if row["has_id"]:
            record["id"] = row["id"]
        if row["has_query"]:
            record["query"] = row["query"]
        outcome = (line, code_for(result), result, None, record)
        if write is not None:
            parts.append(output_line(outcome, carry=carry))
            if len(parts) >= 4096:
                flush_parts()
        if outcome[1] == EXIT_PASS:
            passes += 1
        else:
            summary.add(outcome)
    preserved(total + 1 - expected)
    flush_fallback()
    flush_parts()
    summary.add_passes(passes)
