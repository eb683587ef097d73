"""A hostile ID changes no widget's markup: escaped by construction, it can add no element or attribute.

IDs are adversarial by design (look-alikes, invisible characters), and a trainee's file names and
names are theirs to choose. Each test feeds one hostile string (markup, quotes, bidi controls, a
lone surrogate, ``str.format`` braces) through a widget or the cohort view, and a benign string of
the same shape through the same steps, then parses every HTML value both made: the same sequence
of (tag, attribute names), and no ``<script``. Driven headless: a callback that raises fails the
test (``tests/conftest.py``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import ipywidgets as w
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainee.cases.filled import Case
from helpers.trainee.drill.case_view import CaseView
from helpers.trainee.grading import Answer
from helpers.trainee.widgets import CaseExercise
from helpers.trainee.widgets.case_area import CaseArea
from helpers.trainee.widgets.mastery import MasteryDrill
from helpers.trainer.checkout import sample_paper_path
from helpers.trainer.cohort import Cohort, load_cohort, sample_progress_dir
from helpers.trainer.paper import issue_checkout, load_paper
from helpers.trainer.views.cohort_views import cohort_table, hardest_table, item_table
from helpers.trainer.widgets import CheckoutWidget

#: Pieces a hostile ID is made of; each is paired with a benign piece of its own.
HOSTILE = (
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "</code></td></tr></table>",
    "<!--",
    "-->",
    '"',
    "'",
    "&amp;",
    "&lt;b&gt;",
    "\u202e",  # right-to-left override
    "\u2066",  # left-to-right isolate
    "\u200f",  # right-to-left mark
    "\ud800",  # a lone surrogate
    "{",
    "}",
    "{0}",
    "{x!r:>{y}}",
)
SAFE = st.text(alphabet="abcxyz019-_.", min_size=1, max_size=4)


@st.composite
def hostile_and_benign(draw: st.DrawFn, *, surrogates: bool = True) -> tuple[str, str]:
    """A hostile string holding at least one hostile piece, and a benign one built the same way."""
    pieces = [p for p in HOSTILE if surrogates or p != "\ud800"]
    parts = draw(
        st.lists(
            st.one_of(st.sampled_from(pieces).map(lambda p: (p, True)), SAFE.map(lambda s: (s, False))),
            max_size=4,
        )
    )
    parts.insert(draw(st.integers(0, len(parts))), (draw(st.sampled_from(pieces)), True))
    hostile = "".join(text for text, _ in parts)
    benign = "".join(f"id{index}" if bad else text for index, (text, bad) in enumerate(parts))
    return hostile, benign


class _Shape(HTMLParser):
    """The markup's shape: each start tag with its attribute names, end tags, comments and declarations."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.shape: list[tuple[str, ...]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.shape.append(("start", tag, *sorted(name for name, _ in attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.shape.append(("startend", tag, *sorted(name for name, _ in attrs)))

    def handle_endtag(self, tag: str) -> None:
        self.shape.append(("end", tag))

    def handle_comment(self, data: str) -> None:
        self.shape.append(("comment",))

    def handle_decl(self, decl: str) -> None:
        self.shape.append(("decl",))


def shape(markup: str) -> list[tuple[str, ...]]:
    parser = _Shape()
    parser.feed(markup)
    parser.close()
    return parser.shape


def html_values(widget: w.Widget) -> Iterator[str]:
    """Every HTML value under ``widget``, and every checkbox label shown as HTML."""
    if isinstance(widget, w.HTML):
        yield widget.value
    if isinstance(widget, w.Checkbox) and widget.description_allow_html:
        yield widget.description
    for child in getattr(widget, "children", ()) or ():
        yield from html_values(child)


def assert_same_shape(run: Callable[[str], list[str]], hostile: str, benign: str) -> None:
    """``run`` records the HTML a widget shows over its steps; hostile and benign must have one shape."""
    bad, good = run(hostile), run(benign)
    assert len(bad) == len(good)
    for bad_html, good_html in zip(bad, good, strict=True):
        assert "<script" not in bad_html.lower()
        assert shape(bad_html) == shape(good_html), bad_html
        bad_html.encode("utf-8")  # a lone surrogate never makes an output unsendable


def _exercise_run(text: str) -> list[str]:
    case = Case(
        "target-scope",
        text,
        "Title " + text,
        {"original": [text, "k"], "rewritten": ["k"]},
        {"missing": [text], "added": [], "preserved": False},
        "Reject " + text,
        "Because " + text,
    )
    shown: list[str] = []
    exercise = CaseExercise(case)
    shown += html_values(exercise.widget)
    exercise.check()  # the flag unset: it names what is unset
    exercise.set_answer(Answer("target-scope", missing=frozenset({text}), second=frozenset({"k"}), flag=True))
    exercise.check()
    for _ in range(3):
        exercise.hint()
    exercise.show_worked_answer()
    shown += html_values(exercise.widget)
    labelled = CaseExercise(case, label=text)
    shown += html_values(labelled.widget)
    return shown


@settings(max_examples=examples(40), deadline=None)
@given(ids=hostile_and_benign())
def test_a_hostile_id_changes_no_markup_of_the_exercise(ids: tuple[str, str]) -> None:
    assert_same_shape(_exercise_run, *ids)


def _case_area_run(text: str) -> list[str]:
    view = CaseView(
        number=1,
        label="Case " + text,
        check="target-scope",
        input={"original": (text, "k"), "rewritten": ("k",), "note": text},
        fields=("missing", "added", "preserved"),
        ids=(text, "k"),
        reason_options=(("Because " + text, "rule-a"), ("Or " + text, "rule-b")),
        hold_label="Hold",
    )
    result = SimpleNamespace(correct=False, mistakes=[("missing", f"`missing` lacks `{text}`")], scored=True)
    engine = SimpleNamespace(
        current=view,
        check=lambda _answer: result,
        current_scored=SimpleNamespace(outcome="missed"),
        scored_rule=text,
    )
    area = CaseArea(lambda: engine, [], on_scored=lambda: None, next_label="Next " + text)
    area.show(view)
    shown = list(html_values(area.widget))
    area.check()  # unset: named, nothing checked
    shown += html_values(area.widget)
    assert area.inputs is not None
    area.inputs.first_boxes[text].value = True
    area.inputs.flag.value = False
    area.inputs.reason.value = "rule-a"
    area.check()
    shown += html_values(area.widget)
    return shown


@settings(max_examples=examples(40), deadline=None)
@given(ids=hostile_and_benign())
def test_a_hostile_id_changes_no_markup_of_the_case_area(ids: tuple[str, str]) -> None:
    assert_same_shape(_case_area_run, *ids)


def _mastery_run(text: str, folder: Path) -> list[str]:
    drill = MasteryDrill(seed=3, path=folder / "no-such-folder" / f"{text}.json", autoload=False)
    drill.trainee.value = text
    shown = list(html_values(drill.widget))
    drill.load(confirmed=True)  # refused: the file is not there; the message names the path
    shown += html_values(drill.widget)
    drill.save()  # refused: the folder is not there
    shown += html_values(drill.widget)
    drill.path.value = str(folder / "saved.json")
    drill.save()
    drill.load(confirmed=True)
    shown += html_values(drill.widget)
    return shown


@settings(max_examples=examples(20), deadline=None)
@given(ids=hostile_and_benign(surrogates=False))
def test_a_hostile_file_name_or_trainee_changes_no_markup_of_the_mastery_drill(
    ids: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    hostile, benign = ids
    hostile = hostile.replace("/", "⁄")
    benign = benign.replace("/", "⁄")
    folder = tmp_path_factory.mktemp("drill")
    assert_same_shape(
        lambda text: _mastery_run(text, folder / ("h" if text == hostile else "b")), hostile, benign
    )


@pytest.fixture(scope="module")
def own_paper() -> dict[str, Any]:
    """A paper issued to a trainee, as ``checkout issue`` writes it."""
    issued = issue_checkout("Kai", seed=7, issued="2026-12-01T09:00:00Z", sequential=False)
    return dict(json.loads(json.dumps(issued.paper)))


@settings(max_examples=examples(20), deadline=None)
@given(ids=hostile_and_benign())
def test_a_hostile_name_or_source_changes_no_markup_of_the_checkout(
    ids: tuple[str, str], own_paper: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> None:
    def run(text: str) -> list[str]:
        widget = CheckoutWidget(load_paper(sample_paper_path()), papers_dir=tmp_path_factory.mktemp("papers"))
        widget.open_paper({**own_paper, "trainee": text}, text)
        shown = list(html_values(widget.widget))
        widget.submit()  # everything unset: named, nothing sent
        shown += html_values(widget.widget)
        widget.open_paper({**own_paper, "trainee": "other"}, "again " + text)  # unsaved answers: asks first
        shown += html_values(widget.widget)
        return shown

    assert_same_shape(run, *ids)


@pytest.fixture(scope="module")
def cohort() -> Cohort:
    return load_cohort([sample_progress_dir()])


@settings(max_examples=examples(40), deadline=None)
@given(ids=hostile_and_benign())
def test_a_hostile_name_file_or_reason_changes_no_markup_of_the_cohort_views(
    ids: tuple[str, str], cohort: Cohort
) -> None:
    def run(text: str) -> list[str]:
        trainees = tuple(
            dataclasses.replace(t, name=f"{text} {n}", file=f"{text}.json", problems=(f"bad {text}",))
            for n, t in enumerate(cohort.trainees)
        )
        shown = dataclasses.replace(
            cohort, trainees=trainees, unreadable=((f"{text}.json", f"not JSON: {text}"),)
        )
        blocks = (cohort_table(shown), item_table(shown), hardest_table(shown))
        return [page for block in blocks for page in (block.html, block._repr_html_())]

    assert_same_shape(run, *ids)


def test_the_shape_tells_an_injected_element_or_attribute() -> None:
    assert shape('<p class="a">x</p>') != shape('<p class="a" onclick="y">x</p>')
    assert shape("<p>x</p>") != shape("<p>x<script>y</script></p>")
    assert shape("<p>&lt;script&gt;</p>") == shape("<p>id0</p>")
