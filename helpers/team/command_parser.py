"""The check commands' argparse definitions: ``target-scope`` and ``sentinels`` with their data-file
options (validated into a :class:`_DataOptions`), ``rebaseline``, ``export-csv`` and
``export-example``. :mod:`helpers.cli.run` adds them to the tree :mod:`helpers.core.arguments` roots,
and :mod:`helpers.team.commands` runs them. Taught in ``05_check_your_data.ipynb``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from helpers.core.arguments import _EPILOG
from helpers.core.checks import CHECKS

if TYPE_CHECKING:
    import argparse


_DATA_EPILOG = """\
real data files (taught in notebooks/05_check_your_data.ipynb)
  target-scope --format csv   CSV with a header row: id, original, rewritten
                              (required) and query, unresolved (optional); any
                              other column is an error. A list cell is a JSON
                              array, e.g. ["induction","refresher"]; with
                              --list-separator ';' it is induction;refresher
                              instead (an empty cell is an empty list). id must
                              not be empty. Lines are numbered from the header (1).
  sentinels --baseline FILE --proposed FILE
                              compare two answer keys. Each is a JSON object
                              {"S1":"R",...} (.json) or JSON Lines of
                              {"id":"S1","answer":"R"} (.jsonl or .ndjson); the
                              name sets the format unless --key-format is given.
                              An ID given twice is an error naming the ID and
                              both lines. Output: one line, the seeds' object
                              {"missing":[...],"changed":[...],"intact":...};
                              or, when a key has problems, one line per problem
                              {"source":FILE,"line":N|null,"field":...,"error":...}
                              and exit status 4, without running the check.
  target-scope --format parquet
                              a Parquet table whose columns are a record's
                              fields: original, rewritten (lists of strings),
                              optional id, query, rewritten_query, unresolved.
                              Rows are checked as JSON Lines records are, and
                              numbered from 1. Needs the parquet extra.
  sentinels --format FORMAT   the format of both keys (see docs/formats.md):
    trec-qrels                "query iteration document relevance", any run
                              of spaces or tabs between fields (as trec_eval)
    beir-tsv                  header query-id<TAB>corpus-id<TAB>score, one tab
                              between fields
    lm-eval-samples           lm-evaluation-harness samples: doc_id, target
    parquet                   --id-column COL (twice, query then document, for
                              qrels) and --answer-column COL; needs the parquet
                              extra (pip install 'eval-integrity-helpers[parquet]')
                              A judgement's ID is the JSON array
                              ["query","document"]; the answer is the label as
                              written (1 and 01 differ); no other character
                              is a separator or trimmed.
  --engine auto|python|duckdb|spark
                              auto (the default) runs DuckDB when it is installed
                              (the duckdb extra) and the input is large enough to
                              gain: rewrites in JSON Lines from 40 MiB or in CSV
                              from 4 MiB (a file's size, or that much of
                              standard input read ahead), a Parquet table or two
                              Parquet keys from 1 MiB; else the Python route.
                              duckdb runs it whatever the size: JSON Lines and
                              CSV (a file or standard input, a chunk at a time)
                              and Parquet rewrites, two Parquet keys. The output
                              bytes, the bad lines and the exit status are the
                              Python route's: any line DuckDB cannot prove plain
                              is checked the Python way. Sentinel records and
                              the other key formats have no DuckDB route; --carry
                              and --sentinels take the Python route.
  -v, --verbose               say on standard error which engine ran, and why.
  sentinels ... --max-file-mb MB
                              refuse a key or sentinel list over MB (default
                              512) unread: a key is held in memory whole. A
                              FIFO, a device or a file under /proc is refused
                              unread on every command (exit status 2).
  sentinels ... --sentinels IDS
                              check only the IDs listed in IDS (one a line,
                              written as the key's IDs are) of a full baseline;
                              with a summary, the other judgements that changed,
                              were dropped or were added are counted apart.

  JSON Lines and CSV are read one record at a time: memory stays flat however
  long the file is. A file that grows while it is read is checked as far as
  it went when the run opened it. Every bad record is reported with its line number, and the
  run goes on. Exit statuses are the same with or without the options below.

output options
  --carry          start each record's output object with "line", then the
                   input's "id" and "query" (as given) when it has them:
                   {"line":3,"id":"r3","missing":["refresher"],"added":[],...}
                   {"line":4,"id":"r4","field":"rewritten[0]","error":"..."}
  --summary        write a human-readable summary to standard output instead
                   of the per-record lines: counts by outcome, the targets
                   lost most often, and the first N failures, each explained
                   (a changed sentinel answer as a character diff: [-old-]{+new+}).
  --summary-json   write one JSON summary line instead, for pipelines:
                   records   {"check","source","records","outcomes":{label:N},
                              "changes":{"lost","added","lost and added"},
                              "most_often_lost":[{"id","count"}],
                              "most_often_lost_undercount":0,
                              "failures_total","failures":[{"line","id"?,
                              "query"?,"outcome","explanation","output"}],
                              "exit_status"}  ("changes" and "most_often_lost*"
                              for target-scope only)
                   two keys  {"check","baseline":{"source","format","ids"},
                              "proposed":{"source","format","ids","new_ids"},
                              "outcome","missing":{"count","first"}|null,
                              "changed":{"count","first":[{"id","baseline",
                              "proposed","diff"}]}|null,"errors_total",
                              "errors":[...],"exit_status"}
                   With either summary, every bad record is also written to
                   standard error as "FILE, line N: message".
  --max-failures N how many failures (or problems) a summary lists (default 20)
  --results FILE   with a summary, also write the per-record lines to FILE;
                   it appears only when the run ends normally

  The most-often-lost counts stay exact while at most 10000 distinct targets
  are lost; beyond that they come from a bounded (Misra-Gries) count, and
  "most_often_lost_undercount" says by how much any count may be low.
"""


#: ``--max-file-mb``'s default: helpers.team.inputs.MAX_KEY_BYTES, in MB.
_MAX_FILE_MB = 512.0


class _DataOptions(NamedTuple):
    """The data-file options of the check commands (all off by default)."""

    format: str = "jsonl"
    list_separator: str | None = None
    carry: bool = False
    summary: str | None = None  # None, "text" or "json"
    max_failures: int = 20
    results: str | None = None
    baseline: str | None = None
    proposed: str | None = None
    key_format: str | None = None
    id_columns: tuple[str, ...] = ()
    answer_column: str | None = None
    sentinels: str | None = None
    max_file_mb: float = _MAX_FILE_MB
    engine: str = "auto"
    spark_master: str = "local[2]"
    verbose: bool = False


#: The engines of ``--engine`` (docs/sql.md, "The engines").
_ENGINES = ("python", "duckdb", "spark", "auto")


#: From this many MiB of Parquet (a rewrites table, or two answer keys together), ``--engine auto``
#: picks DuckDB: the size where DuckDB's route overtakes the Python one (measured: docs/performance.md).
_AUTO_DUCKDB_MIB = 1

#: From this many MiB of JSON Lines rewrites (a file, or standard input so far), ``--engine auto``
#: picks DuckDB (docs/performance.md, "Where auto switches").
_AUTO_DUCKDB_JSONL_MIB = 40

#: From this many MiB of CSV rewrites (a file, or standard input so far), ``--engine auto`` picks
#: DuckDB (docs/performance.md, "Where auto switches").
_AUTO_DUCKDB_CSV_MIB = 4


#: The answer-key formats of ``sentinels --format`` (``helpers.team.key_formats.KEY_FORMATS``).
_KEY_FORMATS = ("json", "jsonl", "trec-qrels", "beir-tsv", "lm-eval-samples", "parquet")


def _add_check_commands(sub: Any, Parser: Any, only: str | None) -> None:
    """Add the check commands to ``sub``; with ``only``, only that command's arguments."""
    import argparse

    def wanted(name: str) -> bool:
        return only is None or only == name

    for name, summary in (
        ("target-scope", "does each rewrite keep exactly the original target IDs?"),
        ("sentinels", "does each proposed answer key keep every baseline sentinel?"),
    ):
        command = sub.add_parser(
            name,
            help=summary,
            description=summary,
            formatter_class=Parser.raw,
            epilog=_EPILOG + "\n" + _DATA_EPILOG,
        )
        if wanted(name):
            command.add_argument(
                "file", nargs="?", metavar="FILE", help="JSON Lines input (default: standard input)"
            )
            _add_data_options(command, name)
    rebase = sub.add_parser(
        "rebaseline",
        formatter_class=Parser.plain,
        help="accept changed worked answers: write a new baseline, keep the old one",
        description=(
            "Write a new baseline of the project's worked answers (the expected "
            "outputs in fixtures/) and keep the previous baseline under "
            "fixtures/worked_answers/retained/. Use only for an intentional change."
        ),
    )
    if wanted("rebaseline"):
        rebase.add_argument("--reason", required=True, help="why the worked answers changed")
        rebase.add_argument("--fixtures", help=argparse.SUPPRESS)
    export = sub.add_parser(
        "export-csv",
        formatter_class=Parser.plain,
        help="write the filled cases as the editable CSV",
        description="Write the filled cases (fixtures/filled_cases.json) as editable CSV.",
    )
    if wanted("export-csv"):
        export.add_argument("--check", choices=sorted(CHECKS), help="only this check's cases")
        export.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")
    example = sub.add_parser(
        "export-example",
        formatter_class=Parser.plain,
        help="write a runnable, standard-library-only example of one check",
        description=(
            "Write one Python file holding the check (the helpers' own code) and its "
            "filled cases; run with plain python, it asserts every expected output."
        ),
    )
    if wanted("export-example"):
        example.add_argument("--check", required=True, choices=sorted(CHECKS), help="the check")
        example.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")


def _add_data_options(command: argparse.ArgumentParser, check: str) -> None:
    data = command.add_argument_group("data files (see below)")
    if check == "target-scope":
        data.add_argument(
            "--format",
            choices=("jsonl", "csv", "parquet"),
            default="jsonl",
            help="input format (default: jsonl; parquet needs the parquet extra)",
        )
        data.add_argument(
            "--list-separator",
            metavar="SEP",
            help="CSV only: list cells hold IDs joined by SEP instead of a JSON array",
        )
    else:
        data.add_argument("--baseline", metavar="FILE", help="the baseline answer key (with --proposed)")
        data.add_argument("--proposed", metavar="FILE", help="the proposed answer key (with --baseline)")
        data.add_argument(
            "--format",
            "--key-format",
            dest="key_format",
            choices=_KEY_FORMATS,
            help="format of both answer keys (default: json or jsonl, from each file's name)",
        )
        data.add_argument(
            "--id-column",
            action="append",
            metavar="COL",
            help="parquet: the ID column; give it twice (query, then document) for a qrels table",
        )
        data.add_argument("--answer-column", metavar="COL", help="parquet: the answer column")
        data.add_argument(
            "--sentinels",
            metavar="IDS",
            help="check only these IDs of a full baseline (one ID a line; for qrels, 'qid docid' lines)",
        )
        data.add_argument(
            "--max-file-mb",
            type=float,
            default=_MAX_FILE_MB,
            metavar="MB",
            help="refuse an answer key or sentinel list larger than this, unread (default: 512)",
        )
    data.add_argument(
        "--engine",
        choices=_ENGINES,
        default="auto",
        help="auto (default): duckdb when it is installed and the input is large (JSON Lines rewrites "
        f"from {_AUTO_DUCKDB_JSONL_MIB} MiB, CSV from {_AUTO_DUCKDB_CSV_MIB} MiB, Parquet from "
        f"{_AUTO_DUCKDB_MIB} MiB), else python; duckdb: JSON Lines, CSV and Parquet rewrites, Parquet keys; "
        "spark: JSON Lines rewrites, Parquet keys (the same output bytes whichever runs)",
    )
    data.add_argument(
        "-v", "--verbose", action="store_true", help="say on standard error which engine ran, and why"
    )
    data.add_argument(
        "--spark-master",
        default="local[2]",
        metavar="URL",
        help="with --engine spark: the Spark master (default: local[2]; e.g. spark://host:7077)",
    )
    output = command.add_argument_group("output (see below)")
    output.add_argument(
        "--carry", action="store_true", help='add "line", "id" and "query" to each output object'
    )
    which = output.add_mutually_exclusive_group()
    which.add_argument(
        "--summary",
        action="store_const",
        const="text",
        dest="summary",
        help="print a human-readable summary instead of per-record lines",
    )
    which.add_argument(
        "--summary-json",
        action="store_const",
        const="json",
        dest="summary",
        help="print one JSON summary line instead of per-record lines",
    )
    output.add_argument(
        "--max-failures",
        type=int,
        default=20,
        metavar="N",
        help="how many failures a summary lists (default: 20)",
    )
    output.add_argument(
        "--results", metavar="FILE", help="with a summary, also write the per-record lines to FILE"
    )


def _data_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> _DataOptions:
    """Validate the data-file options of a check command (usage errors exit 2)."""
    options = _DataOptions(
        format=getattr(args, "format", "jsonl"),
        list_separator=getattr(args, "list_separator", None),
        carry=args.carry,
        summary=args.summary,
        max_failures=args.max_failures,
        results=args.results,
        baseline=getattr(args, "baseline", None),
        proposed=getattr(args, "proposed", None),
        key_format=getattr(args, "key_format", None),
        id_columns=tuple(getattr(args, "id_column", None) or ()),
        answer_column=getattr(args, "answer_column", None),
        sentinels=getattr(args, "sentinels", None),
        max_file_mb=getattr(args, "max_file_mb", _MAX_FILE_MB),
        engine=getattr(args, "engine", "auto"),
        spark_master=args.spark_master,
        verbose=getattr(args, "verbose", False),
    )
    if not 0 < options.max_file_mb < float("inf"):
        parser.error("--max-file-mb must be a number of MB more than 0")
    if options.max_failures < 0:
        parser.error("--max-failures must be 0 or more")
    if options.list_separator is not None and options.format != "csv":
        parser.error("--list-separator applies only with --format csv")
    if options.list_separator == "":
        parser.error("--list-separator must not be empty")
    if options.results is not None and options.summary is None:
        parser.error("--results goes with --summary or --summary-json")
    keys = (options.baseline, options.proposed)
    if any(k is not None for k in keys):
        if None in keys:
            parser.error("--baseline and --proposed go together")
        if args.file is not None:
            parser.error("give either FILE or --baseline and --proposed, not both")
        if options.carry or options.results is not None:
            parser.error("--carry and --results apply to record files, not to two keys")
    elif options.key_format is not None or options.sentinels is not None:
        parser.error("--format, --key-format and --sentinels go with --baseline and --proposed")
    if options.key_format == "parquet":
        if len(options.id_columns) not in (1, 2) or options.answer_column is None:
            parser.error(
                "--format parquet needs --answer-column and --id-column "
                "(once, or twice: query then document, for a qrels table)"
            )
    elif options.id_columns or options.answer_column is not None:
        parser.error("--id-column and --answer-column apply only with --format parquet")
    return options
