"""The command line, run as a subprocess: `python -m helpers ...`."""

from __future__ import annotations

import re

import pytest

from helpers.core.paths import filled_cases_csv

CHECKS = ["target-scope", "sentinels"]


def jsonl(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)


def output_lines(done) -> list[str]:
    """Standard output as text lines, requiring a final newline."""
    text = done.stdout.decode("utf-8")
    assert text.endswith("\n"), text
    return text[:-1].split("\n")


# --- the filled cases -----------------------------------------------------


@pytest.mark.parametrize("check", CHECKS)
def test_reproduces_the_filled_cases_from_a_file(run_cli, tmp_path, filled, check):
    """Each filled case's input gives its expected output, character for character."""
    cases = [case for case in filled if case.check == check]
    path = tmp_path / "inputs.jsonl"
    path.write_text(jsonl(*(case.input_json for case in cases)), encoding="utf-8")
    done = run_cli(check, str(path))
    assert done.stdout.decode("utf-8") == jsonl(*(case.expected_json for case in cases))
    assert done.stderr == b""
    assert done.returncode == 1  # each check has a failing case among its three


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("file_arg", [[], ["-"]], ids=["no-file", "dash"])
def test_reproduces_the_filled_cases_from_stdin(run_cli, filled, check, file_arg):
    """Standard input, with no FILE or with "-", gives the same output lines."""
    cases = [case for case in filled if case.check == check]
    done = run_cli(check, *file_arg, stdin=jsonl(*(case.input_json for case in cases)))
    assert done.stdout.decode("utf-8") == jsonl(*(case.expected_json for case in cases))
    assert done.returncode == 1


def test_seed_outputs_literally(run_cli):
    """The seeds' literal output strings, typed out here, come back byte for byte."""
    done = run_cli("sentinels", stdin=b'{"baseline":{"S1":"R","S2":"A"},"proposed":{"S1":"R"}}')
    assert done.stdout == b'{"missing":["S2"],"changed":[],"intact":false}\n'
    done = run_cli("target-scope", stdin=b'{"original":["induction"],"rewritten":["induction","payroll"]}')
    assert done.stdout == b'{"missing":[],"added":["payroll"],"preserved":false}\n'


# --- mixed lines ----------------------------------------------------------


def test_mixed_lines_give_one_output_line_each_in_order(run_cli):
    """Good, failing, held and bad lines each get their own output line; bad ones name the field."""
    done = run_cli(
        "target-scope",
        stdin=jsonl(
            '{"original":["induction","refresher"],"rewritten":["refresher","induction"]}',
            '{"original":["induction","refresher"],"rewritten":["induction"]}',
            '{"original":["induction"],"rewritten":["induction"],"unresolved":["the new course"]}',
            '{"original":["induction"],',
            '{"original":["a"],"rewritten":["a","b",7]}',
            '{"original":["a"],"original":["b"],"rewritten":["a"]}',
            "",
            '{"original":["a"],"rewritten":["a"],"rewriten":[]}',
            '{"original":["a"],"rewritten":["a","b"]}',
        ),
    )
    assert output_lines(done) == [
        '{"missing":[],"added":[],"preserved":true}',
        '{"missing":["refresher"],"added":[],"preserved":false}',
        '{"held":"needs staff labels","unresolved":["the new course"],"preserved":false}',
        '{"line":4,"field":null,"error":"not valid JSON: Expecting property name enclosed in double quotes (column 27)"}',
        '{"line":5,"field":"rewritten[2]","error":"rewritten[2] is 7, expected a string ID"}',
        '{"line":6,"field":"original","error":"duplicate key \\"original\\" in a JSON object '
        '(each key may appear only once)"}',
        '{"line":7,"field":null,"error":"blank line, expected a JSON object"}',
        '{"line":8,"field":"rewriten","error":"input has an unknown field \\"rewriten\\" '
        '(allowed: \\"original\\", \\"rewritten\\", \\"unresolved\\", \\"id\\", \\"query\\", \\"rewritten_query\\")"}',
        '{"missing":[],"added":["b"],"preserved":false}',
    ]
    assert done.returncode == 4


def test_sentinel_bad_lines(run_cli):
    """An empty baseline and a non-string answer are bad lines; the good line is still checked."""
    done = run_cli(
        "sentinels",
        stdin=jsonl(
            '{"baseline":{},"proposed":{"S1":"R"}}',
            '{"baseline":{"S1":"R"},"proposed":{"S1":7}}',
            '{"baseline":{"S1":"R"},"proposed":{"S1":"R"}}',
        ),
    )
    assert output_lines(done) == [
        '{"line":1,"field":"baseline","error":"baseline has no sentinel IDs, so the check would '
        'verify nothing; supply the fixed sentinel baseline"}',
        '{"line":2,"field":"proposed[\\"S1\\"]","error":"proposed[\\"S1\\"] is 7, expected a string answer"}',
        '{"missing":[],"changed":[],"intact":true}',
    ]
    assert done.returncode == 4


# --- exit codes -----------------------------------------------------------

PASS = '{"original":["a"],"rewritten":["a"]}'
FAIL = '{"original":["a"],"rewritten":["b"]}'
HELD = '{"original":["a"],"rewritten":["a"],"unresolved":["x"]}'
BAD = '{"original":["a"],"rewritten":[1]}'


@pytest.mark.parametrize(
    ("lines", "code"),
    [
        ([PASS], 0),
        ([PASS, PASS], 0),
        ([FAIL], 1),
        ([PASS, FAIL, PASS], 1),
        ([HELD], 3),
        ([FAIL, HELD], 3),
        ([HELD, FAIL, PASS], 3),
        ([BAD], 4),
        ([PASS, BAD], 4),
        ([BAD, HELD, FAIL, PASS], 4),
        ([HELD, FAIL, BAD], 4),
    ],
)
def test_most_serious_outcome_sets_the_exit_code(run_cli, lines, code):
    """4 (bad input) > 3 (held) > 1 (failed) > 0 (passed), whatever the line order."""
    done = run_cli("target-scope", stdin=jsonl(*lines))
    assert done.returncode == code
    assert len(output_lines(done)) == len(lines)


@pytest.mark.parametrize(
    ("lines", "code"),
    [
        (['{"baseline":{"S1":"R"},"proposed":{"S1":"R","C2":"A"}}'], 0),
        (['{"baseline":{"S1":"R"},"proposed":{"S1":"R "}}'], 1),
        (['{"baseline":{"S1":"R"},"proposed":{}}', '{"baseline":{},"proposed":{}}'], 4),
    ],
    ids=["intact", "changed", "missing-then-empty-baseline"],
)
def test_sentinel_exit_codes(run_cli, lines, code):
    """Intact is 0, a changed or missing sentinel is 1, an empty baseline is bad input."""
    assert run_cli("sentinels", stdin=jsonl(*lines)).returncode == code


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("stdin", [b"", b"\n"], ids=["empty", "one-blank-line"])
def test_no_input_lines_is_bad_input(run_cli, check, stdin):
    """Nothing to check is never a pass."""
    done = run_cli(check, stdin=stdin)
    assert done.returncode == 4
    if not stdin:
        assert done.stdout == b""
        assert b"no input lines" in done.stderr


def test_missing_file_is_a_usage_error(run_cli, tmp_path):
    """A FILE that cannot be opened exits 2 and names it."""
    done = run_cli("target-scope", str(tmp_path / "nowhere.jsonl"))
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"nowhere.jsonl" in done.stderr


def test_unknown_command_is_a_usage_error(run_cli):
    """A mistyped command exits 2."""
    assert run_cli("target_scope").returncode == 2


# --- encoding -------------------------------------------------------------


def test_non_ascii_output_is_raw_utf8_in_javascript_order(run_cli):
    """Non-ASCII IDs come out as UTF-8, unescaped, sorted by UTF-16 code units."""
    done = run_cli("target-scope", stdin='{"original":["\uffff","😀","é","\ue000"],"rewritten":[]}\n')
    assert done.stdout == '{"missing":["é","😀","\ue000","\uffff"],"added":[],"preserved":false}\n'.encode()
    assert b"\\u" not in done.stdout


def test_escaped_input_comes_out_raw(run_cli):
    """\\u escapes in the input are decoded; the output writes the characters themselves."""
    done = run_cli("sentinels", stdin=b'{"baseline":{"caf\\u00e9":"R"},"proposed":{}}\n')
    assert done.stdout == '{"missing":["café"],"changed":[],"intact":false}\n'.encode()


def test_lone_surrogates_are_escaped_like_json_stringify(run_cli):
    """A lone surrogate cannot be UTF-8, so it is written as a lowercase \\udXXX escape."""
    done = run_cli("target-scope", stdin=b'{"original":["\\uD800","a\\uDFFF"],"rewritten":[]}\n')
    assert done.stdout == b'{"missing":["a\\udfff","\\ud800"],"added":[],"preserved":false}\n'
    assert done.returncode == 1


def test_control_characters_are_escaped_like_json_stringify(run_cli):
    """Tabs, newlines and other control characters use JSON.stringify's escapes."""
    done = run_cli("target-scope", stdin=b'{"original":["a\\tb","c\\u0001"],"rewritten":[]}\n')
    assert done.stdout == b'{"missing":["a\\tb","c\\u0001"],"added":[],"preserved":false}\n'


def test_non_utf8_line_is_bad_input_and_reading_goes_on(run_cli):
    """A Latin-1 line is an error object; the next line is still checked."""
    done = run_cli("target-scope", stdin=b'{"original":["caf\xe9"],"rewritten":[]}\n' + PASS.encode() + b"\n")
    assert output_lines(done) == [
        '{"line":1,"field":null,"error":"not UTF-8 text (byte 17)"}',
        '{"missing":[],"added":[],"preserved":true}',
    ]
    assert done.returncode == 4


# --- help -----------------------------------------------------------------


@pytest.mark.parametrize("args", [["--help"], ["target-scope", "--help"], ["sentinels", "--help"]])
def test_help_documents_every_exit_code_and_output(run_cli, args):
    """--help lists exit codes 0 to 4, the output objects and the held outcome."""
    done = run_cli(*args)
    assert done.returncode == 0
    text = done.stdout.decode("utf-8")
    for code in "01234":
        assert re.search(rf"^\s+{code}\s+\S", text, re.MULTILINE), f"exit code {code} missing"
    for phrase in ('"preserved"', '"intact"', "needs staff labels", '"line":N', "most serious"):
        assert phrase in text


# --- export-csv -----------------------------------------------------------


def test_export_csv_equals_the_committed_csv(run_cli):
    """`export-csv` writes exactly fixtures/filled_cases.csv."""
    done = run_cli("export-csv")
    assert done.returncode == 0
    assert done.stdout == filled_cases_csv().read_bytes()


def test_export_csv_to_a_file_and_for_one_check(run_cli, tmp_path):
    """-o writes the same bytes; --check keeps the header and that check's rows only."""
    out = tmp_path / "all.csv"
    assert run_cli("export-csv", "-o", str(out)).returncode == 0
    assert out.read_bytes() == filled_cases_csv().read_bytes()

    done = run_cli("export-csv", "--check", "sentinels")
    rows = done.stdout.decode("utf-8").splitlines()
    assert rows[0] == "check,id,title,input,expected,decision,reason"
    assert [row.split(",")[0] for row in rows[1:]] == ["sentinels"] * 3


# --- output that cannot be written ----------------------------------------


def test_results_naming_the_input_file_is_refused_and_the_input_kept(run_cli, tmp_path):
    """`--results` pointing at FILE would truncate the input before reading it."""
    path = tmp_path / "mine.jsonl"
    text = jsonl('{"original":["a"],"rewritten":["a"]}', '{"original":["a"],"rewritten":[]}')
    path.write_text(text, encoding="utf-8")
    done = run_cli("target-scope", str(path), "--summary-json", "--results", str(path))
    assert done.returncode == 2
    assert b"is the input file" in done.stderr
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("command", [["export-csv"], ["export-example", "--check", "sentinels"]])
def test_an_unwritable_output_path_exits_2_with_a_message(run_cli, tmp_path, command):
    done = run_cli(*command, "-o", str(tmp_path))
    assert done.returncode == 2
    assert f"cannot write {tmp_path}".encode() in done.stderr
    assert b"Traceback" not in done.stderr


def test_a_reader_closing_the_pipe_early_exits_2_without_a_traceback(tmp_path):
    """`... | head -1`: the run stops with exit 2, never a traceback or a verdict code."""
    import subprocess
    import sys

    path = tmp_path / "many.jsonl"
    path.write_text(jsonl(*['{"original":["a"],"rewritten":["a"]}'] * 50_000), encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "helpers", "target-scope", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    with process:
        first = process.stdout.readline()
        process.stdout.close()
        stderr = process.stderr.read()
        process.wait(timeout=60)
    assert first == b'{"missing":[],"added":[],"preserved":true}\n'
    assert process.returncode == 2
    assert b"output closed early" in stderr
    assert b"Traceback" not in stderr


def test_a_summary_with_a_lone_surrogate_id_is_written_escaped(run_cli):
    done = run_cli("target-scope", "--summary", stdin=jsonl('{"original":["\\ud800"],"rewritten":["x"]}'))
    assert done.returncode == 1
    assert 'lost "⟨U+D800⟩"' in done.stdout.decode("utf-8")
    assert b"Traceback" not in done.stderr


def test_a_number_too_long_to_read_is_a_clear_bad_line(run_cli):
    done = run_cli("target-scope", stdin=jsonl('{"original":[' + "9" * 5000 + '],"rewritten":[]}'))
    assert done.returncode == 4
    assert output_lines(done) == [
        '{"line":1,"field":null,"error":"a number has too many digits to read (more than 4300)"}'
    ]


def test_a_number_too_long_in_a_json_answer_key_is_a_clear_problem(run_cli, tmp_path):
    (tmp_path / "big.json").write_text('{"S1":' + "1" * 5000 + "}", encoding="utf-8")
    (tmp_path / "p.json").write_text('{"S1":"R"}', encoding="utf-8")
    done = run_cli("sentinels", "--baseline", "big.json", "--proposed", "p.json")
    assert done.returncode == 4
    assert output_lines(done) == [
        '{"source":"big.json","line":1,"field":"S1",'
        '"error":"a number has too many digits to read (more than 4300)"}'
    ]
    assert b"set_int_max_str_digits" not in done.stdout + done.stderr


@pytest.mark.parametrize("summary", [(), ("--summary",)])
def test_a_line_of_only_space_like_characters_is_named_not_blank(run_cli, summary):
    done = run_cli("target-scope", *summary, stdin="\x1c" * 300 + "\n")
    assert done.returncode == 4
    message = "only space-like characters (300, starting with U+001C), expected a JSON object"
    text = done.stdout.decode("utf-8") + done.stderr.decode("utf-8")
    assert message in text
    assert "blank" not in text
    if not summary:
        assert output_lines(done) == ['{"line":1,"field":null,"error":"' + message + '"}']
