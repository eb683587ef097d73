"""What a trainee sees of one drill case (:class:`CaseView`): never the expected output, the keyed rule
or the case's seed. Taught in ``04_practice.ipynb``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from helpers.core.chardiff import visible_text
from helpers.trainee.answers import HOLD_LABELS
from helpers.trainee.html import display_json

__all__ = ["CaseView", "HOLD_LABELS"]


def frozen(value: Any) -> Any:
    """A read-only deep copy of a JSON value, so a view can't be used to change the case."""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        if all(type(item) is str for item in value):  # a list of IDs, as most are
            return tuple(value)
        return tuple(frozen(item) for item in value)
    if isinstance(value, dict | Mapping):
        if all(type(item) is str for item in value.values()):  # an answer key, as most are
            return MappingProxyType(dict(value))
        return MappingProxyType({key: frozen(item) for key, item in value.items()})
    return value


@dataclass(frozen=True)
class CaseView:
    """What the trainee sees of one case, and nothing more.

    ``input`` is the check's input (``original``/``rewritten``/``unresolved`` or
    ``baseline``/``proposed``), plus any context the check does not read under
    other keys. ``fields`` are the output's two lists and its flag;
    ``reason_options`` are ``(text, rule_id)`` pairs in the order shown.
    """

    number: int
    label: str
    check: str
    input: Mapping[str, Any]
    fields: tuple[str, str, str]
    ids: tuple[str, ...]
    reason_options: tuple[tuple[str, str], ...]
    hold_label: str

    def __deepcopy__(self, memo: dict[int, Any]) -> CaseView:
        return self  # immutable all the way down

    def plain_input(self) -> dict[str, Any]:
        """:attr:`input` as plain, editable JSON values (dicts and lists): a copy."""
        plain: dict[str, Any] = _plain(self.input)
        return plain

    def text(self) -> str:
        """The case as plain text, look-alike characters shown as ``⟨U+XXXX⟩``."""
        return f"{self.label} ({self.check})\n{visible_text(display_json(self.plain_input()), notated=True)}"


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value
