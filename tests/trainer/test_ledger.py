"""The ledger's chain: a line removed, added or moved, or lines cut from its end, are refused.

Each line carries the SHA-256 of the line before it under its signature, and ``ledger-head.json``
holds the signed count and last digest; a ledger from before the chain is read, then chained in full.
"""

from __future__ import annotations

import json

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.trainer.ledger import HEAD_NAME, LEDGER_NAME, Ledger
from helpers.trainer.secret import TrainerSecret, TrainerSecretError


def _opened(paper: str) -> dict[str, str]:
    return {"event": "sitting", "paper_id": paper, "started": f"2026-12-07T0{len(paper)}:00:00Z"}


def _ledger(folder, count: int) -> tuple[TrainerSecret, Ledger]:
    secret = TrainerSecret.open(folder, create=True)
    ledger = Ledger(secret)
    for number in range(count):
        with ledger.locked():
            ledger.append(_opened(f"P{number}"))
    return secret, ledger


def _lines(ledger: Ledger) -> list[bytes]:
    return ledger.path.read_bytes().splitlines()


def _write(ledger: Ledger, lines: list[bytes]) -> None:
    ledger.path.write_bytes(b"".join(line + b"\n" for line in lines))


def test_a_chained_ledger_reads_back_every_line(tmp_path):
    _secret, ledger = _ledger(tmp_path / "t", 4)
    state = ledger.read()
    assert state.chained and state.lines == 4 and list(state.sittings) == ["P0", "P1", "P2", "P3"]
    first = json.loads(_lines(ledger)[0])
    assert first["prev"] == "" and json.loads(_lines(ledger)[1])["prev"] != ""
    assert json.loads(ledger.head_path.read_text())["lines"] == 4


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda lines: lines[:1] + lines[2:], "line 2 does not follow the line before it"),  # a line removed
        (lambda lines: [lines[1], lines[0], *lines[2:]], "line 1 does not follow"),  # two lines swapped
        (lambda lines: [*lines[:2], lines[1], *lines[2:]], "line 3 does not follow"),  # a line repeated
        (lambda lines: lines[:-1], f"holds 3 lines, but {HEAD_NAME} records 4"),  # the last line cut
        (lambda lines: lines[:0], f"holds 0 lines, but {HEAD_NAME} records 4"),  # emptied
    ],
    ids=["removed", "swapped", "repeated", "end-cut", "emptied"],
)
def test_a_changed_ledger_is_refused_naming_what_shows_it(tmp_path, edit, message):
    _secret, ledger = _ledger(tmp_path / "t", 4)
    _write(ledger, edit(_lines(ledger)))
    with pytest.raises(TrainerSecretError, match=message):
        ledger.read()


def test_a_missing_or_edited_head_is_refused(tmp_path):
    _secret, ledger = _ledger(tmp_path / "t", 2)
    head = ledger.head_path.read_text()
    ledger.head_path.write_text(head.replace('"lines":2', '"lines":1'))
    with pytest.raises(TrainerSecretError, match="not a ledger head signed by this trainer"):
        ledger.read()
    ledger.head_path.unlink()
    with pytest.raises(TrainerSecretError, match=f"{HEAD_NAME} is missing beside it"):
        ledger.read()


def test_a_ledger_removed_while_its_head_stays_is_refused(tmp_path):
    _secret, ledger = _ledger(tmp_path / "t", 2)
    ledger.path.unlink()
    with pytest.raises(TrainerSecretError, match=f"is missing, but {HEAD_NAME} records 2 lines"):
        ledger.read()


def test_a_ledger_from_before_the_chain_is_read_then_chained_in_full(tmp_path):
    secret = TrainerSecret.open(tmp_path / "t", create=True)
    old = [
        json.dumps(secret.signed("ledger", _opened(p)), ensure_ascii=True, separators=(",", ":")).encode()
        for p in ("P0", "P1")
    ]
    ledger = Ledger(secret)
    _write(ledger, old)
    before = ledger.read()
    assert not before.chained and list(before.sittings) == ["P0", "P1"]
    with ledger.locked():
        ledger.append(_opened("P2"))
    after = ledger.read()
    assert after.chained and list(after.sittings) == ["P0", "P1", "P2"]
    assert all(b'"prev":' in line for line in _lines(ledger))
    assert (tmp_path / "t" / LEDGER_NAME) == ledger.path


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_any_reordering_or_removal_of_lines_is_refused(tmp_path_factory, data):
    _secret, ledger = _ledger(tmp_path_factory.mktemp("t"), 5)
    lines = _lines(ledger)
    kept = data.draw(st.lists(st.sampled_from(range(5)), max_size=6), label="lines kept, in order")
    if kept == list(range(5)):
        return  # the ledger as written
    _write(ledger, [lines[i] for i in kept])
    with pytest.raises(TrainerSecretError):
        ledger.read()


def test_the_ledger_and_its_head_are_owner_only_whatever_the_umask(tmp_path):
    import os
    import stat

    before = os.umask(0)
    try:
        _secret, ledger = _ledger(tmp_path / "t", 1)
    finally:
        os.umask(before)
    assert stat.S_IMODE(os.stat(ledger.path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(ledger.head_path).st_mode) == 0o600


def test_a_head_that_could_not_be_written_lags_and_the_next_line_catches_it_up(tmp_path, monkeypatch):
    from helpers.trainer import ledger as ledger_module

    _secret, ledger = _ledger(tmp_path / "t", 2)
    real = ledger_module.write_atomically

    def head_full(path, data, **kwargs):
        if str(path).endswith(HEAD_NAME):
            raise OSError(28, "No space left on device")
        return real(path, data, **kwargs)

    monkeypatch.setattr(ledger_module, "write_atomically", head_full)
    recorded_only = r"the line was recorded, but ledger-head\.json could not be updated"
    with pytest.raises(TrainerSecretError, match=recorded_only), ledger.locked():
        ledger.append(_opened("P2"))
    monkeypatch.undo()
    assert list(ledger.read().sittings) == ["P0", "P1", "P2"]  # the head lags by one line: still read
    with ledger.locked():
        ledger.append(_opened("P3"))
    assert json.loads(ledger.head_path.read_text())["lines"] == 4
