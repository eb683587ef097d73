"""Every documented difference from the reference evaluators, run through the command line.

The reference evaluators are the seeds' JavaScript ``evaluate`` functions with each
line read by ``JSON.parse``; ``--help`` lists where the helpers differ, and so does
the README. Each row here is one listed difference: the input, the helpers'
documented output (or the start of its error) and exit status, and the name the
``--help`` text lists it under.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PRESERVED = '{"missing":[],"added":[],"preserved":true}'

#: (name in --help, check, input bytes, expected exit status, expected output lines, or a
#: (field, start of the error) per line for bad input)
DIFFERENCES = [
    (
        "empty baseline",
        "sentinels",
        b'{"baseline":{},"proposed":{"S1":"A"}}\n',
        4,
        [("baseline", "baseline has no sentinel IDs")],
    ),
    (
        "unknown field",
        "target-scope",
        b'{"original":["a"],"rewritten":["a"],"extra":1}\n',
        4,
        [("extra", 'input has an unknown field "extra"')],
    ),
    (
        "unknown field",
        "target-scope",
        b'{"original":["a"],"rewritten":["a"],"__proto__":1}\n',
        4,
        [("__proto__", 'input has an unknown field "__proto__"')],
    ),
    (
        "unknown field",
        "sentinels",
        b'{"baseline":{"S1":"A"},"proposed":{"S1":"A"},"note":"x"}\n',
        4,
        [("note", 'input has an unknown field "note"')],
    ),
    (
        "missing field or",
        "target-scope",
        b'{"original":["a"]}\n',
        4,
        [("rewritten", 'input has no "rewritten" field')],
    ),
    (
        "missing field or",
        "target-scope",
        b'[]\n1\n"x"\nnull\n',
        4,
        [
            ("input", "input is []"),
            ("input", "input is 1"),
            ("input", 'input is "x"'),
            ("input", "input is null"),
        ],
    ),
    (
        "missing field or",
        "sentinels",
        b'{"baseline":{"S1":"A"}}\n',
        4,
        [("proposed", 'input has no "proposed" field')],
    ),
    (
        "ID list not a list",
        "target-scope",
        b'{"original":"ab","rewritten":"ba"}\n{"original":null,"rewritten":null}\n',
        4,
        [("original", 'original is "ab"'), ("original", "original is null")],
    ),
    (
        "non-string ID",
        "target-scope",
        b'{"original":[1],"rewritten":["1"]}\n',
        4,
        [("original[0]", "original[0] is 1, expected a string ID")],
    ),
    (
        "empty-string ID",
        "target-scope",
        b'{"original":[""],"rewritten":[""]}\n',
        4,
        [("original[0]", "original[0] is an empty string")],
    ),
    (
        "empty-string ID",
        "sentinels",
        b'{"baseline":{"":"A"},"proposed":{"":"A"}}\n',
        4,
        [('baseline[""]', "baseline has an empty ID")],
    ),
    (
        "non-string answer",
        "sentinels",
        b'{"baseline":{"S1":1},"proposed":{"S1":1}}\n{"baseline":{"S1":{}},"proposed":{"S1":{}}}\n',
        4,
        [('baseline["S1"]', 'baseline["S1"] is 1'), ('baseline["S1"]', 'baseline["S1"] is {}')],
    ),
    (
        "answer key not an",
        "sentinels",
        b'{"baseline":["A"],"proposed":["A"]}\n',
        4,
        [("baseline", 'baseline is ["A"]')],
    ),
    (
        "duplicate key",
        "target-scope",
        b'{"original":["a"],"rewritten":["b"],"rewritten":["a"]}\n',
        4,
        [("rewritten", 'duplicate key "rewritten"')],
    ),
    (
        "duplicate key",
        "sentinels",
        b'{"baseline":{"S1":"A","S1":"B"},"proposed":{"S1":"B"}}\n',
        4,
        [("S1", 'duplicate key "S1"')],
    ),
    (
        '"unresolved"',
        "target-scope",
        b'{"original":["a"],"rewritten":["a"],"unresolved":["the course"]}\n',
        3,
        ['{"held":"needs staff labels","unresolved":["the course"],"preserved":false}'],
    ),
    (
        "unreadable line",
        "target-scope",
        b'xx\n{"original":[NaN],"rewritten":[]}\n\n'
        + b"\x1c" * 3
        + b"\n"
        + b'{"original":["a"],"rewritten":["a"]}\n',
        4,
        [
            (None, "not valid JSON"),
            (None, "NaN is not valid JSON"),
            (None, "blank line"),
            (None, "only space-like characters (3, starting with U+001C)"),
            PRESERVED,
        ],
    ),
    (
        "byte-order mark",
        "target-scope",
        b'\xef\xbb\xbf{"original":["a"],"rewritten":["a"]}\n\xef\xbb\xbf{"original":["a"],"rewritten":["a"]}\n',
        4,
        [PRESERVED, (None, "not valid JSON")],
    ),
    (
        "invalid UTF-8",
        "target-scope",
        b'{"original":["a\xff"],"rewritten":["a\xfe"]}\n',
        4,
        [(None, "not UTF-8 text (byte 15)")],
    ),
    (
        "deep nesting",
        "target-scope",
        b'{"original":["a"],"rewritten":["a"],"id":' + b"[" * 3000 + b"]" * 3000 + b"}\n",
        4,
        [(None, "arrays or objects are nested more than 500 levels deep")],
    ),
    (
        "over-long number",
        "target-scope",
        b'{"original":["a"],"rewritten":["a"],"id":' + b"1" * 5000 + b"}\n",
        4,
        [(None, "a number has too many digits to read (more than 4300)")],
    ),
    ("no input lines", "target-scope", b"", 4, []),
]

#: Inputs on which the helpers and the reference agree (listed under "The same in both").
SAME = [
    ("CRLF", "target-scope", b'{"original":["a"],"rewritten":["a"]}\r\n', 0, [PRESERVED]),
    (
        "CR-only",
        "target-scope",
        b'{"original":["a"],"rewritten":["a"]}\r{"original":["a"],"rewritten":["a"]}\r',
        4,
        [(None, "not valid JSON: Extra data")],
    ),
    (
        "lone",
        "target-scope",
        b'{"original":["\\ud800"],"rewritten":[]}\n',
        1,
        ['{"missing":["\\ud800"],"added":[],"preserved":false}'],
    ),
    (
        '"__proto__"',
        "sentinels",
        b'{"baseline":{"__proto__":"A"},"proposed":{}}\n',
        1,
        ['{"missing":["__proto__"],"changed":[],"intact":false}'],
    ),
    (
        "UTF-16",
        "sentinels",
        b'{"baseline":{"b":"A","10":"A","2":"A"},"proposed":{}}\n',
        1,
        ['{"missing":["10","2","b"],"changed":[],"intact":false}'],
    ),
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
        field, start = want
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


@pytest.mark.parametrize("args", [["--help"], ["target-scope", "--help"], ["sentinels", "--help"]])
def test_help_lists_every_difference(args):
    done = subprocess.run([sys.executable, "-m", "helpers", *args], capture_output=True, timeout=60)
    assert done.returncode == 0
    text = " ".join(done.stdout.decode("utf-8").split())
    assert "differences from the reference evaluators" in text
    for name in {row[0] for row in DIFFERENCES} | {row[0] for row in SAME}:
        assert name in text, name
