"""The TREC qrels reader against its peer: ``ir_measures.read_trec_qrels`` reads the same judgements.

Qrels pairs are generated in every layout trec_eval and ir_measures read (one space, one tab, runs of
both, aligned columns, whitespace at either end of a line, VT and FF, CRLF, a lone CR ending the file)
and checked both ways. ``missing`` is the same set; ``changed`` is compared with the relevance as literal
text, this project's rule: ``01`` and ``1`` differ here, although ir_measures reads both as 1. Where the
two readers differ on purpose (docs/differences.md, "The TREC qrels reader and ir_measures") is tested
last, one example each.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.team.batch import check_answer_keys
from helpers.team.key_formats import pair_id, read_trec_qrels

ir_measures = pytest.importorskip("ir_measures")

#: Characters an ID may hold here: no whitespace of any kind (Python's str.split() splits on more
#: than trec_eval does; that difference is tested below), and look-alikes that are not whitespace.
ID_CHARS = st.sampled_from("abcdqxyz0179-_.:/#é\u0430\u200b\uff51\u00e9\u2010")
IDS = st.text(ID_CHARS, min_size=1, max_size=6)
#: Relevance labels as qrels files write them, some in more than one way for the same integer.
LABELS = st.sampled_from(["0", "1", "2", "3", "-1", "01", "00", "+1", "002"])
SEPARATORS = st.sampled_from([" ", "\t", "  ", " \t", "\t ", "\t\t", "      ", "\v", "\f", " \f\t"])
EDGES = st.sampled_from(["", "", " ", "\t", " \t ", "   "])


@st.composite
def qrels_file(draw: Any, judgements: dict[tuple[str, str], str]) -> str:
    """``judgements`` written in a layout drawn line by line, with CRLF or LF, a final line end or not."""
    crlf = draw(st.booleans())
    lines = []
    for (query, document), label in judgements.items():
        fields = [query, draw(st.sampled_from(["0", "Q0", "1"])), document, label]
        gaps = [draw(SEPARATORS) for _ in range(3)]
        text = draw(EDGES) + "".join(f + g for f, g in zip(fields, [*gaps, ""], strict=True)) + draw(EDGES)
        lines.append(text)
    end = "\r\n" if crlf else "\n"
    last = draw(st.sampled_from([end, "", "\r"]))
    return end.join(lines) + last


@st.composite
def qrels_pair(draw: Any) -> tuple[str, str, dict[tuple[str, str], str], dict[tuple[str, str], str]]:
    """A baseline and a proposed qrels file: some judgements dropped, some relabelled, some added."""
    pairs = draw(st.lists(st.tuples(IDS, IDS), min_size=1, max_size=40, unique=True))
    base = {pair: draw(LABELS) for pair in pairs}
    proposed: dict[tuple[str, str], str] = {}
    for pair, label in base.items():
        fate = draw(st.sampled_from(["keep", "keep", "drop", "relabel"]))
        if fate == "keep":
            proposed[pair] = label
        elif fate == "relabel":
            proposed[pair] = draw(LABELS)
    for pair in draw(st.lists(st.tuples(IDS, IDS), max_size=5, unique=True)):
        proposed.setdefault(pair, draw(LABELS))
    if not proposed:  # an empty file is another question (a blank line here)
        proposed[pairs[0]] = base[pairs[0]]
    order = draw(st.permutations(list(proposed)))
    proposed = {pair: proposed[pair] for pair in order}
    return draw(qrels_file(base)), draw(qrels_file(proposed)), base, proposed


def peer(path: Path) -> dict[tuple[str, str], int]:
    """What ir_measures reads from the file: (query, document) → relevance."""
    with open(path, encoding="utf-8") as stream:
        return {(q.query_id, q.doc_id): q.relevance for q in ir_measures.read_trec_qrels(stream)}


def ours(text: str, source: str) -> Any:
    key = read_trec_qrels(io.BytesIO(text.encode("utf-8")), source=source)
    assert key.ok, key.errors
    return key


@settings(max_examples=examples(150))
@given(qrels_pair())
def test_missing_and_changed_agree_with_ir_measures_in_every_layout(tmp_path_factory, case):
    base_text, prop_text, base_labels, prop_labels = case
    folder = tmp_path_factory.mktemp("qrels")
    (folder / "b.qrels").write_bytes(base_text.encode("utf-8"))
    (folder / "p.qrels").write_bytes(prop_text.encode("utf-8"))
    their_base, their_prop = peer(folder / "b.qrels"), peer(folder / "p.qrels")
    base, prop = ours(base_text, "b.qrels"), ours(prop_text, "p.qrels")
    assert set(base.answers) == {pair_id(*pair) for pair in their_base}
    assert set(prop.answers) == {pair_id(*pair) for pair in their_prop}

    result = check_answer_keys(base, prop).result
    assert result is not None
    their_missing = {pair_id(*pair) for pair in their_base if pair not in their_prop}
    assert set(result.missing) == their_missing

    both = [pair for pair in their_base if pair in their_prop]
    literally = {pair_id(*p) for p in both if base_labels[p] != prop_labels[p]}
    numerically = {pair_id(*p) for p in both if their_base[p] != their_prop[p]}
    assert set(result.changed) == literally  # relevance compared as literal text
    assert numerically <= literally  # every change ir_measures sees is one here too
    rewritten = {
        pair_id(*p) for p in both if their_base[p] == their_prop[p] and base_labels[p] != prop_labels[p]
    }
    assert literally - numerically == rewritten  # and the rest are only written differently (01 and 1)


# --- where the two readers differ on purpose (docs/differences.md) -----------------------------


def test_01_and_1_differ_here_and_agree_in_ir_measures():
    base, prop = ours("q1 0 d1 1\n", "b"), ours("q1 0 d1 01\n", "p")
    result = check_answer_keys(base, prop).result
    assert result is not None and list(result.changed) == [pair_id("q1", "d1")]
    assert [q.relevance for q in ir_measures.read_trec_qrels("q1 0 d1 1\nq1 0 d2 01\n")] == [1, 1]


@pytest.mark.parametrize("space", ["\u00a0", "\u3000", "\u2003", "\u001c"], ids=lambda c: f"U+{ord(c):04X}")
def test_a_unicode_space_is_part_of_an_id_here_and_a_separator_in_ir_measures(space):
    text = f"q1 0 d{space}1 1\n"
    assert set(ours(text, "q").answers) == {pair_id("q1", f"d{space}1")}
    with pytest.raises(ValueError, match="too many values"):
        list(ir_measures.read_trec_qrels(text))


def test_a_blank_line_and_a_repeated_pair_are_errors_here_and_skipped_or_kept_in_ir_measures():
    blank = read_trec_qrels(io.BytesIO(b"q1 0 d1 1\n\nq1 0 d2 1\n"), source="q")
    assert [e.line for e in blank.errors] == [2]
    assert len(list(ir_measures.read_trec_qrels("q1 0 d1 1\n\nq1 0 d2 1\n"))) == 2
    repeated = read_trec_qrels(io.BytesIO(b"q1 0 d1 1\nq1 0 d1 2\n"), source="q")
    assert [(e.line, getattr(e, "first_line", None)) for e in repeated.errors] == [(2, 1)]
    assert [q.relevance for q in ir_measures.read_trec_qrels("q1 0 d1 1\nq1 0 d1 2\n")] == [1, 2]
