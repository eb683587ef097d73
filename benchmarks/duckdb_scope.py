#!/usr/bin/env python3
"""The target-scope check as DuckDB SQL, as a benchmark peer (run by benchmarks/compare.py).

    benchmarks/.venv/bin/python benchmarks/duckdb_scope.py --query list FILE
    benchmarks/.venv/bin/python benchmarks/duckdb_scope.py --query unnest FILE

Reads JSON Lines of ``{"original":[...],"rewritten":[...]}`` and writes one JSON object per
record to standard output, in input order, with ``COPY ... TO '/dev/stdout' (FORMAT json)``.
No validation: this is what a data team would write, not a strict checker.

* ``list``: per-row list functions (``list_distinct``, ``list_filter`` with
  ``list_contains``, ``list_sort``). Fast for small lists; the lookup is a linear scan,
  so one record with 100,000 IDs each side is quadratic.
* ``unnest``: one row per (record, ID), set differences with ``EXCEPT``, lists rebuilt
  with ``list(...)`` and joined back to the records. Scales with the list length.

DuckDB sorts strings by their UTF-8 bytes, which differs from JavaScript's UTF-16 order
only between characters above U+FFFF and those in U+E000..U+FFFF.
"""

from __future__ import annotations

import argparse
import sys

import duckdb

SOURCE = """
    read_json({path}, format = 'newline_delimited',
              columns = {{original: 'VARCHAR[]', rewritten: 'VARCHAR[]'}})
"""

QUERIES = {
    "list": """
        COPY (
            WITH sides AS (
                SELECT list_distinct(original) AS o, list_distinct(rewritten) AS r FROM {source}
            ), diffs AS (
                SELECT list_sort(list_filter(o, lambda x: NOT list_contains(r, x))) AS missing,
                       list_sort(list_filter(r, lambda x: NOT list_contains(o, x))) AS added
                FROM sides
            )
            SELECT missing, added, len(missing) = 0 AND len(added) = 0 AS preserved FROM diffs
        ) TO '/dev/stdout' (FORMAT json)
    """,
    "unnest": """
        COPY (
            WITH src AS (
                SELECT row_number() OVER () AS n, original, rewritten FROM {source}
            ),
            o AS (SELECT n, unnest(original) AS id FROM src),
            r AS (SELECT n, unnest(rewritten) AS id FROM src),
            m AS (
                SELECT n, list_sort(list(id)) AS ids
                FROM (SELECT n, id FROM o EXCEPT SELECT n, id FROM r) GROUP BY n
            ),
            a AS (
                SELECT n, list_sort(list(id)) AS ids
                FROM (SELECT n, id FROM r EXCEPT SELECT n, id FROM o) GROUP BY n
            )
            SELECT coalesce(m.ids, []::VARCHAR[]) AS missing,
                   coalesce(a.ids, []::VARCHAR[]) AS added,
                   m.ids IS NULL AND a.ids IS NULL AS preserved
            FROM src LEFT JOIN m USING (n) LEFT JOIN a USING (n)
            ORDER BY n
        ) TO '/dev/stdout' (FORMAT json)
    """,
}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--query", choices=sorted(QUERIES), default="list")
    parser.add_argument("file")
    args = parser.parse_args(argv)
    literal = "'" + args.file.replace("'", "''") + "'"
    con = duckdb.connect()
    con.execute(QUERIES[args.query].format(source=SOURCE.format(path=literal)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
