"""Runnable examples: one standard-library-only Python file per check.

:func:`example_source` writes a single Python file that holds a check and its
filled cases. The check is not rewritten for the file: its functions and
classes are copied from the helpers' own source with :func:`inspect.getsource`,
so the example and the helpers share one implementation. The cases come from
``fixtures/filled_cases.json``. Run with plain ``python``, the file asserts
that every case gives its expected output, as compact JSON and character for
character, and prints a one-line summary.

``python -m helpers export-example --check NAME [-o FILE]`` writes one.
Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``
("Downloads").
"""

from __future__ import annotations

import ast
import builtins
import inspect
import pprint
import symtable
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from helpers.core import error_root, errors, jsonio, jsonwalk, ordering, sentinels, target_scope, validation
from helpers.core.checks import require_check_name
from helpers.core.errors import BuildError
from helpers.trainee.cases.filled import Case, filled_cases

__all__ = [
    "CHECK_NOTEBOOKS",
    "EXAMPLE_PARTS",
    "ENTRY_POINTS",
    "example_filename",
    "example_source",
    "copied_names",
]

#: Standard-library imports every example starts with; the copied helper code needs no others.
_IMPORTS = """\
from __future__ import annotations

import itertools
import json
import re
import reprlib
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast
"""

_ROOT: tuple[ModuleType, tuple[str, ...]] = (error_root, ("HelpersError",))
_WALK: tuple[ModuleType, tuple[str, ...]] = (
    jsonwalk,
    ("NotJsonShaped", "JsonStyle", "_container_pieces", "json_pieces"),
)
_ERROR_NAMES = (
    "_MAX_SHOWN",
    "_LONE_SURROGATE",
    "_escape_one",
    "escape_surrogates",
    "_json_text",
    "_json_scalar",
    "_json_key",
    "_MESSAGE_STYLE",
    "_ShortRepr",
    "describe_value",
    "CheckInputError",
    "InvalidInputError",
)
_ORDERING: tuple[ModuleType, tuple[str, ...]] = (ordering, ("utf16_key", "sorted_ids"))
_JSON: tuple[ModuleType, tuple[str, ...]] = (
    jsonio,
    ("dumps_compact",),
)

#: For each check, the helper definitions the example copies, module by module, in order.
EXAMPLE_PARTS: dict[str, tuple[tuple[ModuleType, tuple[str, ...]], ...]] = {
    "target-scope": (
        _ROOT,
        _WALK,
        (errors, _ERROR_NAMES),
        _ORDERING,
        (validation, ("_kind", "require_id_list", "require_record")),
        _JSON,
        (
            target_scope,
            (
                "TARGET_SCOPE_FIELDS",
                "TargetScopeResult",
                "NeedsStaffLabels",
                "_compare",
                "check_target_scope",
                "check_target_scope_input",
            ),
        ),
    ),
    "sentinels": (
        _ROOT,
        _WALK,
        (errors, (*_ERROR_NAMES, "EmptyBaselineError")),
        _ORDERING,
        (validation, ("_kind", "require_answer_key", "require_record")),
        _JSON,
        (
            sentinels,
            ("SENTINEL_FIELDS", "SentinelResult", "check_sentinels", "check_sentinels_input"),
        ),
    ),
}

#: The input-object function each example runs on its cases.
ENTRY_POINTS: dict[str, str] = {
    "target-scope": "check_target_scope_input",
    "sentinels": "check_sentinels_input",
}

#: The notebook that teaches each check (and links its downloads).
CHECK_NOTEBOOKS: dict[str, str] = {
    "target-scope": "02_target_scope.ipynb",
    "sentinels": "03_sentinel_answer_key.ipynb",
}

_HEADER = '''\
#!/usr/bin/env python3
"""Runnable example: the {check} check on its filled cases.

Needs Python 3.11 or newer and nothing beyond the standard library:

    python {filename}

It runs the check on every filled case, asserts that each gives its expected
output exactly (as compact JSON), and prints a one-line summary. Add a case
to CASES, or edit one, to try an input of your own.

The check below is the project's own code, copied from its helpers; the cases
come from fixtures/filled_cases.json. The check is taught in
notebooks/{notebook}.
Regenerate this file with:
    python -m helpers export-example --check {check} -o {filename}
"""

'''

_RUNNER = '''

def actual_output(record: Mapping[str, Any]) -> dict[str, Any]:
    """The check's output object for one input; a refused input gives {{"error": message}}."""
    try:
        return {entry}(record).as_dict()
    except CheckInputError as exc:
        return {{"error": exc.message}}


def main() -> int:
    """Assert every case's expected output, then print a one-line summary."""
    for case in CASES:
        expected = dumps_compact(case["expected"])
        actual = dumps_compact(actual_output(case["input"]))
        if actual != expected:
            raise AssertionError(
                f"case {{case['id']}}: expected {{expected}}, the check gives {{actual}}"
            )
    names = ", ".join(case["id"] for case in CASES)
    print(f"{check}: all {{len(CASES)}} cases give their expected output ({{names}})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''


def example_filename(check: str) -> str:
    """The download's file name, e.g. ``target_scope_example.py``."""
    return f"{require_check_name(check).replace('-', '_')}_example.py"


def _definition(module: ModuleType, name: str) -> str:
    """The source of one top-level definition in ``module``, decorators included."""
    value = getattr(module, name, None)
    if inspect.isfunction(value) or inspect.isclass(value):
        if value.__module__ != module.__name__:
            raise BuildError(f"{module.__name__}.{name} is defined in {value.__module__}, not here")
        return inspect.getsource(value)
    # A constant: find its assignment in the module's source.
    for node in ast.parse(inspect.getsource(module)).body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            segment = ast.get_source_segment(inspect.getsource(module), node)
            if segment is not None:
                return segment + "\n"
    raise BuildError(f"{module.__name__} has no top-level definition of {name}")


def copied_names(check: str) -> list[tuple[str, str]]:
    """``(module, name)`` for every helper definition the check's example copies."""
    return [
        (module.__name__, name)
        for module, names in EXAMPLE_PARTS[require_check_name(check)]
        for name in names
    ]


def _undefined_globals(source: str, filename: str) -> list[str]:
    """Names the code uses as globals that neither it nor the builtins define."""
    top = symtable.symtable(source, filename, "exec")
    defined = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    defined |= set(dir(builtins))
    missing: set[str] = set()

    def visit(table: symtable.SymbolTable) -> None:
        for symbol in table.get_symbols():
            if symbol.is_referenced() and symbol.is_global() and symbol.get_name() not in defined:
                missing.add(symbol.get_name())
        for child in table.get_children():
            visit(child)

    for child in top.get_children():
        visit(child)
    # With postponed annotations the symbol table skips annotations; read them from the tree.
    for node in ast.walk(ast.parse(source, filename)):
        annotations: list[ast.expr | None] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
            annotations = [a.annotation for a in every] + [node.returns]
        elif isinstance(node, ast.AnnAssign):
            annotations = [node.annotation]
        for annotation in annotations:
            if annotation is None:
                continue
            for name in ast.walk(annotation):
                if isinstance(name, ast.Name) and name.id not in defined:
                    missing.add(name.id)
    missing |= {s.get_name() for s in top.get_symbols() if s.is_referenced() and s.get_name() not in defined}
    return sorted(missing)


def _cases_literal(cases: Sequence[Case]) -> str:
    data: list[dict[str, Any]] = [
        {
            "id": case.id,
            "title": case.title,
            "input": case.input,
            "expected": case.expected,
            "decision": case.decision,
            "reason": case.reason,
        }
        for case in cases
    ]
    return "CASES: list[dict[str, Any]] = " + pprint.pformat(data, sort_dicts=False, width=88)


def example_source(check: str, cases: Sequence[Case] | None = None) -> str:
    """The runnable example for ``check``: the helpers' code for it and its cases.

    ``cases`` defaults to the check's filled cases. Raises
    :class:`~helpers.core.errors.BuildError` if a case belongs to another check or if
    the copied code would use a name it does not define.
    Taught in ``02_target_scope.ipynb`` and ``03_sentinel_answer_key.ipynb``.
    """
    check = require_check_name(check)
    cases = list(filled_cases(check) if cases is None else cases)
    for case in cases:
        if case.check != check:
            raise BuildError(f"case {case.id!r} is a {case.check} case, not a {check} case")
    filename = example_filename(check)
    parts = [
        _HEADER.format(check=check, filename=filename, notebook=CHECK_NOTEBOOKS[check]),
        _IMPORTS,
    ]
    for module, names in EXAMPLE_PARTS[check]:
        parts.append(f"\n\n# ---- copied from {module.__name__.replace('.', '/')}.py ----\n")
        for name in names:
            parts.append("\n\n" + _definition(module, name))
    parts.append("\n\n# ---- the filled cases ----\n\n" + _cases_literal(cases) + "\n")
    parts.append(_RUNNER.format(check=check, entry=ENTRY_POINTS[check]))
    source = "".join(parts)
    missing = _undefined_globals(source, filename)
    if missing:
        raise BuildError(
            f"the copied code uses {', '.join(missing)} but does not define it; "
            "add its definition to EXAMPLE_PARTS or its import to _IMPORTS",
            path=filename,
        )
    return source
