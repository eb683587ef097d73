"""A case's supplied input as a trainee reads it before answering: two lists, or two keys, side by side.

A target-scope input shows its ``original`` and ``rewritten`` lists as numbered lists, in the order
written (order and repeats are part of what a case teaches). A sentinel input shows its ``baseline``
and ``proposed`` keys as two tables of ID and answer, each sorted by ID in JavaScript's order
(:func:`helpers.core.ordering.sorted_ids`), so a reader finds an ID at the same place in both. No row
marks a difference: finding it is the exercise. IDs are in the visible notation (``⟨U+XXXX⟩``), answers
quoted as JSON writes them (a trailing space shows before the closing quote); the compact JSON is one
click away. An input of any other shape shows as compact JSON. Taught in ``02_target_scope.ipynb``,
``03_sentinel_answer_key.ipynb`` and ``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from helpers.core.chardiff import visible_id
from helpers.core.ordering import sorted_ids
from helpers.trainee.html import Html, HtmlBlock, display_json, esc_id, html, html_join, json_html

__all__ = ["SIDES", "input_view", "context_view", "sides_of"]

#: The two sides of each check's input, in the order shown (left, right).
SIDES = {"target-scope": ("original", "rewritten"), "sentinels": ("baseline", "proposed")}
#: Extra parts of a target-scope input shown as a list too.
_EXTRA_LISTS = ("unresolved",)
#: Parts shown elsewhere (the queries' wordings follow the lists as prose).
_SHOWN_ELSEWHERE = ("query", "rewritten_query")


def _is_id_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _is_key(value: Any) -> bool:
    return isinstance(value, Mapping) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )


def sides_of(record: Mapping[str, Any]) -> str | None:
    """The check whose two sides ``record`` holds in a shape this view can lay out, else ``None``."""
    lists = ("original", "rewritten", *(name for name in _EXTRA_LISTS if name in record))
    if all(_is_id_list(record.get(name)) for name in lists):
        return "target-scope"
    if _is_key(record.get("baseline")) and _is_key(record.get("proposed")):
        return "sentinels"
    return None


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _id_list(name: str, ids: Sequence[str]) -> tuple[Html, list[str]]:
    items = html_join(html('<li><code class="eic-id">{}</code></li>', esc_id(i)) for i in ids)
    body = html('<ol class="eic-id-list">{}</ol>', items) if ids else html("<p><i>(empty)</i></p>")
    heading = html("<p><b>{}</b> ({})</p>", name, _count(len(ids), "ID"))
    text = [f"{name} ({_count(len(ids), 'ID')}):", *(f"  {n}. {visible_id(i)}" for n, i in enumerate(ids, 1))]
    return html('<div class="eic-side">{}{}</div>', heading, body), text


def _key_table(name: str, key: Mapping[str, str]) -> tuple[Html, list[str]]:
    ids = sorted_ids(key)
    rows = html_join(
        html(
            '<tr><th scope="row"><code class="eic-id">{}</code></th><td><code>{}</code></td></tr>',
            esc_id(i),
            display_json(key[i]),
        )
        for i in ids
    )
    caption = html("{} ({}, sorted by ID)", name, _count(len(ids), "ID"))
    body = (
        html("<tbody>{}</tbody>", rows)
        if ids
        else html('<tbody><tr><td colspan="2"><i>(empty)</i></td></tr></tbody>')
    )
    table = html(
        '<table class="eic-key"><caption>{}</caption>'
        '<thead><tr><th scope="col">ID</th><th scope="col">Answer</th></tr></thead>{}</table>',
        caption,
        body,
    )
    text = [
        f"{name} ({_count(len(ids), 'ID')}, sorted by ID):",
        *(f"  {visible_id(i)}: {display_json(key[i])}" for i in ids),
    ]
    return html('<div class="eic-side">{}</div>', table), text


def input_view(record: Mapping[str, Any]) -> HtmlBlock:
    """``record`` laid out for reading: its two sides next to each other (wrapping under each other on a
    narrow page), any other part as compact JSON, then the whole input as JSON, folded away."""
    check = sides_of(record)
    if check is None:
        return HtmlBlock(json_html(dict(record)), display_json(dict(record)))
    names = [*SIDES[check], *(n for n in _EXTRA_LISTS if n in record)]
    parts = [_id_list(n, record[n]) if check == "target-scope" else _key_table(n, record[n]) for n in names]
    rest = {k: v for k, v in record.items() if k not in names and k not in _SHOWN_ELSEWHERE}
    sides = html('<div class="eic-sides">{}</div>', html_join(part for part, _ in parts))
    text = [line for _, lines in parts for line in lines]
    if rest:
        text.append(display_json(rest))
    folded = html(
        '<details class="eic-as-json"><summary>The same input as JSON</summary>{}</details>',
        json_html(dict(record)),
    )
    return HtmlBlock(html("{}{}{}", sides, json_html(rest) if rest else Html(), folded), "\n".join(text))


def context_view(context: Mapping[str, Any]) -> HtmlBlock:
    """A case's context (an earlier key, a rubric revision) the same way: each answer key (a part named
    ``…key``, such as ``earlier_key``) as a table sorted by ID, anything else as compact JSON."""
    keys = {
        name: value for name, value in context.items() if name.endswith("key") and _is_key(value) and value
    }
    rest = {name: value for name, value in context.items() if name not in keys}
    parts = [_key_table(name.replace("_", " "), value) for name, value in keys.items()]
    sides = html('<div class="eic-sides">{}</div>', html_join(part for part, _ in parts)) if parts else Html()
    text = [line for _, lines in parts for line in lines]
    if rest:
        text.append(display_json(rest))
    return HtmlBlock(html("{}{}", sides, json_html(rest) if rest else Html()), "\n".join(text))
