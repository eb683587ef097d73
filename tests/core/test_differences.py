"""Every documented difference from the reference evaluators, run through the command line.

The reference evaluators are the seeds' JavaScript ``evaluate`` functions with each
line read by ``JSON.parse``. ``fixtures/differences.json`` lists where the helpers
differ, each with example inputs, the helpers' documented output (or the start of
its error) and exit status; ``--help`` and ``docs/differences.md`` are made from it.
Each example runs here through the command line.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from helpers.core.differences import (
    TABLE_END,
    TABLE_START,
    example_bytes,
    help_text,
    load_differences,
    markdown_table,
)
from helpers.core.paths import project_root

DATA = load_differences()
DOCS_PAGE = project_root() / "docs" / "differences.md"

#: (name, check, input bytes, expected exit status, expected output lines): one row per example
#: in the data file, the difference's rows first, then the behaviours shared with the reference.
#: An expected line is the exact line, or ``{"field": ..., "error": start}`` for a bad line.
DIFFERENCES = [
    (row["name"], ex["check"], example_bytes(ex), ex["exit"], ex["output"])
    for row in DATA["differences"]
    for ex in row["examples"]
]
SAME = [
    (row["name"], ex["check"], example_bytes(ex), ex["exit"], ex["output"])
    for row in DATA["same"]
    for ex in row["examples"]
]


def run(check: str, data: bytes, tmp_path) -> subprocess.CompletedProcess[bytes]:
    path = tmp_path / "in.jsonl"
    path.write_bytes(data)
    return subprocess.run(
        [sys.executable, "-m", "helpers", check, str(path)], capture_output=True, timeout=60
    )


def assert_lines(done: subprocess.CompletedProcess[bytes], expected: list) -> None:
    lines = done.stdout.decode("utf-8").splitlines()
    assert len(lines) == len(expected), lines
    for number, (line, want) in enumerate(zip(lines, expected, strict=True), 1):
        if isinstance(want, str):
            assert line == want
            continue
        field, start = want["field"], want["error"]
        obj = json.loads(line)
        assert list(obj) == ["line", "field", "error"], obj
        assert (obj["line"], obj["field"]) == (number, field), obj
        assert obj["error"].startswith(start), obj


@pytest.mark.parametrize(
    ("name", "check", "data", "code", "expected"),
    DIFFERENCES + SAME,
    ids=[f"{row[0]}-{index}" for index, row in enumerate(DIFFERENCES + SAME)],
)
def test_each_documented_behaviour_holds(tmp_path, name, check, data, code, expected):
    done = run(check, data, tmp_path)
    assert done.returncode == code, done.stderr
    assert b"Traceback" not in done.stderr
    assert_lines(done, expected)
    if name == "no input lines":
        assert b"no input lines" in done.stderr


def test_a_json_answer_key_file_with_a_repeated_id_is_refused(tmp_path):
    (tmp_path / "b.json").write_text('{"S1":"A",\n"S1":"B"}', encoding="utf-8")
    (tmp_path / "p.json").write_text('{"S1":"B"}', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "helpers", "sentinels", "--baseline", "b.json", "--proposed", "p.json"],
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 4
    assert "duplicate ID" in done.stdout.decode() and "line 1" in done.stdout.decode()


def test_every_listed_behaviour_has_an_example():
    for row in DATA["differences"] + DATA["same"]:
        assert row["examples"], row["name"]
    names = [row["name"] for row in DATA["differences"] + DATA["same"]]
    assert len(names) == len(set(names)), "two rows share a name"


@pytest.mark.parametrize("args", [["--help"], ["target-scope", "--help"], ["sentinels", "--help"]])
def test_help_lists_every_difference(args):
    done = subprocess.run([sys.executable, "-m", "helpers", *args], capture_output=True, timeout=60)
    assert done.returncode == 0
    shown = done.stdout.decode("utf-8")
    assert help_text() in shown
    text = " ".join(shown.split())
    assert "differences from the reference evaluators" in text
    for row in DATA["differences"]:
        assert row["name"] in text, row["name"]
        assert " ".join(row["help"].split()) in text, row["name"]
    for row in DATA["same"]:
        assert row["text"] in text, row["name"]


def test_the_help_lines_fit_a_terminal():
    for line in help_text().splitlines():
        assert len(line) <= 78, line


def test_the_docs_page_holds_the_table_made_from_the_data():
    page = DOCS_PAGE.read_text(encoding="utf-8")
    block = f"{TABLE_START}\n\n{markdown_table()}\n{TABLE_END}"
    assert block in page, "docs/differences.md is stale: run python -m helpers.core.differences --write"
    for row in DATA["differences"]:
        assert f"| {row['difference']} |" in page, row["name"]
    for row in DATA["same"]:
        assert row["markdown"] in page, row["name"]
