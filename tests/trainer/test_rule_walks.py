"""The scripted walks notebooks 04, 06 and 07 print: each shows the rule it is there to show."""

from __future__ import annotations

import re

from helpers.trainee.views import rule_walks


def _line(text: str, pattern: str) -> str:
    (found,) = [line for line in text.splitlines() if re.search(pattern, line)]
    return found


def test_the_drill_walk_shows_a_slip_a_hint_a_skip_and_a_reveal_scored_as_the_rules_say():
    text = rule_walks.drill_scoring(seed=5)
    assert "missed   streak 0/3 (mastery taken away; lost 1 time so far)" in _line(text, "taken away")
    assert " helped " in _line(text, "unaided right so far")
    outcomes = re.findall(r"^  case +\d+ \S+ +(\w+)", text, re.MULTILINE)
    assert outcomes[-4:] == ["missed", "helped", "skipped", "revealed"]
    assert set(outcomes[:-4]) == {"correct"}
    assert "by rule: ts-empty (2), ts-several (1), ts-unresolved (1)\n" in text
    assert text.endswith("expected a whole number from 0 to 899999999999")


def test_the_trainer_walk_names_every_refusal():
    text = rule_walks.evidence_refusals()
    assert "Ben's file as saved: 0 problems" in text
    assert "verdicts do not match their attempts" in text
    assert "(seed out of sequence)" in text
    assert text.count("attempt id b3b2000000000002 is also in") == 2
    assert "refused: ben.json: has version 4" in text and "newer version of the helpers" in text
    stats = rule_walks.first_attempts_only()
    assert "= 2 trainees each" in stats
    assert _line(stats, "^rule-0:").startswith("rule-0: 50% of 6; 0.00")


def test_the_checkout_walk_passes_spread_slips_and_fails_a_whole_kind_or_rule():
    text = rule_walks.checkout_verdicts(seed=1)
    verdicts = re.findall(r"^[^ ].*: (PASSED|NOT PASSED)$", text, re.MULTILINE)
    assert verdicts == [
        "PASSED",
        "PASSED",
        "NOT PASSED",
        "NOT PASSED",
        "PASSED",
    ]  # the last: the escaped name
    assert text.endswith("for Sam⟨U+001B⟩[2J⟨U+D800⟩: PASSED")
    assert "passes someone right 85% of the time or less at most 5 times in 100" in text
    lengths = [int(n) for n in re.findall(r"^  after (\d+) cases", text, re.MULTILINE)]
    assert lengths[0] == 32 and lengths[1] > 32  # two slips cost more cases, not the pass
    assert re.search(r"missed too often on zero-width|zero-width not cleared", text)
    assert re.search(r"missed too often on [\w-]+ \(\d of \d wrong\)|fail boundary", text)
    edits = rule_walks.key_edits_refused(seed=1).splitlines()
    assert edits[-1].startswith("Written again to the same name: refused: …/answers.json: already exists")
    edits = edits[:4]
    assert edits[0] == "The key as issued: read, ready to grade"
    assert len(edits) == 4 and all(
        ": refused: …/exam.key.json: does not match its baseline" in e for e in edits[1:]
    )
