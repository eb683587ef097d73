"""A batch run as HTML tables (:mod:`helpers.team.views.batch_html`): every string escaped, with a plain-text twin."""

from __future__ import annotations

from helpers.team.batch import BatchSummary, check_answer_keys, check_records
from helpers.team.reports import key_check_text
from helpers.team.sources import AnswerKey
from helpers.team.views.batch_html import exit_status_table, failures_table, key_check_table, summary_table

LINES = [
    b'{"id":"<r1>","original":["a<b"],"rewritten":[]}',
    b'{"original":["a"],"rewritten":["a"]}',
    b'{"id":7,"original":["c"],"rewritten":["d"]}',
]


def _summary(max_failures: int = 100) -> BatchSummary:
    return check_records(LINES, BatchSummary("target-scope", "<in>.jsonl", max_failures=max_failures))


def test_the_summary_table_escapes_the_source_and_ends_with_the_exit_status():
    block = summary_table(_summary())
    assert "<b>Target scope: &lt;in&gt;.jsonl</b>: 3 records checked" in block.html
    assert "<tr><td>not preserved</td><td>2</td><td>66.7%</td></tr>" in block.html
    assert '<td style="padding-left:2em">lost targets</td><td>1</td><td></td>' in block.html
    assert '<td style="padding-left:2em">lost and added</td><td>1</td><td></td>' in block.html
    assert block.html.endswith("<p>Exit status <b>1</b>: a check failed</p></div>")
    assert block.text.splitlines()[-1] == "exit status 1: a check failed"
    assert "<in>" not in block.html


def test_the_failures_table_names_each_line_id_and_why_and_says_when_it_is_cut():
    block = failures_table(_summary(max_failures=1))
    assert block.text.splitlines() == [
        "The first 1 of 2 records that did not pass:",
        'line 1 (id "<r1>"): not preserved: lost "a<b"',
    ]
    assert "<code>&lt;r1&gt;</code>" in block.html and "lost &quot;a&lt;b&quot;" in block.html
    every = failures_table(_summary())
    assert every.text.splitlines()[0] == "The 2 records that did not pass:"
    assert "<code>7</code>" in every.html  # an id that is not a string, described


def test_with_no_failure_every_record_passed():
    summary = check_records(LINES[1:2], BatchSummary("target-scope", "in.jsonl"))
    block = failures_table(summary)
    assert (block.html, block.text) == ("<p>Every record passed.</p>", "Every record passed.")


def test_the_key_check_table_holds_the_text_report_a_finding_a_row():
    check = check_answer_keys(
        AnswerKey("b.json", "json", {"S1": "R", "S2": "<A>"}), AnswerKey("p.json", "json", {"S1": "R"})
    )
    block = key_check_table(check)
    text = key_check_text(check).rstrip("\n")
    assert block.text == text
    assert block.html.count("<tr><td><code>") == len(text.split("\n")) - 1
    assert "<A>" not in block.html


def test_the_exit_status_table_lists_each_verdict_least_serious_first_and_how_two_combine():
    block = exit_status_table()
    lines = block.text.splitlines()
    assert [line.split(":")[0] for line in lines[:4]] == ["0", "1", "3", "4"]
    assert lines[2] == "3: held: a rewrite needs staff labels (e.g. a rewrite held for staff labels)"
    assert "1 with 3 gives 3" in lines[4] and "3 with 4 gives 4" in lines[4]
    assert lines[5].startswith("Status 2 is not a verdict")
    assert block.html.count('<th scope="row">') == 4
