"""The galleries' fixture read strictly (``fixtures/edge_cases.json``): what it promises, and a malformed
entry named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.core.errors import InvalidInputError
from helpers.trainee.views import edge_cases as fixture
from helpers.trainee.views import gallery
from helpers.trainee.views.edge_cases import case_files, edge_cases, sources
from helpers.trainee.views.shown import exact_output

CHECKS = ("target-scope", "sentinels")


@pytest.mark.parametrize("check", CHECKS)
def test_each_gallery_covers_the_rules_it_promises(check: str) -> None:
    cases = edge_cases(check)
    groups = {case.group for case in cases}
    assert {"Order", "Refused input"} <= groups
    refused = [c for c in cases if exact_output(check, c.line).refused]
    # Every refused input names a different problem: no message shown twice.
    messages = [exact_output(check, c.line).output["refused"] for c in refused]
    assert len(set(messages)) == len(messages) >= 8


def _fixture(tmp_path: Path, entry: dict, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "edge_cases.json"
    path.write_text(json.dumps({"edge_cases": [entry], "sources": []}), encoding="utf-8")
    monkeypatch.setattr(fixture, "edge_cases_json", lambda: path)
    return path


def test_a_malformed_entry_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = {"check": "sentinels", "group": "G", "title": "T", "why": "W"}
    _fixture(tmp_path, {**base, "input": {}, "line": "{}"}, monkeypatch)
    with pytest.raises(InvalidInputError, match=r'edge_cases\[0\] needs exactly one of "input" and "line"'):
        edge_cases("sentinels")
    _fixture(tmp_path, {**base, "why": " ", "input": {}}, monkeypatch)
    with pytest.raises(InvalidInputError, match=r"edge_cases\[0\]\.why must be a non-empty string"):
        edge_cases("sentinels")
    _fixture(tmp_path, {**base, "check": "nope", "input": {}}, monkeypatch)
    with pytest.raises(InvalidInputError, match=r"edge_cases\[0\]\.check"):
        edge_cases("sentinels")
    with pytest.raises(InvalidInputError, match="no gallery group 'Nope'"):
        _fixture(tmp_path, {**base, "input": {"baseline": {"S1": "A"}, "proposed": {}}}, monkeypatch)
        gallery.gallery("sentinels", ["Nope"])


def test_a_malformed_case_file_entry_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(fixture.edge_cases_json().read_text(encoding="utf-8"))
    data["case_files"] = [{"title": "T", "why": "W", "name": "cases.txt", "text": ""}]
    path = tmp_path / "edge_cases.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(fixture, "edge_cases_json", lambda: path)
    with pytest.raises(InvalidInputError, match=r"case_files\[0\]\.name must end in \.csv or \.json"):
        case_files()


def test_repeats_in_a_source_line_are_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "edge_cases.json"
    bad = {"check": "sentinels", "title": "T", "why": "W", "lines": [["a", {"repeat": "b", "times": 0}]]}
    path.write_text(json.dumps({"edge_cases": [], "sources": [bad]}), encoding="utf-8")
    monkeypatch.setattr(fixture, "edge_cases_json", lambda: path)
    with pytest.raises(InvalidInputError, match=r"sources\[0\]\.lines\[0\]\[1\] repeats a string"):
        sources()
    good = {**bad, "lines": [["a", {"repeat": "b", "times": 3}, "c"]]}
    path.write_text(json.dumps({"edge_cases": [], "sources": [good]}), encoding="utf-8")
    assert sources()[0].lines == (b"abbbc",)
