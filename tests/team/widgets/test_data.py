"""The check-your-data panel, driven without a front end: set values, click, read the HTML."""

from __future__ import annotations

import datetime
import json

import pytest

from helpers.team.widgets.data import DataCheckPanel


def upload(name: str, data: bytes) -> tuple[dict, ...]:
    """What a FileUpload's ``.value`` holds after one file is chosen."""
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    return (
        {"name": name, "type": "", "size": len(data), "content": memoryview(data), "last_modified": when},
    )


def test_starts_on_the_sample_and_checks_it():
    panel = DataCheckPanel()
    assert (
        "<b>Target scope: fixtures/sample_data/rewrites.jsonl</b>: 24 records checked" in panel.summary.value
    )
    assert "Exit status <b>4</b>" in panel.summary.value
    assert panel.progress.value == 1.0
    assert panel.chart_png.startswith(b"\x89PNG")
    assert 'alt="Bar chart. outcomes:' in panel.chart.value and "data:image/png;base64," in panel.chart.value
    assert "The 14 records that did not pass" in panel.failures.value
    assert "lost &quot;refresher&quot;" in panel.failures.value
    assert panel.describe().splitlines()[-1] == (
        "  last run: 24 records (preserved 10, not preserved 8, needs staff labels 2, bad input 4); exit status 4"
    )


def test_without_run_nothing_is_checked_until_the_button():
    panel = DataCheckPanel(run=False)
    assert panel.summary.value == "" and panel.chart_png == b""
    panel.check_button.click()
    assert "24 records checked" in panel.summary.value


def test_an_upload_wins_over_the_path_and_is_escaped():
    panel = DataCheckPanel(run=False)
    panel.records.upload.value = upload(
        "<mine>.jsonl",
        b'{"id":"<b>x</b>","original":["<i>a</i>"],"rewritten":[]}\n{"original":["a"],"rewritten":["a"]}\n',
    )
    panel.check_button.click()
    assert "Checked <code>&lt;mine&gt;.jsonl</code>" in panel.status.value
    assert "2 records checked" in panel.summary.value
    assert "<i>" not in panel.failures.value and "&lt;i&gt;a&lt;/i&gt;" in panel.failures.value
    assert "&lt;b&gt;x&lt;/b&gt;" in panel.failures.value
    assert "Records: upload <mine>.jsonl" in panel.describe()


def test_a_csv_upload():
    panel = DataCheckPanel(run=False)
    panel.records.upload.value = upload("r.csv", b'id,original,rewritten\nc1,"[""a""]","[]"\n')
    panel.check_button.click()
    assert "1 records checked" in panel.summary.value and "Exit status <b>1</b>" in panel.summary.value


def test_a_csv_upload_with_a_list_separator():
    panel = DataCheckPanel(run=False)
    panel.records.upload.value = upload("r.csv", b"id,original,rewritten\nc1,a;b,b;a\nc2,a;b,a\n")
    panel.separator.value = ";"
    panel.check_button.click()
    assert "2 records checked" in panel.summary.value and "lost &quot;b&quot;" in panel.failures.value
    assert "CSV list separator: ';'" in panel.describe()
    panel.records.upload.value = upload("r.jsonl", b'{"original":["a"],"rewritten":["a"]}\n')
    panel.check_button.click()
    assert "applies only to a .csv file" in panel.status.value


def test_a_path_that_cannot_be_read_shows_an_error_not_a_traceback(tmp_path):
    panel = DataCheckPanel(run=False)
    panel.records.path.value = "nowhere/data.jsonl"
    panel.check_button.click()
    assert "Cannot check this input" in panel.status.value and "nowhere/data.jsonl" in panel.status.value
    assert panel.summary.value == "" and panel.chart.layout.display == "none"
    (tmp_path / "notes.txt").write_text("{}")
    panel.records.path.value = str(tmp_path / "notes.txt")
    panel.check_button.click()
    assert "cannot tell the format" in panel.status.value
    panel.records.path.value = " "
    panel.check_button.click()
    assert "type a file path or upload a file" in panel.status.value


def test_answer_keys_from_the_sample():
    panel = DataCheckPanel(run=False)
    panel.kind.value = "sentinels"
    assert panel.records.widget.layout.display == "none" and panel.keys.layout.display == ""
    panel.check_button.click()
    assert "outcome: hold before scoring" in panel.summary.value
    assert "changed &quot;S2&quot;: A{+·+}" in panel.summary.value
    assert panel.describe().splitlines()[-1] == "  last run: hold before scoring; exit status 1"


@pytest.mark.parametrize(
    ("baseline", "proposed", "expected"),
    [
        (("b.json", b'{"S1":"R"}'), ("p.jsonl", b'{"id":"S1","answer":"R"}\n'), "outcome: intact"),
        (
            ("b.jsonl", b'{"id":"S1","answer":"R"}\n{"id":"S1","answer":"Q"}\n'),
            ("p.json", b"{}"),
            "duplicate ID &quot;S1&quot; (first given on line 1)",
        ),
    ],
)
def test_answer_key_uploads(baseline, proposed, expected):
    panel = DataCheckPanel(run=False)
    panel.kind.value = "sentinels"
    panel.baseline.upload.value = upload(*baseline)
    panel.proposed.upload.value = upload(*proposed)
    panel.check_button.click()
    assert expected in panel.summary.value


def test_the_widget_repr_is_the_description():
    panel = DataCheckPanel()
    bundle = panel._repr_mimebundle_()
    assert bundle["text/plain"] == panel.describe()
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_target_ids_that_look_like_math_or_hold_a_lone_surrogate_still_chart():
    records = [
        {"id": "r1", "original": ["$\\frac{$", "k"], "rewritten": ["k"]},
        {"id": "r2", "original": ["$x_1$", "k"], "rewritten": ["k"]},
        {"id": "r3", "original": ["\ud800", "k"], "rewritten": ["k"]},
    ]
    data = "\n".join(json.dumps(record) for record in records).encode("ascii")
    panel = DataCheckPanel(run=False)
    panel.records.upload.value = upload("odd.jsonl", data)
    panel.check_button.click()
    assert "Checked <code>odd.jsonl</code>" in panel.status.value
    assert "3 records checked" in panel.summary.value
    assert panel.chart_png.startswith(b"\x89PNG") and panel.chart.layout.display == ""
    assert "The 3 records that did not pass" in panel.failures.value


def test_changing_the_mode_clears_a_stale_error_and_the_other_results():
    panel = DataCheckPanel(run=False)
    panel.records.path.value = "nowhere/data.jsonl"
    panel.check_button.click()
    assert "Cannot check this input" in panel.status.value
    panel.kind.value = "sentinels"
    assert panel.status.value == "" and panel.summary.value == "" and panel.chart_png == b""
    panel.check_button.click()
    assert "Checked" in panel.status.value
    panel.kind.value = "target-scope"
    assert panel.status.value == "" and panel.summary.value == ""


def test_the_mode_and_the_button_have_different_names():
    panel = DataCheckPanel(run=False)
    assert panel.kind.description != panel.check_button.description
    assert "Check" not in panel.kind.description.split()
