"""``shown_path``: a path as text safe to show, every control character and lone surrogate escaped."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from helpers.trainee.progress.paths import shown_path


def _escaped_one_by_one(text: str) -> str:
    return "".join(
        char if char.isprintable() and not "\ud800" <= char <= "\udfff" else ascii(char)[1:-1]
        for char in text
    )


def test_plain_paths_are_shown_as_they_are() -> None:
    assert shown_path("cohort/trainee-0001.json") == "cohort/trainee-0001.json"
    assert shown_path("élève/ﬁle—α.json") == "élève/ﬁle—α.json"


def test_control_characters_and_lone_surrogates_are_escaped() -> None:
    assert shown_path("a\nb\x1b[31m.json") == "a\\nb\\x1b[31m.json"
    assert shown_path("bad\udcff.json") == "bad\\udcff.json"
    assert shown_path("\u200bhidden") == "\\u200bhidden"  # a format character is not printable


@given(st.text(alphabet=st.characters(codec=None, exclude_categories=())))
def test_shown_path_escapes_exactly_what_is_not_printable(text: str) -> None:
    shown = shown_path(text)
    assert shown == _escaped_one_by_one(text)
    assert shown.isprintable()
