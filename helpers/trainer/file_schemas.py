"""The JSON Schemas of the files the check-out side writes and reads, checked with ``fastjsonschema``.

Each schema is ``fixtures/schemas/NAME.schema.json`` (listed in ``docs/formats.md``): the paper,
key, answers and graded result of a check-out, a line of the trainer's ledger and its head, and
the cohort's verdict cache. A schema is compiled once per process, the first time a file of its
kind is read (never at import, so the browser edition pays for it only when it reads one).
What a schema cannot state (signatures, digests, the ledger's rules, duplicate keys, which answer
fields a case's check needs) stays with the readers. Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from helpers.core.errors import CheckoutFileError, describe_value
from helpers.core.jsonio import load_json_file
from helpers.core.paths import fixtures_dir

__all__ = ["SCHEMAS", "schema_path", "validator", "schema_problem", "check_schema"]

#: Each schema's name (its file is ``fixtures/schemas/NAME.schema.json``), by what it describes.
SCHEMAS = {
    "paper": "checkout-paper-v1",
    "key": "checkout-key-v1",
    "answers": "checkout-answers-v1",
    "result": "checkout-result-v1",
    "ledger line": "ledger-line-v1",
    "ledger head": "ledger-head-v1",
    "verdict cache": "cohort-verdicts-v1",
}

_TYPE_WORDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "object": "an object",
    "array": "a list",
    "null": "null",
}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)


def schema_path(kind: str) -> Any:
    """The schema file for ``kind`` (a key of :data:`SCHEMAS`)."""
    return fixtures_dir() / "schemas" / f"{SCHEMAS[kind]}.schema.json"


@functools.cache
def validator(kind: str) -> Callable[[Any], Any]:
    """The schema for ``kind``, compiled by ``fastjsonschema`` the first time it is asked for."""
    import fastjsonschema

    compiled: Callable[[Any], Any] = fastjsonschema.compile(load_json_file(schema_path(kind)))
    return compiled


def _field(path: Sequence[Any]) -> str:
    """``["data", "cases", 0, "label"]`` as ``cases[0].label``; the top level as ``the file``."""
    shown = ""
    for part in path[1:]:
        if isinstance(part, int) or (isinstance(part, str) and part.isascii() and part.isdigit()):
            shown += f"[{part}]"  # fastjsonschema names a list's item by its index as text
        elif isinstance(part, str) and _NAME.fullmatch(part):
            shown += f".{part}" if shown else part
        else:
            shown += f"[{describe_value(part)}]"
    return shown or "the file"


def _within(field: str, name: Any) -> str:
    """The field ``name`` of the object at ``field``."""
    return _field(["data", name]) if field == "the file" else field + _field(["data", 0, name])[3:]


def _expected(rule: str, definition: Any) -> str:
    """What the schema asked for, in words."""
    if rule == "type":
        types: list[str] = (
            definition["type"] if isinstance(definition["type"], list) else [definition["type"]]
        )
        return " or ".join(_TYPE_WORDS.get(t) or t for t in types)
    if rule == "const":
        return describe_value(definition["const"])
    if rule == "enum":
        return "one of " + ", ".join(describe_value(v) for v in definition["enum"])
    if rule == "minLength":
        return "non-empty text"
    if rule == "pattern":
        return f"text matching {definition['pattern']}"
    if rule == "minItems":
        least = definition["minItems"]
        return "a non-empty list" if least == 1 else f"a list of at least {least} items"
    if rule == "maxItems":
        return f"a list of at most {definition['maxItems']} items"
    if rule == "minimum":
        return f"a number from {definition['minimum']}"
    if rule == "exclusiveMaximum":
        return f"a number below {definition['exclusiveMaximum']:,}"
    return f"what the schema's {rule} allows"


def schema_problem(kind: str, data: Any) -> str | None:
    """The first thing in ``data`` the ``kind`` schema refuses, as one line naming the field, or ``None``."""
    import fastjsonschema

    try:
        validator(kind)(data)
    except fastjsonschema.JsonSchemaValueException as exc:
        field = _field(exc.path)
        rule, definition, value = exc.rule or "", exc.definition, exc.value
        if rule == "required" and isinstance(value, dict):
            missing = [name for name in definition["required"] if name not in value]
            return f"{_within(field, missing[0])} is missing, expected a required field"
        if rule == "additionalProperties" and isinstance(value, dict):
            known = definition.get("properties", {})
            extra = sorted((name for name in value if name not in known), key=str)
            return f"{_within(field, extra[0])} is an unexpected field, expected only those {SCHEMAS[kind]} lists"
        return f"{field} is {describe_value(value)}, expected {_expected(rule, definition)}"
    return None


def check_schema(kind: str, data: Any, *, source: str) -> None:
    """Refuse ``data`` (:class:`CheckoutFileError` naming ``source`` and the field) unless its schema takes it."""
    problem = schema_problem(kind, data)
    if problem is not None:
        raise CheckoutFileError(problem, path=source)
