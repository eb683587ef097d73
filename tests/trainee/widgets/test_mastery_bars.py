"""The mastery drill's progress panel (``helpers/trainee/widgets/mastery_bars.py``): bars, kinds, the record."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from trainees import perfect, run

from helpers.trainee.drill.mastery import Mastery, drill_facets
from helpers.trainee.drill.model import MASTERY_STREAK
from helpers.trainee.widgets.mastery_bars import FACET_NAMES, bar_lines, bars_html, cases_worded, rule_bar


def test_a_rules_bar_fills_with_its_streak_and_says_when_mastered() -> None:
    assert [rule_bar("ts-lost", n, False) for n in range(4)] == [
        "ts-lost □□□ 0/3",
        "ts-lost ■□□ 1/3",
        "ts-lost ■■□ 2/3",
        "ts-lost ■■■ 3/3",
    ]
    assert rule_bar("ts-lost", 9, False) == "ts-lost ■■■ 3/3"
    assert rule_bar("sk-missing", 0, True) == "sk-missing ■■■ ✔ mastered"


@given(st.integers(0, 20), st.booleans())
def test_a_bar_always_holds_the_streak_many_blocks(streak: int, mastered: bool) -> None:
    bar = rule_bar("r", streak, mastered).split(" ")[1]
    assert len(bar) == MASTERY_STREAK and bar == "■" * bar.count("■") + "□" * bar.count("□")


def test_the_lines_are_the_rules_then_the_kinds_by_name() -> None:
    rules = ["ts-lost", "ts-exact-ids"]
    m = Mastery.start(rules, seed=1, facets=drill_facets(rules))
    lines = bar_lines(m)
    assert lines[:2] == ["ts-lost □□□ 0/3", "ts-exact-ids □□□ 0/3"]
    assert lines[2:] == [f"look-alike: {FACET_NAMES[f]} — not yet mastered" for f in m.facets]
    assert [cases_worded(n) for n in (0, 1, 2)] == ["0 cases", "1 case", "2 cases"]


def test_a_fresh_panel_has_no_record_and_a_demo_says_so() -> None:
    m = Mastery.start(["ts-lost", "sk-missing"], seed=5, facets=())
    shown = bars_html(m, bar_lines(m), [], demo=True)
    assert '<p class="eic-demo-seed"><b>Demo drill</b> (fixed seed 5)' in shown
    assert "Whole record" not in shown and "Due for review" not in shown and "Complete" not in shown
    assert "(0 of 0 mastered); 0 cases worked</summary>" in shown
    assert 'aria-label="Look-alike kinds"' not in shown
    assert shown.count('<li class="eic-learning"><code>') == 2


def test_a_worked_panel_shows_the_record_the_rules_due_and_escapes_them() -> None:
    session, _ = run(perfect, 2, limit=4)
    m = session.mastery
    shown = bars_html(m, bar_lines(m), ["<ts-lost>"], demo=False)
    assert "<p><b>Whole record:</b> 4 of your 4 cases right unaided; at least " in shown
    assert "<p><b>Due for review today:</b> &lt;ts-lost&gt;. They come first.</p>" in shown
    assert "eic-demo-seed" not in shown and "4 cases worked</summary>" in shown
