"""The one rule that decides a case, read from what the trainee sees.

:func:`keyed_rule` names the most specific rule that decides a case from its
visible input (and the context shown beside it: an earlier key, a rubric
revision). :func:`applies` says whether a rule is relevant to a case at all,
that is whether its ``not_here`` sentence in ``fixtures/rules.json`` would be
false of the case; a rule that does not apply is a fair wrong option for the
reason question. :func:`lookalike_kind` and :func:`facets` name the look-alike
differences a case turns on (case, spaces, Unicode form, invisible,
full-width and other-script characters).

Standard library only. Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "FACETS",
    "WHITESPACE_CASE_FACETS",
    "INVISIBLE_FACETS",
    "CONFUSABLES",
    "lookalike_kind",
    "lookalike_kinds",
    "reader_form",
    "differs_only_in_case_or_space",
    "differs_only_invisibly",
    "keyed_rule",
    "applies",
    "rules_that_apply",
    "facets",
    "approved_change",
    "unapproved_faults",
]

#: The kinds of look-alike difference, in the fixed order :func:`facets` reports them.
FACETS: tuple[str, ...] = (
    "case",
    "outer-space",
    "no-break-space",
    "nfd",
    "zero-width",
    "full-width",
    "homoglyph",
)
#: The kinds a reader may miss as "the same answer, recased or respaced".
WHITESPACE_CASE_FACETS: tuple[str, ...] = ("case", "outer-space", "no-break-space")
#: The kinds a reader cannot see at all, or sees as the same letter.
INVISIBLE_FACETS: tuple[str, ...] = ("nfd", "zero-width", "full-width", "homoglyph")

#: Cyrillic and Greek letters that look like Latin ones, with the Latin letter each is taken for.
#: Hand-written because this module is standard library only (it also runs in the browser
#: edition) and the drill needs both directions for the few letters its words use; the
#: confusables packages on PyPI ship the whole Unicode table for detection only.
CONFUSABLES: dict[str, str] = {
    # Cyrillic lower case
    "\u0430": "a",
    "\u0435": "e",
    "\u043e": "o",
    "\u0440": "p",
    "\u0441": "c",
    "\u0443": "y",
    "\u0445": "x",
    "\u0456": "i",
    "\u0458": "j",
    "\u0455": "s",
    "\u04bb": "h",
    "\u0501": "d",
    # Cyrillic upper case
    "\u0410": "A",
    "\u0412": "B",
    "\u0415": "E",
    "\u041a": "K",
    "\u041c": "M",
    "\u041d": "H",
    "\u041e": "O",
    "\u0420": "P",
    "\u0421": "C",
    "\u0422": "T",
    "\u0425": "X",
    "\u0405": "S",
    "\u0406": "I",
    "\u0408": "J",
    # Greek
    "\u03bf": "o",
    "\u03b9": "i",
    "\u03ba": "k",
    "\u03bd": "v",
    "\u0391": "A",
    "\u0392": "B",
    "\u0395": "E",
    "\u0396": "Z",
    "\u0397": "H",
    "\u0399": "I",
    "\u039a": "K",
    "\u039c": "M",
    "\u039d": "N",
    "\u039f": "O",
    "\u03a1": "P",
    "\u03a4": "T",
    "\u03a5": "Y",
    "\u03a7": "X",
}

_NO_BREAK_SPACES = {"\u00a0": " ", "\u2007": " ", "\u202f": " "}
_OUTER_SPACE = " \t\r\n"


def _no_zero_width(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def _narrow(text: str) -> str:
    """Full-width letters, digits and punctuation as their ASCII forms (NFKC of the ``<wide>`` forms)."""
    return "".join(
        unicodedata.normalize("NFKC", c)
        if unicodedata.decomposition(c).startswith("<wide>") and c != "\u3000"
        else c
        for c in text
    )


def _latin(text: str) -> str:
    return "".join(CONFUSABLES.get(c, c) for c in text)


def _breaking(text: str) -> str:
    """No-break spaces at either end dropped, inner ones read as ordinary spaces."""
    text = text.strip("".join(_NO_BREAK_SPACES))
    return "".join(_NO_BREAK_SPACES.get(c, c) for c in text)


#: Each kind's normaliser, applied in this order when several kinds are allowed.
_STEPS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("zero-width", _no_zero_width),
    ("full-width", _narrow),
    ("no-break-space", _breaking),
    ("nfd", lambda t: unicodedata.normalize("NFC", t)),
    ("homoglyph", _latin),
    ("outer-space", lambda t: t.strip(_OUTER_SPACE)),
    ("case", str.casefold),
)


def _skeleton(text: str, kinds: Iterable[str]) -> str:
    return _skeleton_of(text, kinds if type(kinds) is tuple else tuple(kinds))


@functools.lru_cache(maxsize=65536)
def _skeleton_of(text: str, allowed: tuple[str, ...]) -> str:
    """``text`` with the ``allowed`` kinds of difference normalised away (cached: the drill asks often)."""
    for kind, step in _STEPS:
        if kind in allowed:
            text = step(text)
    return text


def _alike(a: str, b: str, kinds: Iterable[str]) -> bool:
    kinds = kinds if type(kinds) is tuple else tuple(kinds)
    return _skeleton_of(a, kinds) == _skeleton_of(b, kinds)


def reader_form(text: str) -> str:
    """``text`` as a careless reader sees it: every look-alike difference in :data:`FACETS` ignored."""
    return _skeleton_of(text, FACETS)


@functools.lru_cache(maxsize=65536)  # cases are made of a few hundred words and their look-alikes
def lookalike_kinds(a: str, b: str) -> tuple[str, ...]:
    """Every kind of look-alike difference between ``a`` and ``b``, in :data:`FACETS` order.

    Empty when the strings are equal or do not look alike. One kind when one
    kind alone explains the difference; otherwise each kind the difference needs.
    """
    if a == b or not _alike(a, b, FACETS):
        return ()
    for kind in FACETS:
        if _alike(a, b, (kind,)):
            return (kind,)
    needed = tuple(k for k in FACETS if not _alike(a, b, tuple(f for f in FACETS if f != k)))
    return needed or (FACETS[-1],)


def lookalike_kind(a: str, b: str) -> str | None:
    """For two different strings a reader may take for the same, the kind of difference.

    One of :data:`FACETS`; when the difference needs several kinds, the last of
    them in that order (the hardest to see). None when the strings are equal
    or do not look alike.

    >>> lookalike_kind("payroll", "Payroll"), lookalike_kind("payroll", "pay" + chr(0x200B) + "roll")
    ('case', 'zero-width')
    >>> lookalike_kind("payroll", "p" + chr(0x0430) + "yroll"), lookalike_kind("payroll", "overtime")
    ('homoglyph', None)
    """
    kinds = lookalike_kinds(a, b)
    return kinds[-1] if kinds else None


def differs_only_in_case_or_space(old: str, new: str) -> bool:
    """True when two different answers are the same once case and every kind of space are ignored."""
    return old != new and "".join(old.split()).casefold() == "".join(new.split()).casefold()


def differs_only_invisibly(old: str, new: str) -> bool:
    """True when two different answers differ only by characters a reader cannot tell apart.

    Another Unicode form, a zero-width or other format character, a full-width
    form or a Cyrillic or Greek letter that looks Latin.
    """
    return old != new and _alike(old, new, INVISIBLE_FACETS)


# --- reading a case ---------------------------------------------------------------------------


def _ids(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _key(value: Any) -> dict[str, str]:
    if not isinstance(value, dict | Mapping):  # a dict is told at once, without the abstract class
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def _has_lookalike(item: str, others: Iterable[str]) -> bool:
    """Whether another string of ``others`` looks like ``item`` (:func:`lookalike_kind` is not None):
    different, with the same :func:`reader_form`."""
    form = reader_form(item)
    return any(other != item and reader_form(other) == form for other in others)


def _any_two_alike(items: Sequence[str]) -> bool:
    """Whether two of ``items`` (distinct strings) look alike: two share a :func:`reader_form`."""
    return len({reader_form(item) for item in items}) < len(items)


def _scope(record: Mapping[str, Any]) -> tuple[list[str], list[str], set[str], set[str]]:
    original, rewritten = _ids(record.get("original")), _ids(record.get("rewritten"))
    return original, rewritten, set(original) - set(rewritten), set(rewritten) - set(original)


def _wording_changed(record: Mapping[str, Any]) -> bool:
    rewritten_query = record.get("rewritten_query")
    if not isinstance(rewritten_query, str):
        return False
    query = record.get("query")
    return rewritten_query != (query if isinstance(query, str) else "")


def _has_repeats(items: list[str]) -> bool:
    return len(set(items)) != len(items)


def _ts_keyed(record: Mapping[str, Any]) -> str:
    if _ids(record.get("unresolved")):
        return "ts-unresolved"
    original, rewritten, missing, added = _scope(record)
    if any(_has_lookalike(m, rewritten) for m in missing) or any(_has_lookalike(a, original) for a in added):
        return "ts-exact-ids"
    if not original or not rewritten:
        return "ts-empty"
    if missing and added:
        return "ts-several"
    if missing:
        return "ts-lost"
    if added:
        return "ts-added"
    if _wording_changed(record):
        return "ts-query-unvalidated"
    if _has_repeats(original) or _has_repeats(rewritten):
        return "ts-duplicates"
    return "ts-order"


def _sk_parts(
    record: Mapping[str, Any],
) -> tuple[dict[str, str], dict[str, str], list[str], list[str]]:
    baseline, proposed = _key(record.get("baseline")), _key(record.get("proposed"))
    missing = [s for s in baseline if s not in proposed]
    changed = [s for s in baseline if s in proposed and proposed[s] != baseline[s]]
    return baseline, proposed, missing, changed


def _revision(context: Mapping[str, Any]) -> Mapping[str, Any] | None:
    revision = context.get("rubric_revision")
    return revision if isinstance(revision, Mapping) else None


def _nonsentinel_edits(
    baseline: Mapping[str, str], proposed: Mapping[str, str], context: Mapping[str, Any]
) -> list[str]:
    earlier = _key(context.get("earlier_key"))
    return [i for i, old in earlier.items() if i not in baseline and i in proposed and proposed[i] != old]


def approved_change(record: Mapping[str, Any], context: Mapping[str, Any] | None = None) -> str | None:
    """The sentinel whose change the rubric revision shown approves exactly, else None.

    A revision covers a change only when all three agree: its ``id`` is a
    baseline sentinel the proposed key changed, its ``from`` is the baseline's
    answer and its ``to`` the proposed answer. A revision of an unchanged
    sentinel, or to another answer than the proposed one, approves nothing here.
    Taught in ``03_sentinel_answer_key.ipynb`` ("An authorised rubric change").
    """
    revision = _revision(context or {})
    if revision is None:
        return None
    baseline, proposed = _key(record.get("baseline")), _key(record.get("proposed"))
    sentinel = revision.get("id")
    if not isinstance(sentinel, str) or sentinel not in baseline or sentinel not in proposed:
        return None
    old, new = baseline[sentinel], proposed[sentinel]
    if old == new or revision.get("from") != old or revision.get("to") != new:
        return None
    return sentinel


def unapproved_faults(
    record: Mapping[str, Any], context: Mapping[str, Any] | None = None
) -> tuple[list[str], list[str]]:
    """The missing sentinels and the changed ones no revision approves exactly, in baseline order.

    Any of them holds the key, whatever revision is shown; the approved change
    (:func:`approved_change`) alone calls for a new explicit baseline.
    """
    _baseline, _proposed, missing, changed = _sk_parts(record)
    approved = approved_change(record, context)
    return missing, [s for s in changed if s != approved]


def _sk_keyed(record: Mapping[str, Any], context: Mapping[str, Any]) -> str:
    baseline, proposed, missing, changed = _sk_parts(record)
    if not baseline:
        return "sk-empty-baseline"
    if not set(baseline) & set(proposed):
        return "sk-all-missing"
    if approved_change(record, context) is not None and not missing and len(changed) == 1:
        return "sk-rubric-change"  # the approved change is the key's only fault
    if missing and changed:
        return "sk-several"
    if missing:
        return "sk-missing"
    if changed:
        pairs = [(baseline[s], proposed[s]) for s in changed]
        if all(differs_only_in_case_or_space(a, b) for a, b in pairs):
            return "sk-whitespace-case"
        if all(differs_only_invisibly(a, b) for a, b in pairs):
            return "sk-invisible"
        return "sk-changed"
    if _nonsentinel_edits(baseline, proposed, context):
        return "sk-nonsentinel-changed"
    if set(proposed) - set(baseline):
        return "sk-new-case"
    return "sk-changed"  # identical keys: nothing decides them; no case is made of them


def keyed_rule(check: str, input: Mapping[str, Any], context: Mapping[str, Any] | None = None) -> str:
    """The most specific rule that decides a case, from its visible input and context.

    Target scope, most specific first: an unresolved mention, a missing or
    added ID with a look-alike on the other side, an empty list, targets
    missing and added at once, lost only, added only; for a preserved scope, a
    reworded query, repeats, then order. Sentinels: an empty baseline, no
    sentinel left, a rubric revision that approves exactly the key's only fault
    (:func:`approved_change`), missing and changed at once, missing only,
    changed only (by case or spaces, invisibly, or otherwise); for an intact
    key, a non-sentinel changed since the earlier key shown, then new cases.
    Any fault no revision approves decides over the revision: the case is then
    keyed as if no revision were shown.
    """
    context = context or {}
    if check == "target-scope":
        return _ts_keyed(input)
    if check == "sentinels":
        return _sk_keyed(input, context)
    raise ValueError(f"unknown check {check!r}")


def _ts_applies(rule_id: str, record: Mapping[str, Any]) -> bool:
    return _ts_tests(record)[rule_id]()


def _ts_tests(record: Mapping[str, Any]) -> dict[str, Callable[[], bool]]:
    """Each target-scope rule's test of ``record``, the record's lists worked out once for them all."""
    original, rewritten, missing, added = _scope(record)
    everything = [*dict.fromkeys([*original, *rewritten])]
    tests: dict[str, Callable[[], bool]] = {
        "ts-lost": lambda: bool(missing),
        "ts-added": lambda: bool(added),
        "ts-order": lambda: set(original) == set(rewritten) and original != rewritten,
        "ts-duplicates": lambda: _has_repeats(original) or _has_repeats(rewritten),
        "ts-exact-ids": lambda: _any_two_alike(everything),
        "ts-empty": lambda: not original or not rewritten,
        "ts-several": lambda: bool(missing) and bool(added),
        "ts-unresolved": lambda: bool(_ids(record.get("unresolved"))),
        "ts-query-unvalidated": lambda: any(
            isinstance(record.get(k), str) and record[k].strip() for k in ("query", "rewritten_query")
        ),
    }
    return tests


def _sk_applies(rule_id: str, record: Mapping[str, Any], context: Mapping[str, Any]) -> bool:
    return _sk_tests(record, context)[rule_id]()


def _sk_tests(record: Mapping[str, Any], context: Mapping[str, Any]) -> dict[str, Callable[[], bool]]:
    """Each sentinel rule's test of ``record``, the keys' differences worked out once for them all."""
    baseline, proposed, missing, changed = _sk_parts(record)
    pairs = [(baseline[s], proposed[s]) for s in changed]
    tests: dict[str, Callable[[], bool]] = {
        "sk-changed": lambda: bool(changed),
        "sk-whitespace-case": lambda: any(differs_only_in_case_or_space(a, b) for a, b in pairs),
        "sk-invisible": lambda: any(differs_only_invisibly(a, b) for a, b in pairs),
        "sk-missing": lambda: bool(missing),
        "sk-all-missing": lambda: not set(baseline) & set(proposed),
        "sk-new-case": lambda: bool(set(proposed) - set(baseline)),
        "sk-nonsentinel-changed": lambda: bool(_nonsentinel_edits(baseline, proposed, context)),
        "sk-empty-baseline": lambda: not baseline,
        "sk-rubric-change": lambda: approved_change(record, context) is not None,
        "sk-several": lambda: bool(missing) and bool(changed),
    }
    return tests


def applies(
    rule_id: str, check: str, input: Mapping[str, Any], context: Mapping[str, Any] | None = None
) -> bool:
    """True when the rule is relevant to the case: its ``not_here`` sentence would be false of it.

    A rule that does not apply is a fair wrong option for the reason question.
    Raises ``KeyError`` for a rule id that is not a rule of ``check``.
    """
    if check == "target-scope":
        return _ts_applies(rule_id, input)
    if check == "sentinels":
        return _sk_applies(rule_id, input, context or {})
    raise ValueError(f"unknown check {check!r}")


def rules_that_apply(
    rule_ids: Iterable[str], check: str, input: Mapping[str, Any], context: Mapping[str, Any] | None = None
) -> set[str]:
    """The ids in ``rule_ids`` for which :func:`applies` is true, the case's parts worked out once.

    Every rule of the check is tested together (:func:`_ts_applying`, :func:`_sk_applying`), as the
    reason question asks for them all. Raises ``KeyError`` for a rule id that is not a rule of
    ``check``, as :func:`applies` does.
    """
    if check == "target-scope":
        applying, known = _ts_applying(input), _TS_RULES
    elif check == "sentinels":
        applying, known = _sk_applying(input, context or {}), _SK_RULES
    else:
        raise ValueError(f"unknown check {check!r}")
    found = set()
    for rule_id in rule_ids:
        if rule_id in applying:
            found.add(rule_id)
        elif rule_id not in known:
            raise KeyError(rule_id)
    return found


#: The rules each check's tests know (:func:`_ts_tests`, :func:`_sk_tests`).
_TS_RULES = frozenset(_ts_tests({}))
_SK_RULES = frozenset(_sk_tests({}, {}))


def _ts_applying(record: Mapping[str, Any]) -> set[str]:
    """The target-scope rules whose test in :func:`_ts_tests` is true of ``record``, tested together."""
    original, rewritten = _ids(record.get("original")), _ids(record.get("rewritten"))
    before, after = set(original), set(rewritten)
    lost, gained = before - after, after - before
    found = set()
    if lost:
        found.add("ts-lost")
        if gained:
            found.add("ts-several")
    if gained:
        found.add("ts-added")
    if before == after and original != rewritten:
        found.add("ts-order")
    if len(before) != len(original) or len(after) != len(rewritten):
        found.add("ts-duplicates")
    everything = dict.fromkeys(original)
    everything.update(dict.fromkeys(rewritten))
    if len({_skeleton_of(item, FACETS) for item in everything}) < len(everything):
        found.add("ts-exact-ids")
    if not original or not rewritten:
        found.add("ts-empty")
    if _ids(record.get("unresolved")):
        found.add("ts-unresolved")
    if any(isinstance(record.get(k), str) and record[k].strip() for k in ("query", "rewritten_query")):
        found.add("ts-query-unvalidated")
    return found


def _sk_applying(record: Mapping[str, Any], context: Mapping[str, Any]) -> set[str]:
    """The sentinel rules whose test in :func:`_sk_tests` is true of ``record``, tested together."""
    baseline, proposed, missing, changed = _sk_parts(record)
    found = set()
    if changed:
        found.add("sk-changed")
        pairs = [(baseline[s], proposed[s]) for s in changed]
        if any(differs_only_in_case_or_space(a, b) for a, b in pairs):
            found.add("sk-whitespace-case")
        if any(differs_only_invisibly(a, b) for a, b in pairs):
            found.add("sk-invisible")
        if missing:
            found.add("sk-several")
    if missing:
        found.add("sk-missing")
    if not baseline.keys() & proposed.keys():
        found.add("sk-all-missing")
    if proposed.keys() - baseline.keys():
        found.add("sk-new-case")
    if _nonsentinel_edits(baseline, proposed, context):
        found.add("sk-nonsentinel-changed")
    if not baseline:
        found.add("sk-empty-baseline")
    if approved_change(record, context) is not None:
        found.add("sk-rubric-change")
    return found


def facets(check: str, input: Mapping[str, Any], context: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """The look-alike kinds that decide a case, in :data:`FACETS` order.

    A kind decides a case when a difference of that kind changes the output:
    a missing ID whose look-alike was added, or a sentinel whose answer (or
    whose ID, in the proposed key) differs only by that kind.
    """
    found: set[str] = set()
    if check == "target-scope":
        if _ids(input.get("unresolved")):
            return ()
        _original, _rewritten, lost, gained = _scope(input)
        for m in lost:
            for a in gained:
                found.update(lookalike_kinds(m, a))
    elif check == "sentinels":
        baseline, proposed, missing, changed = _sk_parts(input)
        if not baseline:
            return ()
        for s in changed:
            found.update(lookalike_kinds(baseline[s], proposed[s]))
        new = [i for i in proposed if i not in baseline]
        for s in missing:
            for i in new:
                found.update(lookalike_kinds(s, i))
    else:
        raise ValueError(f"unknown check {check!r}")
    return tuple(kind for kind in FACETS if kind in found)
