"""A small JSON Schema checker for the project's own schemas in ``fixtures/schemas/``.

It covers the keywords those schemas use (``type``, ``const``, ``enum``,
``required``, ``properties``, ``additionalProperties``, ``items``, ``minimum``,
``maxItems``, ``minLength``, ``pattern``, ``$ref`` to ``#/$defs/…``), with the
standard library only, so it also runs in the browser edition. Each problem
names its place, e.g. ``mastery.states[2].box is -1, below the minimum 0``.

Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.errors import describe_value
from ..core.jsonio import load_json_file
from ..core.paths import fixtures_dir

__all__ = ["schema_path", "load_schema", "schema_problems"]

_TYPES: dict[str, Any] = {
    "object": Mapping,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def schema_path(name: str) -> Path:
    """``fixtures/schemas/NAME.schema.json``."""
    return fixtures_dir() / "schemas" / f"{name}.schema.json"


def load_schema(name: str) -> dict[str, Any]:
    """Read one of the project's schemas strictly."""
    data = load_json_file(schema_path(name))
    if not isinstance(data, dict):
        raise ValueError(f"{schema_path(name)} is not a JSON Schema object")
    return data


@functools.lru_cache(maxsize=64)
def _pattern(source: str) -> re.Pattern[str]:
    """A schema pattern with JSON Schema's (ECMA-262) meaning in Python.

    ``\\d`` and ``\\w`` match ASCII only, and a final ``$`` matches only at the very
    end: Python's ``$`` also matches before a trailing newline, so it becomes ``\\Z``.
    """
    if source.endswith("$") and not source.endswith("\\$"):
        source = source[:-1] + r"\Z"
    return re.compile(source, re.ASCII)


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, _TYPES[kind])


def _where(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def schema_problems(
    value: Any, schema: Mapping[str, Any], *, root: Mapping[str, Any] | None = None, path: str = ""
) -> list[str]:
    """Every way ``value`` breaks ``schema``; an empty list when it conforms."""
    root = schema if root is None else root
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return schema_problems(value, root["$defs"][name], root=root, path=path)
    here = path or "the file"
    kinds = schema.get("type")
    if kinds is not None:
        allowed = [kinds] if isinstance(kinds, str) else list(kinds)
        if not any(_is(value, kind) for kind in allowed):
            return [f"{here} is {describe_value(value)}, expected {' or '.join(allowed)}"]
    if "const" in schema and value != schema["const"]:
        return [f"{here} is {describe_value(value)}, expected {describe_value(schema['const'])}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{here} is {describe_value(value)}, expected one of {schema['enum']}"]
    problems: list[str] = []
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if number and "minimum" in schema and value < schema["minimum"]:
        problems.append(f"{here} is {value}, below the minimum {schema['minimum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            problems.append(f"{here} is shorter than {schema['minLength']} characters")
        if "pattern" in schema and not _pattern(schema["pattern"]).search(value):
            problems.append(f"{here} is {describe_value(value)}, which does not match {schema['pattern']}")
    if isinstance(value, list):
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            problems.append(f"{here} has {len(value)} items, more than {schema['maxItems']}")
        if "items" in schema:
            for index, item in enumerate(value):
                problems += schema_problems(item, schema["items"], root=root, path=_where(path, index))
    if isinstance(value, Mapping):
        for name in schema.get("required", ()):
            if name not in value:
                problems.append(f'{here} has no "{name}" field')
        properties = schema.get("properties", {})
        for name, item in value.items():
            if name in properties:
                problems += schema_problems(item, properties[name], root=root, path=_where(path, name))
            elif schema.get("additionalProperties", True) is False:
                problems.append(f"{here} has an unexpected field {describe_value(name)}")
    return problems
