"""Where the helpers differ from the reference evaluators, from one data file.

``fixtures/differences.json`` lists every difference (and every behaviour the
two share that a reader might doubt) with its example inputs, the helpers'
output and exit status. ``python -m helpers --help`` lists them from it,
``docs/differences.md`` shows them as a table made from it, and
``tests/core/test_differences.py`` runs every example through the command line.
Rewrite the table after editing the data with
``python -m helpers.core.differences --write``.

No notebook teaches these: they concern inputs the reference would check, or stop on,
where the helpers refuse or go on. The notebooks' bad-input galleries show the refusals.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from helpers.core.paths import fixtures_dir, project_root

__all__ = [
    "differences_json",
    "load_differences",
    "example_bytes",
    "help_text",
    "markdown_table",
    "TABLE_START",
    "TABLE_END",
]

#: The lines that enclose the generated table in ``docs/differences.md``.
TABLE_START = "<!-- table from fixtures/differences.json: python -m helpers.core.differences --write -->"
TABLE_END = "<!-- end of the table -->"

_NAME_WIDTH = 21  # the help's name column, after its two-space indent
_WIDTH = 78


def differences_json() -> Path:
    """The data file: the wheel's copy, or the checkout's."""
    return fixtures_dir() / "differences.json"


def load_differences() -> dict[str, Any]:
    """The parsed data file: ``reference``, ``differences`` and ``same``."""
    data: dict[str, Any] = json.loads(differences_json().read_text(encoding="utf-8"))
    return data


def example_bytes(example: dict[str, Any]) -> bytes:
    """An example's input as bytes: text pieces in UTF-8, ``{"byte": N}`` and ``{"repeat": S, "times": N}``.

    >>> example_bytes({"input": ["a", {"byte": 255}, {"repeat": "[", "times": 3}]})
    b'a\\xff[[['
    """
    out = bytearray()
    for piece in example["input"]:
        if isinstance(piece, str):
            out += piece.encode("utf-8", "surrogatepass")
        elif "byte" in piece:
            out.append(piece["byte"])
        else:
            out += piece["repeat"].encode("utf-8") * piece["times"]
    return bytes(out)


def help_text(data: dict[str, Any] | None = None) -> str:
    """The ``--help`` section: one entry per difference, then what the two share."""
    data = data or load_differences()
    lines = textwrap.wrap(
        f"differences from the reference evaluators ({data['reference']}); "
        "the checks agree on every input both accept",
        _WIDTH,
    )
    hang = " " * (2 + _NAME_WIDTH + 2)
    for row in data["differences"]:
        name = row["name"]
        body = textwrap.wrap(row["help"], _WIDTH - len(hang) + 2)
        if len(name) < _NAME_WIDTH:
            lines.append(f"  {name:<{_NAME_WIDTH}}{body[0]}")
            body = body[1:]
        else:
            lines.append(f"  {name}")
        lines.extend(hang[:-2] + line for line in body)
    same = [row["text"] for row in data["same"]]
    shared = "The same in both: " + ", ".join(same[:-1]) + ", and " + same[-1] + "."
    lines.extend(textwrap.wrap(shared, _WIDTH, initial_indent="  ", subsequent_indent="  "))
    return "\n".join(lines) + "\n"


def markdown_table(data: dict[str, Any] | None = None) -> str:
    """The table of ``docs/differences.md``, one row per difference (``|`` escaped), then what the two share."""
    data = data or load_differences()

    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    rows = ["| Difference | What the reference does | What the helpers do | Why |", "|---|---|---|---|"]
    rows.extend(
        "| " + " | ".join(cell(row[key]) for key in ("difference", "reference", "helpers", "why")) + " |"
        for row in data["differences"]
    )
    same = [row["markdown"] for row in data["same"]]
    rows += ["", "The same in both: " + ", ".join(same[:-1]) + ", and " + same[-1] + "."]
    return "\n".join(rows) + "\n"


def _with_table(page: str, table: str) -> str:
    before, start, rest = page.partition(TABLE_START + "\n")
    _old, end, after = rest.partition(TABLE_END)
    if not start or not end:
        raise ValueError(f"the page has no {TABLE_START!r} … {TABLE_END!r} block")
    return before + start + "\n" + table + "\n" + end + after


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m helpers.core.differences [--write]``: print the table, or rewrite it in the docs page."""
    args = list(sys.argv[1:] if argv is None else argv)
    table = markdown_table()
    if args == ["--write"]:
        page = project_root() / "docs" / "differences.md"
        page.write_text(_with_table(page.read_text(encoding="utf-8"), table), encoding="utf-8")
        print(f"wrote the table in {page}", file=sys.stderr)
    elif args:
        print("usage: python -m helpers.core.differences [--write]", file=sys.stderr)
        return 2
    else:
        sys.stdout.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
