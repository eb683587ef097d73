"""A check-out file's format: its kind and version read strictly, its schema checked, and its digest."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import re

import pytest
from checkout_papers import fixed_paper
from hypothesis import given
from hypothesis import strategies as st

from helpers.core.errors import CheckoutFileError
from helpers.core.jsonio import dumps_compact
from helpers.trainer.checkout_format import (
    ANSWERS_FORMAT,
    KEY_FORMAT,
    PAPER_FORMAT,
    RESULT_FORMAT,
    VERSION,
    check_signed_shape,
    digest,
    parse_file,
    read_file,
    utc_now,
)

#: One fixed paper and key, made once (the tests only read them).
_issued = functools.cache(fixed_paper)


def test_now_is_utc_to_the_second() -> None:
    now = utc_now()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", now)
    then = dt.datetime.fromisoformat(now.replace("Z", "+00:00"))
    assert abs((dt.datetime.now(dt.UTC) - then).total_seconds()) < 5


@given(st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=5))
def test_the_digest_is_the_sha256_of_compact_json(value) -> None:
    expected = hashlib.sha256(dumps_compact(value).encode("utf-8")).hexdigest()
    assert digest(value) == expected and re.fullmatch(r"[0-9a-f]{64}", expected)
    assert digest({"a": [1, 2]}) == hashlib.sha256(b'{"a":[1,2]}').hexdigest()


def test_a_paper_is_read_back_as_written(tmp_path) -> None:
    paper = _issued().paper
    assert paper["format"] == PAPER_FORMAT and paper["version"] == VERSION
    path = tmp_path / "paper.json"
    path.write_text(json.dumps(paper), encoding="utf-8")
    assert read_file(path, PAPER_FORMAT) == paper
    assert parse_file(json.dumps(paper).encode(), PAPER_FORMAT, "p.json") == paper


@pytest.mark.parametrize("fmt", [KEY_FORMAT, ANSWERS_FORMAT, RESULT_FORMAT])
def test_a_file_of_another_kind_is_refused_naming_the_kind_asked_for(fmt) -> None:
    raw = json.dumps(_issued().paper).encode()
    with pytest.raises(CheckoutFileError, match=f'it has no "format": "{fmt}"') as refused:
        parse_file(raw, fmt, "p.json")
    assert refused.value.path == "p.json"


@pytest.mark.parametrize(("version", "shown"), [(2, "2"), (True, "true"), (None, "null"), ("1", '"1"')])
def test_any_other_version_is_refused(version, shown) -> None:
    paper = {**_issued().paper, "version": version}
    with pytest.raises(
        CheckoutFileError, match=f"has version {re.escape(shown)}; these helpers read version 1"
    ):
        parse_file(json.dumps(paper).encode(), PAPER_FORMAT, "p.json")


def test_bad_json_and_a_paper_its_schema_refuses_are_refused() -> None:
    with pytest.raises(CheckoutFileError):
        parse_file(b"{not json", PAPER_FORMAT, "p.json")
    with pytest.raises(CheckoutFileError):
        parse_file(json.dumps([PAPER_FORMAT]).encode(), PAPER_FORMAT, "p.json")
    paper = {**_issued().paper, "extra": 1}
    with pytest.raises(CheckoutFileError, match="extra"):
        parse_file(json.dumps(paper).encode(), PAPER_FORMAT, "p.json")


def test_a_signed_file_is_left_to_its_signature_check_first() -> None:
    key = {**_issued().key, "extra": 1}
    raw = json.dumps(key).encode()
    assert parse_file(raw, KEY_FORMAT, "k.json", signed=True) == key  # the schema is not checked here

    checked: list[tuple[str, str]] = []

    class Trainer:
        def verify(self, kind, body, signature, *, source, extra=None) -> None:
            checked.append((kind, source))
            raise CheckoutFileError("was not signed by this trainer", path=source)

    with pytest.raises(CheckoutFileError, match="was not signed by this trainer"):
        check_signed_shape(KEY_FORMAT, key, "k.json", Trainer())
    assert checked == [("key", "k.json")]
    with pytest.raises(CheckoutFileError, match="extra"):
        check_signed_shape(KEY_FORMAT, key, "k.json", None)
