"""The trainer's commands' own pieces: the progress line a long cohort run draws, durations, names, and
``practice generate``'s refusals. The commands end to end are in ``tests/cli/``."""

from __future__ import annotations

import io
import json
import sys

import pytest
from fake_terminal import FakeTerminal as _Terminal

from helpers import cli
from helpers.trainer import commands as trainer_commands


def _run(monkeypatch, *args: str) -> tuple[int, str, str]:
    """``python -m helpers ARGS`` in this process: its exit status, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    code = cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_a_short_run_shows_nothing_and_a_long_one_counts_down():
    class Clock:
        now = 100.0

        def __call__(self) -> float:
            return self.now

    clock, stream = Clock(), _Terminal()
    line = trainer_commands._ProgressLine(stream, clock)
    line.update(0, 10)
    clock.now = 101.0
    line.update(2, 10)
    assert stream.getvalue() == ""  # under two seconds: nothing
    clock.now = 104.0
    line.update(8, 10)  # 8 files in 4 s: 2 left take about 1 s
    assert stream.getvalue() == "\r[################....] cohort: 8 of 10 files re-graded; about 1 s left"
    clock.now = 104.1
    line.update(9, 10)
    assert stream.getvalue().count("\r") == 1  # not redrawn more than four times a second
    line.update(10, 10)
    last = "[####################] cohort: 10 of 10 files re-graded; about 1 s left"
    assert stream.getvalue().endswith("\r" + last)
    line.clear()
    assert stream.getvalue().endswith("\r" + last + "\r" + " " * len(last) + "\r")
    assert trainer_commands._duration(75) == "1 min 15 s" and trainer_commands._duration(3720) == "1 h 2 min"


@pytest.mark.parametrize("width", [1, 20, 40, 60, 71, 72, 80, 200])
def test_the_bar_never_wraps_a_terminal_of_any_width(width):
    stream = _Terminal()
    ticks = iter(range(1000, 2000, 5))  # five seconds between updates
    line = trainer_commands._ProgressLine(stream, lambda: float(next(ticks)), width=width)
    for done in (0, 1, 999, 1000):
        line.update(done, 1000)
    drawn = [part for part in stream.getvalue().split("\r") if part]
    assert drawn and all(len(part) <= max(width - 1, 1) for part in drawn)
    assert ("[" in drawn[-1]) == (width >= 80)  # the bar only where the words fit beside it
    assert "1,000 of 1,000" in stream.getvalue() or width < 60


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(0, "1 s"), (59.4, "59 s"), (60, "1 min 0 s"), (3599, "59 min 59 s"), (7322, "2 h 2 min")],
)
def test_a_duration_is_said_in_its_largest_units(seconds, said):
    assert trainer_commands._duration(seconds) == said


def test_bytes_that_were_not_utf_8_are_told_apart_and_names_are_shown_printable():
    assert trainer_commands._surrogates("Asha\udcff") and not trainer_commands._surrogates("Åsa 🙂")
    assert trainer_commands._plain_name("A\nB\x1b\u200b") == "A\\nB\\x1b\\u200b"
    assert trainer_commands._plain_name("Zoë") == "Zoë"


def test_practice_generate_refuses_an_unknown_rule_or_bad_numbers_with_status_2(monkeypatch):
    code, out, err = _run(monkeypatch, "practice", "generate", "--rule", "no-such-rule")
    assert (code, out) == (2, "")
    assert err.startswith(
        "python -m helpers practice generate: no rule 'no-such-rule'; choose all or one of: "
    )
    for numbers in (["--seed", "-1"], ["--count", "0"]):
        code, out, err = _run(monkeypatch, "practice", "generate", "--rule", "all", *numbers)
        assert (code, out) == (2, "")
        assert err == "python -m helpers practice generate: --seed must be 0 or more and --count 1 or more\n"


def test_practice_generate_prints_one_json_line_per_case(monkeypatch):
    from helpers.trainee.cases.generators import GENERATORS

    rule = next(iter(GENERATORS))
    code, out, _ = _run(monkeypatch, "practice", "generate", "--rule", rule, "--seed", "5", "--count", "2")
    cases = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(cases) == 2 and all(rule in case["rule_ids"] for case in cases)
    assert _run(monkeypatch, "practice", "generate", "--rule", rule, "--seed", "5", "--count", "2")[1] == out
