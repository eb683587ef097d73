"""The mastery drill widget: a thin view over the drill engine, driven with no front end."""

from __future__ import annotations

import base64
import datetime
import html
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from trainees import _blind_answer

from helpers.team.widgets import DataCheckPanel
from helpers.trainee.drill.model import FACET_STREAK, MASTERY_STREAK
from helpers.trainee.grading import Answer, answer_fields, correct_answer
from helpers.trainee.progress.files import load_trainee_progress
from helpers.trainee.widgets import MasteryDrill, PracticeDrill
from helpers.trainee.widgets.progress_transfer import LITE_SAVE_NOTE


def _started(drill: MasteryDrill) -> MasteryDrill:
    """``drill`` after its Start button is pressed: the trainee's own drill, its first case on show."""
    drill.start_button.click()
    return drill


def _right(drill: MasteryDrill) -> None:
    view = drill.view
    assert view is not None
    drill.set_answer(_blind_answer(view, None))
    drill.check_button.click()
    drill.next_button.click()


def test_the_drill_runs_to_completion_and_says_so() -> None:
    drill = _started(MasteryDrill(check="sentinels"))
    assert "sk-changed □□□ 0/3" in drill.describe()
    while not drill.session.complete:
        _right(drill)
    m = drill.session.mastery
    # one check's drill: each rule's streak and each look-alike kind's, at most (the whole drill is in
    # test_mastery_validity.py: within four cases per rule)
    assert m.step <= MASTERY_STREAK * len(m.rules) + FACET_STREAK * len(m.facets)
    assert "✔ Complete" in drill.bars.value and "(clears the bar)" in drill.bars.value
    assert "sk-changed ■■■ ✔ mastered" in drill.describe()
    assert "0 hints used, 0 reveals" in drill.completion_text()


def test_the_whole_record_says_how_far_it_is_from_the_bar_and_what_the_bar_proves() -> None:
    drill = _started(MasteryDrill(check="sentinels"))
    for _ in range(5):
        _right(drill)
    shown = drill.bars.value
    assert (
        "<b>Whole record:</b> 5 of your 5 cases right unaided; at least 22 more right to clear the bar"
        in shown
    )
    assert "someone right 85% of the time or less reaches at most 5% of the time" in shown
    assert "(clears the bar)" not in shown and "✔ Complete" not in shown


def test_the_case_is_labelled_by_number_and_its_rule_named_only_after_the_check() -> None:
    drill = _started(MasteryDrill())
    view = drill.view
    assert view is not None
    shown = drill.case_view.value + drill.describe()
    assert f"</b> for {view.label}:" in drill.case_view.value
    rule = drill.session._open.rule  # what the engine keeps to itself
    assert rule not in drill.case_view.value and "This case was about" not in shown
    drill.check_button.click()  # blank: it says what is unset and scores nothing
    assert drill.session.attempts == [] and "Still unset" in drill.feedback.value
    right = _blind_answer(view, None)
    wrong = next(rule for _text, rule in view.reason_options if rule != right.reason)
    drill.set_answer(replace(right, reason=wrong))
    drill.check_button.click()
    assert drill.session.attempts[-1].outcome == "missed"
    assert (
        "✘ Scored: missed." in drill.scored_view.value and f"<code>{rule}</code>" in drill.scored_view.value
    )
    drill.set_answer(_blind_answer(view, None))
    drill.check_button.click()
    assert drill.session.mastery.step == 1  # only the first check counts
    assert "does not change your score" in drill.scored_view.value
    assert "Fully correct" in drill.feedback.value


def test_a_hinted_answer_is_helped_a_reveal_is_a_miss_and_hints_clear_when_fully_correct() -> None:
    drill = _started(MasteryDrill())
    drill.hint_button.click()
    assert "Hint 1 of 3" in drill.hint_view.value
    drill.set_answer(_blind_answer(drill.view, None))
    drill.check_button.click()
    assert drill.session.attempts[-1].outcome == "helped"
    assert "helped by a hint" in drill.scored_view.value
    assert drill.hint_view.value == ""  # old hints cleared after "Fully correct"
    drill.next_button.click()
    drill.reveal_button.click()
    assert drill.session.attempts[-1].outcome == "revealed"
    assert "Expected structured output" in drill.reveal.value
    drill.reveal_button.click()
    assert drill.reveal.value == ""


def test_skipping_a_case_counts_as_a_miss() -> None:
    drill = _started(MasteryDrill())
    assert drill.next_button.description == "Skip this case (counts as a miss)"
    drill.next_button.click()
    assert [a.outcome for a in drill.session.attempts] == ["skipped"]


def test_an_unsaved_work_indicator_and_start_again_asks_first(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    drill = _started(MasteryDrill(path=path, trainee="Ada"))
    _right(drill)
    assert "Unsaved work" in drill.unsaved.value and "1 case since" in drill.unsaved.value
    drill.save_button.click()
    assert "Everything is saved" in drill.unsaved.value
    drill.restart_button.click()
    assert drill.session.mastery.step == 1  # not yet: it asks first
    assert drill.confirm_row.layout.display == "flex"
    drill.cancel_restart_button.click()
    assert drill.session.mastery.step == 1 and drill.confirm_row.layout.display == "none"
    drill.restart_button.click()
    drill.confirm_restart_button.click()
    assert drill.session.mastery.step == 0


def test_save_load_start_again_overwrite_and_new_attempt(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    drill = _started(MasteryDrill(path=path, trainee="Ada"))
    _right(drill)
    _right(drill)
    assert drill.save() == path
    assert "✔ Saved 2 cases worked" in drill.file_status.value
    assert load_trainee_progress(path).mastery.step == 2

    other = MasteryDrill(path=path)
    assert other.load() is not None
    assert other.session.mastery.step == 2 and other.trainee.value == "Ada"
    assert "2 cases worked" in other.file_status.value

    drill.restart_button.click()
    drill.confirm_restart_button.click()
    assert drill.session.mastery.step == 0
    assert drill.save() is None
    status = drill.file_status.value
    assert (
        "✘ Not saved" in status and "your earlier progress" in status and "another drill&#x27;s" not in status
    )
    assert "press Save as a new attempt" in status
    assert load_trainee_progress(path).mastery.step == 2  # left as it was
    drill.new_attempt_button.click()
    assert Path(drill.path.value) == tmp_path / "p-2.json"
    assert load_trainee_progress(tmp_path / "p-2.json").mastery.step == 0
    drill.path.value = str(path)
    drill.overwrite.value = True
    assert drill.save() == path
    assert load_trainee_progress(path).mastery.step == 0
    assert drill.overwrite.value is False  # consent is for one save only


def test_a_missing_or_damaged_file_is_refused_with_its_message(tmp_path: Path) -> None:
    drill = MasteryDrill(path=tmp_path / "none.json")
    assert drill.load() is None and "does not exist" in drill.file_status.value
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1, "a": 2}', encoding="utf-8")
    drill.path.value = str(bad)
    assert drill.load() is None and 'role="alert"' in drill.file_status.value


def _upload(transfer, name: str, content: bytes) -> None:
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    item = {
        "name": name,
        "type": "",
        "size": len(content),
        "content": memoryview(content),
        "last_modified": when,
    }
    transfer.upload.value = (item,)


@pytest.mark.parametrize("make", [MasteryDrill, PracticeDrill])
def test_download_and_upload_progress(make) -> None:
    drill = make()
    if isinstance(drill, MasteryDrill):
        _started(drill)
        _right(drill)
    else:
        assert drill.exercise is not None and drill.current is not None
        drill.exercise.set_answer(correct_answer(drill.current))
        drill.exercise.check_button.click()
    link = drill.transfer.download.value
    assert 'download="' in link and "Download progress (" in link
    payload = re.search(r"base64,([A-Za-z0-9+/=]+)", link).group(1)
    data = json.loads(base64.b64decode(payload))
    fresh = make()
    _upload(fresh.transfer, "mine.json", json.dumps(data).encode())
    assert "✔ Loaded" in fresh.file_status.value and re.search(
        r"\b1 (checked )?case", fresh.file_status.value
    )
    assert fresh.transfer.upload.value == ()
    _upload(fresh.transfer, "broken.json", b'{"format": 1, "format": 2}')
    assert "✘ Not loaded" in fresh.file_status.value and "broken.json" in fresh.file_status.value
    _upload(fresh.transfer, "other.json", b"[]")
    assert "✘ Not loaded" in fresh.file_status.value


def test_the_browser_edition_says_where_save_goes_and_to_upload_data(monkeypatch) -> None:
    assert MasteryDrill().transfer.note.value == ""
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert "clearing the site&#x27;s data loses it" in MasteryDrill().transfer.note.value
    assert html.escape(LITE_SAVE_NOTE, quote=True) in PracticeDrill().transfer.note.value
    panel = DataCheckPanel(run=False)
    assert "use the Upload buttons, not the path box" in panel.lite_note.value


def test_the_mastery_drill_text_picture_is_deterministic() -> None:
    assert MasteryDrill(seed=5).describe() == MasteryDrill(seed=5).describe()
    drill = _started(MasteryDrill())
    assert set(answer_fields(drill.view.check)) <= set(drill.describe().replace(":", " ").split())


def test_a_wrong_hold_answer_is_still_only_feedback() -> None:
    drill = _started(MasteryDrill())
    view = drill.view
    drill.set_answer(Answer(view.check, hold=True, reason=view.reason_options[0][1]))
    drill.check_button.click()
    assert drill.session.mastery.step == 1


# --- a reopened drill opens its saved file by itself; Load asks before replacing unsaved work ---------


def test_a_reopened_drill_loads_the_saved_file_by_itself_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    first = _started(MasteryDrill(path=path, trainee="Ada"))
    assert first.session.seed_kind == "fresh" and "Your own drill has started" in first.file_status.value
    _right(first)
    _right(first)
    first.save()
    reopened = MasteryDrill(path=path)
    assert reopened.session.mastery.step == 2 and reopened.trainee.value == "Ada"
    assert reopened.session.mastery.seed == first.session.mastery.seed
    status = reopened.file_status.value
    assert "Opened your saved drill" in status and "by itself" in status and "2 cases worked" in status
    assert "2 cases worked" in reopened.describe()
    assert "Everything is saved" in reopened.unsaved.value
    fresh = MasteryDrill(path=path, autoload=False)
    assert fresh.session.mastery.step == 0


def test_a_damaged_saved_file_is_named_and_the_drill_starts_fresh(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text("{not json", encoding="utf-8")
    drill = MasteryDrill(path=path)
    assert drill.session.mastery.step == 0
    assert "Your saved drill was not opened" in drill.file_status.value
    assert path.read_text(encoding="utf-8") == "{not json"


def test_load_asks_before_replacing_unsaved_work(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    saved = _started(MasteryDrill(path=path, autoload=False))
    _right(saved)
    saved.save()
    drill = _started(MasteryDrill(path=tmp_path / "other.json"))
    drill.path.value = str(path)
    _right(drill)
    _right(drill)
    _right(drill)
    worked = [a.seed for a in drill.session.attempts]
    drill.load_button.click()
    assert [a.seed for a in drill.session.attempts] == worked  # not yet: it asks first
    assert drill.confirm_load_row.layout.display == "flex"
    assert "Load and replace this drill?" in drill.file_status.value and "3 cases" in drill.file_status.value
    drill.cancel_load_button.click()
    assert [a.seed for a in drill.session.attempts] == worked
    assert drill.confirm_load_row.layout.display == "none" and "nothing was loaded" in drill.file_status.value
    drill.load_button.click()
    drill.confirm_load_button.click()
    assert drill.session.mastery.step == 1 and drill.confirm_load_row.layout.display == "none"
    assert "✔ Loaded from" in drill.file_status.value
    drill.load_button.click()  # nothing unsaved now: it loads at once
    assert drill.confirm_load_row.layout.display == "none" and "✔ Loaded from" in drill.file_status.value


def test_a_fixed_seed_drill_says_it_is_a_demo_and_start_again_gives_a_fresh_one(tmp_path: Path) -> None:
    demo = MasteryDrill(seed=5, path=tmp_path / "demo.json")
    assert demo.session.seed_kind == "fixed"
    assert "Demo drill" in demo.bars.value and "(demo: fixed seed 5)" in demo.describe()
    demo.restart_button.click()
    demo.confirm_restart_button.click()
    assert demo.session.seed_kind == "fresh" and "Demo drill" not in demo.bars.value
    own = MasteryDrill(path=tmp_path / "own.json")
    assert own.session.seed_kind == "fresh" and "Demo drill" not in own.bars.value
