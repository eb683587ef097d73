"""Mutation testing of the checks and the teaching code: do the notebooks alone catch a broken check?

Run by hand with ``python3 tasks.py mutants`` (never in CI: it is slow). cosmic-ray makes the
mutants of the modules below (curated operators, see ``CURATED``). Once per run, in a scratch
copy of the repository and before any mutant, each notebook runs under strict nbval with a line
tracer (a ``sitecustomize`` on PYTHONPATH, so the kernel loads it), giving the lines of
``helpers/`` each notebook executes; the whole suite runs once as a baseline. Then, for each
mutant, on ``--jobs`` workers each with its own copy:

1. strict nbval over the notebooks that execute a line of the mutated statement (the innermost
   statement around it; a compound one with its whole body): does a stored output change? A
   mutant no notebook reaches is "not reached": not caught by the notebooks.
2. if not, the whole non-browser suite (without ``tests/tools/test_downloads.py``, so a mutant
   caught only because a committed download went stale does not count; for the same reason
   the downloads, which copy helper code, are first regenerated from the mutated source, as
   ``tests/tools/test_site.py`` refuses stale ones too). With
   ``--suite-coverage``, only the test files that execute the statement (a map of each test
   file is recorded instead of the baseline); faster, but not the default.

Left out, and counted apart: mutants listed in ``tools/mutation/equivalent.json`` (reviewed,
each with its line, the source before and after, and a one-line reason), mutants that are not
valid Python, and mutants inside type annotations or an ``if TYPE_CHECKING:`` block (every
module has ``from __future__ import annotations``, so those are never run). The summary table
per module goes to standard output and, with every verdict, to ``artifacts/mutants.md`` and
``artifacts/mutants.json``; each verdict is also appended to ``artifacts/mutants.jsonl`` as it
comes, and the coverage map is kept in ``artifacts/mutants-coverage.json``.

    python3 tasks.py mutants                      # every curated mutant, on 2 workers
    python3 tasks.py mutants --list               # the mutants and their counts per module; runs nothing
    python3 tasks.py mutants --limit 60           # a spread sample of 60
    python3 tasks.py mutants --module helpers/core/sentinels.py
    python3 tasks.py mutants --resume             # go on with an interrupted run (artifacts/mutants.jsonl)
    python3 tasks.py mutants --rerun-survivors    # after the notebooks improve: re-test all but nbval catches
    python3 tasks.py mutants --all-operators      # every operator cosmic-ray has (about 3 times as many)
    python3 tasks.py mutants --suite-coverage     # step 2 on the test files that reach the mutant only
    python3 tasks.py mutants --notebooks-only     # step 1 only: what strict nbval on the notebooks catches
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import functools
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from datetime import datetime
from pathlib import Path
from typing import IO, Any

# --------------------------------------------------------------------------------------------
# The curated operators: one or two semantic mutants per site (``--all-operators`` lifts this).
#
# cosmic-ray 8.7.0 names an operator ``core/<Name>``; the table holds ``<Name>``. Its
# binary-operator family replaces each operator by every other one (11 mutants per ``+``), and
# its comparison family each comparison by every other one (7 per ``==``): most of those are
# killed by any test that runs the line, so they add hours and no information. Kept instead:
#
# | family                       | kept (from -> to)                          | why                      |
# |------------------------------|--------------------------------------------|--------------------------|
# | ReplaceBinaryOperator        | + -> -, - -> +, * -> +, / -> *, // -> *,   | one natural counterpart  |
# |                              | % -> //, ** -> *, << -> >>, >> -> <<,      | per operator             |
# |                              | | -> &, & -> |, ^ -> |                      |                          |
# | ReplaceComparisonOperator    | == -> !=, != -> ==, is -> is not,          | the negation ...         |
# |                              | is not -> is, < -> >=, <= -> >, > -> <=,   |                          |
# |                              | >= -> <, < -> <=, <= -> <, > -> >=, >= -> >| ... and the off-by-one   |
# | ReplaceUnaryOperator         | drop ``not``, drop ``-``, drop ``~``,      | one per operator         |
# |                              | +x -> -x                                   |                          |
# | everything else listed below | all                                        | already one per site     |
#
# cosmic-ray 8.7.0 has no ``in`` / ``not in`` comparison mutants. VariableInserter and
# VariableReplacer need arguments and are not configured, so cosmic-ray makes none of them.
# --------------------------------------------------------------------------------------------
CURATED: dict[str, str] = {
    "AddNot": "a condition negated: `if x` -> `if not x`",
    "NumberReplacer": "a number one up, and one down",
    "ZeroIterationForLoop": "a `for` loop whose body never runs",
    "ReplaceOrWithAnd": "`or` -> `and`",
    "ReplaceAndWithOr": "`and` -> `or`",
    "ReplaceTrueWithFalse": "`True` -> `False`",
    "ReplaceFalseWithTrue": "`False` -> `True`",
    "ExceptionReplacer": "an `except` clause that never matches",
    "RemoveDecorator": "a decorator dropped",
    "ReplaceContinueWithBreak": "`continue` -> `break`",
    "ReplaceBreakWithContinue": "`break` -> `continue`",
    "ReplaceUnaryOperator_Delete_Not": "`not x` -> `x`",
    "ReplaceUnaryOperator_Delete_USub": "`-x` -> `x`",
    "ReplaceUnaryOperator_Delete_Invert": "`~x` -> `x`",
    "ReplaceUnaryOperator_UAdd_USub": "`+x` -> `-x`",
    "ReplaceBinaryOperator_Add_Sub": "`+` -> `-`",
    "ReplaceBinaryOperator_Sub_Add": "`-` -> `+`",
    "ReplaceBinaryOperator_Mul_Add": "`*` -> `+`",
    "ReplaceBinaryOperator_Div_Mul": "`/` -> `*`",
    "ReplaceBinaryOperator_FloorDiv_Mul": "`//` -> `*`",
    "ReplaceBinaryOperator_Mod_FloorDiv": "`%` -> `//`",
    "ReplaceBinaryOperator_Pow_Mul": "`**` -> `*`",
    "ReplaceBinaryOperator_LShift_RShift": "`<<` -> `>>`",
    "ReplaceBinaryOperator_RShift_LShift": "`>>` -> `<<`",
    "ReplaceBinaryOperator_BitOr_BitAnd": "`|` -> `&`",
    "ReplaceBinaryOperator_BitAnd_BitOr": "`&` -> `|`",
    "ReplaceBinaryOperator_BitXor_BitOr": "`^` -> `|`",
    "ReplaceComparisonOperator_Eq_NotEq": "`==` -> `!=` (negation)",
    "ReplaceComparisonOperator_NotEq_Eq": "`!=` -> `==` (negation)",
    "ReplaceComparisonOperator_Is_IsNot": "`is` -> `is not` (negation)",
    "ReplaceComparisonOperator_IsNot_Is": "`is not` -> `is` (negation)",
    "ReplaceComparisonOperator_Lt_GtE": "`<` -> `>=` (negation)",
    "ReplaceComparisonOperator_Lt_LtE": "`<` -> `<=` (boundary)",
    "ReplaceComparisonOperator_LtE_Gt": "`<=` -> `>` (negation)",
    "ReplaceComparisonOperator_LtE_Lt": "`<=` -> `<` (boundary)",
    "ReplaceComparisonOperator_Gt_LtE": "`>` -> `<=` (negation)",
    "ReplaceComparisonOperator_Gt_GtE": "`>` -> `>=` (boundary)",
    "ReplaceComparisonOperator_GtE_Lt": "`>=` -> `<` (negation)",
    "ReplaceComparisonOperator_GtE_Gt": "`>=` -> `>` (boundary)",
}

ROOT = Path(__file__).resolve().parents[2]
TOOL_VENV = ROOT / ".mutation-venv"
TOOL_REQUIREMENTS = Path(__file__).with_name("requirements.txt")
EQUIVALENT = Path(__file__).with_name("equivalent.json")
PYTHON = ROOT / ".venv" / "bin" / "python"
ARTIFACTS = ROOT / "artifacts"

#: The modules mutated: the checks (core) and the teaching code that grades and renders them.
MODULES = (
    "helpers/core/target_scope.py",
    "helpers/core/sentinels.py",
    "helpers/core/ordering.py",
    "helpers/core/validation.py",
    "helpers/core/jsonio.py",
    "helpers/core/jsonwalk.py",
    "helpers/core/chardiff.py",
    "helpers/core/explain.py",
    "helpers/core/outcomes.py",
    "helpers/core/checks.py",
    "helpers/core/baselines.py",
    "helpers/team/fastpath.py",
    "helpers/team/fast_json.py",
    "helpers/team/fast_checks.py",
    "helpers/team/key_windows.py",
    "helpers/trainee/grading.py",
    "helpers/trainee/answers.py",
    "helpers/trainee/feedback.py",
    "helpers/trainee/reason_question.py",
    "helpers/trainee/hints.py",
    "helpers/trainee/cases/filled.py",
    "helpers/trainee/html.py",
    "helpers/trainee/views/case_html.py",
    "helpers/trainee/views/answer_html.py",
)

#: A module every notebook runs: if the coverage map says none does, the tracer is broken.
SANITY_MODULE = "helpers/core/target_scope.py"

#: Strict nbval; the notebooks to run are appended. The cells run in the kernel, so the pytest
#: process needs no hypothesis plugin (loading it costs seconds per run, thousands of runs).
NBVAL = [
    "-m",
    "pytest",
    "-q",
    "-x",
    "-p",
    "no:cacheprovider",
    "-p",
    "no:randomly",
    "-p",
    "no:hypothesispytest",
    "--nbval",
    "--nbval-current-env",
    "--nbval-sanitize-with",
    "tests/nbval_sanitize.cfg",
]
#: The suite's options; ``SUITE`` adds what it runs (the whole of ``tests`` and ``notebooks``).
SUITE_OPTIONS = [
    "-m",
    "pytest",
    "-q",
    "-x",
    "-p",
    "no:cacheprovider",
    "-m",
    "not browser",
    "--nbval",
    "--nbval-current-env",
    "--nbval-sanitize-with",
    "tests/nbval_sanitize.cfg",
    "--ignore",
    "tests/tools/test_downloads.py",
    "--ignore",
    "tests/project/test_mutation_runner.py",
]
SUITE = [*SUITE_OPTIONS, "tests", "notebooks"]

#: Files committed but generated from the mutated modules, and the command that regenerates them.
DOWNLOADS = "notebooks/downloads"
REGENERATE = ["-m", "tools.publish.downloads"]

#: Verdicts: what happened to each mutant. Only the last three are tested mutants.
NOT_TESTED = ("equivalent", "unchanged", "invalid", "never-run")
TESTED = ("nbval", "suite", "survived")

Item = dict[str, Any]
#: notebook -> module -> executed lines; ``None`` for a notebook whose lines are unknown
#: (it is then run for every mutant).
CoverageMap = Mapping[str, Mapping[str, set[int]] | None]

TRACE_DIR_ENV = "EIC_MUTANTS_TRACE_DIR"
TRACE_PREFIX_ENV = "EIC_MUTANTS_TRACE_PREFIX"
TRACE_DRIVER_ENV = "EIC_MUTANTS_TRACE_DRIVER"

#: Put on PYTHONPATH for every run (so every Python process started, kernels included, loads it):
#: defines the exception ``ExceptionReplacer`` writes into ``except`` clauses, so such a clause
#: simply never matches (instead of raising NameError); spares each pytest process a 3-second
#: import (see below); and, when the two variables are set,
#: records each line of the copy's ``helpers/`` that runs. A notebook's kernel is killed by
#: nbval (``shutdown_kernel(now=True)``), so ``atexit`` never runs there: each line is written
#: (and flushed) the first time it is seen. The pytest process that drives nbval is not traced.
SITECUSTOMIZE = f'''\
import builtins
import os
import sys
import threading


class CosmicRayTestingException(Exception):
    """Raised by nothing: an ``except`` clause naming it never matches."""


builtins.CosmicRayTestingException = CosmicRayTestingException

if "--nbval" in sys.argv:
    # The pytest process (nbval, or the suite): nbformat's jsonschema imports rfc3987_syntax,
    # which spends about 3 s building a parser for the "iri" string format, which no notebook
    # schema and no test here uses. Without it jsonschema skips that one format.
    sys.modules.setdefault("rfc3987_syntax", None)

_directory = os.environ.get("{TRACE_DIR_ENV}")
_prefix = os.environ.get("{TRACE_PREFIX_ENV}")
_driver = os.environ.get("{TRACE_DRIVER_ENV}") == "1" or "--nbval" not in sys.argv
if _directory and _prefix and _driver:
    _seen = set()
    _left = {{}}  # code object -> its lines not seen yet
    _done = set()  # code objects whose every line has been seen: no need to trace them again
    _lock = threading.Lock()
    _out = open(
        os.path.join(_directory, f"{{os.getpid()}}.lines"), "a", encoding="utf-8", buffering=1
    )

    def _line(frame, event, arg):
        if event == "line":
            code = frame.f_code
            key = (code.co_filename, frame.f_lineno)
            if key not in _seen:
                with _lock:
                    _seen.add(key)
                    _out.write(f"{{key[1]}}\\t{{key[0]}}\\n")
                    left = _left.get(code)
                    if left is not None:
                        left.discard(key[1])
                        if not left:
                            _done.add(code)
        return _line

    def _call(frame, event, arg):
        code = frame.f_code
        if code in _done or not code.co_filename.startswith(_prefix):
            return None
        if code not in _left:
            # A function's (or class body's) first line has no line event of its own: the
            # frame that ran the ``def`` recorded it.
            lines = {{line for _start, _end, line in code.co_lines() if line}}
            if not code.co_name.startswith("<"):
                lines.discard(code.co_firstlineno)
            with _lock:
                _left[code] = lines - {{line for name, line in _seen if name == code.co_filename}}
        return _line

    threading.settrace(_call)
    sys.settrace(_call)
'''

#: Run with the cosmic-ray environment's Python, in the scratch copy: the mutated source of each
#: ``[module, operator, occurrence]`` read as JSON from standard input, or None when the operator
#: changes nothing there. The same calls ``cosmic-ray apply`` makes, without writing the file.
MUTATE = """\
import json, sys
import cosmic_ray.plugins
from cosmic_ray.mutating import mutate_code
from cosmic_ray.util import read_python_source
sources = {}
out = []
for module, operator, occurrence in json.load(sys.stdin):
    if module not in sources:
        sources[module] = read_python_source(module)
    out.append(mutate_code(sources[module], cosmic_ray.plugins.get_operator(operator)(), occurrence))
json.dump(out, sys.stdout)
"""


def _say(message: str) -> None:
    print(f"[mutants] {message}", file=sys.stderr, flush=True)


class RunnerError(Exception):
    """A problem that stops the run before any verdict could be trusted."""


# ------------------------------------------------------------------------------ operators


def curated(operator: str) -> bool:
    """Whether ``operator`` (``core/Name`` as cosmic-ray writes it, or ``Name``) is in ``CURATED``."""
    return operator.removeprefix("core/") in CURATED


# ------------------------------------------------------------------------ source positions

_NEWLINE = re.compile(r"\r\n|\r|\n")


def _lines(source: str) -> list[str]:
    """The lines of ``source`` as Python (and parso) number them: split at newlines only."""
    return _NEWLINE.split(source)


@functools.lru_cache(maxsize=32)
def _tree(source: str) -> ast.Module:
    return ast.parse(source)


def _position(source: str, line: int, column: int) -> tuple[int, int]:
    """cosmic-ray's (parso's) ``[line, column]``, column in characters, as ``ast`` counts: in UTF-8 bytes."""
    lines = _lines(source)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return line, len(text[:column].encode("utf-8"))


def _start(node: ast.AST) -> tuple[int, int]:
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    if decorators:  # the ``@`` comes before the decorator's own position: take the line from its start
        return min(d.lineno for d in decorators), 0
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def _end(node: ast.AST) -> tuple[int, int]:
    line: int | None = getattr(node, "end_lineno", None)
    column: int | None = getattr(node, "end_col_offset", None)
    if line is None or column is None:
        return _start(node)[0], 1 << 30
    return line, column


def _contains(node: ast.AST, position: tuple[int, int]) -> bool:
    return _start(node) <= position < _end(node)


def _future_annotations(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and any(alias.name == "annotations" for alias in node.names)
        for node in tree.body
    )


def _type_checking_name_is_false(tree: ast.Module) -> bool:
    """Whether the bare name ``TYPE_CHECKING`` is false at run time: imported from typing or set to False."""
    bound = False
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module in ("typing", "typing_extensions"):
            if any(a.name == "TYPE_CHECKING" and a.asname in (None, "TYPE_CHECKING") for a in node.names):
                bound = True
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "TYPE_CHECKING" for t in node.targets
        ):
            if not (isinstance(node.value, ast.Constant) and node.value.value is False):
                return False
            bound = True
    return bound


def _is_type_checking(test: ast.expr, tree: ast.Module) -> bool:
    if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
        return _type_checking_name_is_false(tree)
    return (
        isinstance(test, ast.Attribute)
        and test.attr == "TYPE_CHECKING"
        and isinstance(test.value, ast.Name)
        and test.value.id in ("typing", "typing_extensions")
    )


def _never_evaluated(tree: ast.Module) -> Iterator[tuple[ast.AST, str]]:
    """Every part of the module that never runs: unevaluated annotations and ``if TYPE_CHECKING:`` bodies.

    With ``from __future__ import annotations`` no annotation is evaluated; without it, only the
    annotations of local variables (PEP 526) are not.
    """
    future = _future_annotations(tree)
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, in_function = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and future:
            arguments = node.args
            for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
                if arg.annotation is not None:
                    yield arg.annotation, "annotation"
            for arg_or_none in (arguments.vararg, arguments.kwarg):
                if arg_or_none is not None and arg_or_none.annotation is not None:
                    yield arg_or_none.annotation, "annotation"
            if node.returns is not None:
                yield node.returns, "annotation"
        elif isinstance(node, ast.AnnAssign) and (future or in_function):
            yield node.annotation, "annotation"
        elif isinstance(node, ast.If) and _is_type_checking(node.test, tree):
            for statement in node.body:
                yield statement, "TYPE_CHECKING block"
        is_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        inner = is_function or (in_function and not isinstance(node, ast.ClassDef))
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))


def never_run(source: str, line: int, column: int) -> str | None:
    """Why a mutant at ``[line, column]`` (cosmic-ray's ``start_pos``) never runs, or None if it may.

    ``"annotation"`` inside a type annotation that is never evaluated, ``"TYPE_CHECKING block"``
    inside the body of ``if TYPE_CHECKING:``.
    """
    position = _position(source, line, column)
    for node, reason in _never_evaluated(_tree(source)):
        if _contains(node, position):
            return reason
    return None


def statement_span(source: str, line: int, column: int) -> tuple[int, int] | None:
    """First and last line of the innermost statement around ``[line, column]``, decorators included.

    For a compound statement (``if``, ``for``, ``def`` ...) that is its whole span, body and all:
    a notebook that executes any of those lines may run the mutated code. None when no statement
    holds the position (the caller then runs every notebook).
    """
    position = _position(source, line, column)
    around = [
        node for node in ast.walk(_tree(source)) if isinstance(node, ast.stmt) and _contains(node, position)
    ]
    if not around:
        return None
    innermost = max(around, key=lambda node: (_start(node), tuple(-x for x in _end(node))))
    return _start(innermost)[0], _end(innermost)[0]


def select_notebooks(coverage: CoverageMap, module: str, span: tuple[int, int] | None) -> list[str]:
    """The notebooks that execute a line of ``module`` in ``span`` (inclusive), in order.

    Conservative: a notebook with no recorded lines (``None``), or a mutant with no span, means
    the notebook is run.
    """
    chosen = []
    for notebook in sorted(coverage):
        executed = coverage[notebook]
        if (
            executed is None
            or span is None
            or not executed.get(module, set()).isdisjoint(range(span[0], span[1] + 1))
        ):
            chosen.append(notebook)
    return chosen


def changed_lines(original: str, mutated: str) -> tuple[int, str, str]:
    """The first changed line (1-based) and the changed lines before and after, stripped and joined."""
    before, after = _lines(original), _lines(mutated)
    head = 0
    while head < min(len(before), len(after)) and before[head] == after[head]:
        head += 1
    tail = 0
    while (
        tail < min(len(before), len(after)) - head
        and before[len(before) - 1 - tail] == after[len(after) - 1 - tail]
    ):
        tail += 1
    old = " / ".join(text.strip() for text in before[head : len(before) - tail])
    new = " / ".join(text.strip() for text in after[head : len(after) - tail])
    return head + 1, old, new


# ------------------------------------------------------------------------- the mutant set


def key(item: Mapping[str, Any]) -> str:
    """``module:operator:occurrence``, the name of a mutant in the results and in equivalent.json."""
    return f"{item['module']}:{item['operator']}:{item['occurrence']}"


def leave_out_tested(items: list[Item], results: Sequence[str | Path]) -> list[Item]:
    """``items`` less every mutant an earlier run's results (``mutants.json``) name at the same line:
    what is left makes a fresh sample."""
    tested: set[tuple[str, int]] = set()
    for path in results:
        tested |= {
            (str(r["mutant"]), int(r["line"])) for r in json.loads(Path(path).read_text(encoding="utf-8"))
        }
    return [i for i in items if (str(i["mutant"]), int(i["line"])) not in tested]


def spread(items: list[Item], limit: int | None) -> list[Item]:
    """``limit`` items spread evenly over the list (so over every module), or all of them."""
    if limit is None or limit >= len(items):
        return items
    step = len(items) / limit
    return [items[int(index * step)] for index in range(limit)]


def same_mutant(old: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
    """Whether an earlier result (or an equivalent.json entry) is about this very mutant.

    The key alone is not enough: an edit above the site renumbers the occurrences. The line and
    the source before and after must match too (where the earlier record has them).
    """
    if old.get("mutant") != item["mutant"] or old.get("line", item["line"]) != item["line"]:
        return False
    return all(old[field] == item[field] for field in ("original", "mutated") if field in old)


def classify(items: list[Item], equivalent: Sequence[Mapping[str, Any]]) -> None:
    """Mark each item ``equivalent``, ``never-run`` or ``unchanged`` where it is one (``verdict``)."""
    by_key = {str(entry["mutant"]): entry for entry in equivalent}
    for item in items:
        entry = by_key.get(item["mutant"])
        if item["mutated"] is None:
            item["verdict"] = "unchanged"
        elif item.get("invalid"):
            item["verdict"] = "invalid"
        elif item["never_run"]:
            item["verdict"] = "never-run"
        elif entry is not None:
            if "original" in entry and "mutated" in entry and same_mutant(entry, item):
                item["verdict"] = "equivalent"
                item["reason"] = entry.get("reason", "")
            else:
                _say(
                    f"equivalent.json: {item['mutant']} no longer matches (line {item['line']}: "
                    f"{item['original']!r} -> {item['mutated']!r}); tested as usual"
                )


def unmade_catches(
    previous: list[Item], items: list[Item], sources: Mapping[str, str]
) -> tuple[list[Item], list[Item], int]:
    """For ``--rerun-survivors``, before any mutant is made: (earlier nbval catches known to be the very
    same mutant, the items still to make, items with no earlier verdict).

    A catch is known without making it when its key, start and end are as they were, it lies on one
    line, and that line still reads as its ``original``: the operator at that occurrence, place and text
    makes the same mutant. The rest with an earlier verdict are made and go through :func:`rerun_plan`;
    those with none are left out, as ``rerun_plan`` leaves them out, without being made.
    """
    earlier = {str(result["mutant"]): result for result in previous}
    kept, rest, new = [], [], 0
    for item in items:
        old = earlier.get(str(item["mutant"]))
        if old is None:
            new += 1
            continue
        start, end = item["start"], item["end"]
        lines = _lines(sources[str(item["module"])])
        if (
            old.get("verdict") == "nbval"
            and old.get("start") == start
            and old.get("end") == end
            and start[0] == end[0] <= len(lines)
            and lines[start[0] - 1].strip() == old.get("original")
        ):
            kept.append(old)
        else:
            rest.append(item)
    return kept, rest, new


def rerun_plan(previous: list[Item], items: list[Item]) -> tuple[list[Item], list[Item], int]:
    """For ``--rerun-survivors``: (the earlier results kept, the items to re-test, items with no earlier verdict).

    Kept: earlier nbval catches of the very same mutant. Re-tested: every other mutant that has an
    earlier result (whatever its verdict, or when the code under its key changed).
    """
    earlier = {str(result["mutant"]): result for result in previous}
    kept, again, new = [], [], 0
    for item in items:
        old = earlier.get(item["mutant"])
        if old is None:
            new += 1
        elif old.get("verdict") == "nbval" and same_mutant(old, item):
            kept.append(old)
        else:
            again.append(item)
    return kept, again, new


def merge(
    previous: list[Item], fresh: list[Item], modules: Iterable[str], current: Iterable[str]
) -> list[Item]:
    """The earlier results with the fresh ones in place of those with the same key.

    Earlier results of the ``modules`` just enumerated whose key is not among ``current`` (the
    keys enumerated now) are stale and dropped; those of other modules are kept as they were.
    """
    replaced = {str(result["mutant"]): result for result in fresh}
    enumerated, now = set(modules), set(current)
    merged = [
        replaced.pop(str(old["mutant"]), old)
        for old in previous
        if old["module"] not in enumerated or old["mutant"] in now
    ]
    merged += replaced.values()
    return sorted(merged, key=lambda r: (r["module"], r["line"], r["operator"], r["occurrence"]))


# ------------------------------------------------------------------------------ the table


def table(results: Iterable[Mapping[str, Any]]) -> str:
    """The summary per module as a Markdown table."""
    by_module: dict[str, Counter[str]] = defaultdict(Counter)
    for result in results:
        counts = by_module[str(result["module"])]
        counts[str(result["verdict"])] += 1
        if result.get("nbval") == "not reached":
            counts["not reached"] += 1
    lines = [
        "| Module | Mutants | Equivalent | Not valid Python | In annotations (never run) "
        "| Caught by nbval alone | Caught by the suite only | Survived | nbval % | suite % "
        "| No notebook reaches |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    total: Counter[str] = Counter()
    for module in sorted(by_module):
        counts = by_module[module]
        total.update(counts)
        lines.append(_row(module, counts))
    lines.append(_row("**all**", total))
    return "\n".join(lines)


def percentages(counts: Mapping[str, int]) -> tuple[float, float] | None:
    """nbval % and suite % (caught by nbval, or by either), over the tested mutants; None if none."""
    real = sum(counts.get(verdict, 0) for verdict in TESTED)
    if not real:
        return None
    caught = counts.get("nbval", 0)
    return 100 * caught / real, 100 * (caught + counts.get("suite", 0)) / real


def _row(name: str, counts: Counter[str]) -> str:
    mutants = sum(counts[verdict] for verdict in (*TESTED, *NOT_TESTED))
    shares = percentages(counts)
    nbval, suite = (f"{shares[0]:.0f}", f"{shares[1]:.0f}") if shares else ("-", "-")
    return (
        f"| {name} | {mutants} | {counts['equivalent'] + counts['unchanged']} | {counts['invalid']} | "
        f"{counts['never-run']} | "
        f"{counts['nbval']} | {counts['suite']} | {counts['survived']} | {nbval} | {suite} | "
        f"{counts['not reached']} |"
    )


def _survivor(result: Mapping[str, Any]) -> str:
    notebooks = result.get("notebooks") or []
    reached = f"notebooks run: {', '.join(notebooks)}" if notebooks else "no notebook reaches it"
    return (
        f"- `{result['module']}:{result['line']}` in `{result.get('where') or '(module)'}`, "
        f"{str(result['operator']).removeprefix('core/')} (`{result['mutant']}`): "
        f"`{result.get('original', '?')}` -> `{result.get('mutated', '?')}`; {reached}"
    )


# ------------------------------------------------------------------------ running things

_RUNNING: set[subprocess.Popen[bytes]] = set()
_RUNNING_LOCK = threading.Lock()
_STOPPING = threading.Event()


def _kill(process: subprocess.Popen[bytes]) -> None:
    """End a process we started, and its process group (pytest and what it started in it)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _python(args: Sequence[str], copy: Path, shim: Path, timeout: float, **env: str) -> tuple[int, str]:
    """Run ``python ARGS`` (pytest, mostly) in ``copy``: (its exit code, the end of its output).

    A run that outlasts ``timeout`` is killed and counts as failed, exit code -9 (a mutant that
    hangs is caught).
    A notebook kernel runs in its own session, and exits by itself when its parent dies.
    """
    if _STOPPING.is_set():
        raise RunnerError("stopping")
    environment = {
        **os.environ,
        "PYTHONPATH": f"{shim}{os.pathsep}{copy}",
        "PYTHONDONTWRITEBYTECODE": "1",
        **env,
    }
    with tempfile.TemporaryFile() as output:
        process = subprocess.Popen(
            [str(PYTHON), *args],
            cwd=copy,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        with _RUNNING_LOCK:
            _RUNNING.add(process)
        try:
            code = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(process)
            code = -9
        finally:
            with _RUNNING_LOCK:
                _RUNNING.discard(process)
        output.seek(0)
        return code, output.read()[-3000:].decode("utf-8", "replace")


def _kill_all() -> None:
    _STOPPING.set()
    with _RUNNING_LOCK:
        running = list(_RUNNING)
    for process in running:
        _kill(process)


def tool() -> Path:
    """The cosmic-ray command, installed into its own pinned environment when missing."""
    command = TOOL_VENV / "bin" / "cosmic-ray"
    stamp = TOOL_VENV / ".requirements"
    wanted = TOOL_REQUIREMENTS.read_text(encoding="utf-8")
    if command.exists() and stamp.exists() and stamp.read_text(encoding="utf-8") == wanted:
        return command
    _say(f"installing cosmic-ray into {TOOL_VENV.name}/")
    subprocess.run([sys.executable, "-m", "venv", str(TOOL_VENV)], check=True)
    subprocess.run(
        [
            str(TOOL_VENV / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            str(TOOL_REQUIREMENTS),
        ],
        check=True,
    )
    stamp.write_text(wanted, encoding="utf-8")
    return command


def scratch_copy() -> Path:
    """A copy of the working tree's files (tracked and new, not ignored) in a temporary folder."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True, capture_output=True
        )
        .stdout.decode("utf-8")
        .split("\0")
    )
    target = Path(tempfile.mkdtemp(prefix="eic-mutants-")).resolve()
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def work_items(command: Path, copy: Path, modules: list[str]) -> list[Item]:
    """Every mutation cosmic-ray would make of ``modules``: module, operator, occurrence, position."""
    with tempfile.TemporaryDirectory(prefix="eic-cosmic-ray-") as scratch:
        config = Path(scratch) / "cosmic-ray.toml"
        config.write_text(
            "[cosmic-ray]\n"
            f"module-path = {json.dumps(modules)}\n"
            'timeout = 600.0\nexcluded-modules = []\ntest-command = "true"\n'
            '[cosmic-ray.distributor]\nname = "local"\n',
            encoding="utf-8",
        )
        session = Path(scratch) / "session.sqlite"
        subprocess.run(
            [str(command), "init", str(config), str(session)], cwd=copy, check=True, capture_output=True
        )
        dumped = subprocess.run(
            [str(command), "dump", str(session)], cwd=copy, check=True, capture_output=True, text=True
        ).stdout
    items = []
    for line in dumped.splitlines():
        job, _result = json.loads(line)
        mutation = job["mutations"][0]
        item: Item = {
            "module": mutation["module_path"],
            "operator": mutation["operator_name"],
            "occurrence": mutation["occurrence"],
            "line": mutation["start_pos"][0],
            "start": list(mutation["start_pos"]),
            "end": list(mutation["end_pos"]),
            "where": mutation.get("definition_name") or "",
        }
        item["mutant"] = key(item)
        items.append(item)
    return sorted(
        items, key=lambda i: (modules.index(i["module"]), i["start"], i["operator"], i["occurrence"])
    )


def mutated_sources(copy: Path, items: list[Item], jobs: int) -> list[str | None]:
    """The mutated source of each item (None where the operator changes nothing), via cosmic-ray."""
    python = TOOL_VENV / "bin" / "python"
    # Each process takes whole modules, so it reads each source once.
    modules = sorted({str(item["module"]) for item in items})
    share = {module: index % max(jobs, 1) for index, module in enumerate(modules)}
    chunks: dict[int, list[int]] = defaultdict(list)
    for index, item in enumerate(items):
        chunks[share[str(item["module"])]].append(index)

    def run(indices: list[int]) -> list[str | None]:
        request = json.dumps(
            [[items[i]["module"], items[i]["operator"], items[i]["occurrence"]] for i in indices]
        )
        done = subprocess.run(
            [str(python), "-c", MUTATE], cwd=copy, input=request, capture_output=True, text=True, check=True
        )
        answer: list[str | None] = json.loads(done.stdout)
        return answer

    out: list[str | None] = [None] * len(items)
    with ThreadPoolExecutor(max_workers=max(jobs, 1)) as pool:
        for indices, answer in zip(chunks.values(), pool.map(run, chunks.values()), strict=True):
            for index, code in zip(indices, answer, strict=True):
                out[index] = code
    return out


def compiles(code: str, filename: str) -> bool:
    """Whether ``code`` is valid Python (cosmic-ray can make, say, ``def f(+, x)`` of ``def f(*, x)``)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # say, SyntaxWarning for ``is`` with a literal: still valid
            compile(code, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def describe(items: list[Item], copy: Path, codes: list[str | None]) -> dict[str, str]:
    """Add ``original``, ``mutated`` (the changed lines), ``never_run`` and ``span`` to each item.

    Returns the mutated source of each item, by key (unchanged items have none).
    """
    sources = {m: (copy / m).read_text(encoding="utf-8") for m in {str(i["module"]) for i in items}}
    by_key = {}
    for item, code in zip(items, codes, strict=True):
        source = sources[str(item["module"])]
        line, column = item["start"]
        item["never_run"] = never_run(source, line, column)
        span = statement_span(source, line, column)
        item["span"] = list(span) if span else None
        if code is None or code == source:
            item["original"] = _lines(source)[line - 1].strip() if line <= len(_lines(source)) else ""
            item["mutated"] = None
            continue
        _first, item["original"], item["mutated"] = changed_lines(source, code)
        item["invalid"] = not compiles(code, str(item["module"]))
        by_key[str(item["mutant"])] = code
    return by_key


# ------------------------------------------------------------------------- coverage map


def notebooks_in(copy: Path) -> list[str]:
    """The notebooks nbval runs, as paths relative to the copy."""
    return sorted(
        str(path.relative_to(copy))
        for path in (copy / "notebooks").rglob("*.ipynb")
        if ".ipynb_checkpoints" not in path.parts
    )


def read_trace(directory: Path, copy: Path) -> dict[str, set[int]]:
    """The lines the traced processes recorded: module (relative to the copy) -> lines."""
    lines: dict[str, set[int]] = defaultdict(set)
    prefix = str(copy) + os.sep
    for trace in directory.glob("*.lines"):
        for record in trace.read_text(encoding="utf-8", errors="replace").splitlines():
            number, _tab, filename = record.partition("\t")
            if filename.startswith(prefix) and number.isdigit():
                lines[filename[len(prefix) :].replace(os.sep, "/")].add(int(number))
    return dict(lines)


def test_files_in(copy: Path) -> list[str]:
    """The test files the suite collects (``test_*.py`` under tests/, less the ``--ignore`` ones)."""
    ignored = [SUITE_OPTIONS[i + 1] for i, option in enumerate(SUITE_OPTIONS) if option == "--ignore"]
    return sorted(
        name
        for name in (str(path.relative_to(copy)) for path in (copy / "tests").rglob("test_*.py"))
        if not any(name == ignore or name.startswith(ignore.rstrip("/") + "/") for ignore in ignored)
    )


def coverage_of(
    target: str, copy: Path, shim: Path, timeout: float, *, suite: bool = False
) -> tuple[dict[str, set[int]] | None, float, bool]:
    """Run one notebook (strict nbval) or one test file (the suite's options) with the line tracer on.

    Returns the lines it ran (None if none was recorded), the seconds it took, and whether it
    ran any test at all (a file of browser tests only has none). Stops the run if it fails on
    the unmutated copy: every mutant would look caught.
    """
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="eic-trace-") as directory:
        code, output = _python(
            [*(SUITE_OPTIONS if suite else NBVAL), target],
            copy,
            shim,
            timeout * 3,
            **{
                TRACE_DIR_ENV: directory,
                TRACE_PREFIX_ENV: str(copy / "helpers") + os.sep,
                TRACE_DRIVER_ENV: "1" if suite else "0",
            },
        )
        if code == 5 and suite:  # no test selected
            return None, time.monotonic() - started, False
        if code != 0:
            raise RunnerError(f"{target} fails before any mutation:\n{output}")
        lines = read_trace(Path(directory), copy)
    return (lines or None), time.monotonic() - started, True


def by_reach(files: list[str], coverage: CoverageMap, module: str) -> list[str]:
    """``files`` with those that run the most lines of ``module`` first (with ``-x``, the likeliest to
    fail comes early; the set run, so the verdict, is the same in any order)."""

    def reach(name: str) -> int:
        lines = coverage.get(name)
        return len(lines.get(module, ())) if lines is not None else 0

    return sorted(files, key=lambda name: (-reach(name), name))


def check_coverage(coverage: CoverageMap, what: str = "notebook") -> None:
    """The tracer's self-check: some notebook (or test file) must run ``SANITY_MODULE``."""
    if not any(lines and lines.get(SANITY_MODULE) for lines in coverage.values()):
        raise RunnerError(
            f"the coverage map says no {what} executes {SANITY_MODULE}: the line tracer is broken "
            "(is the copy's helpers/ imported? did sitecustomize load in every process?)"
        )


# -------------------------------------------------------------------------------- mutants


def _regenerate(copy: Path, shim: Path, timeout: float, committed: Mapping[Path, bytes]) -> str:
    """Regenerate the committed downloads from the mutated source, as whoever made the change would.

    They copy helper code (``tools.publish.downloads``), so a mutant there makes them stale, and
    a stale download fails ``tests/tools/test_site.py`` too, not only the ignored test_downloads.py: a
    catch that says nothing about behaviour. ``unchanged``, ``regenerated`` or ``failed`` (then
    the committed files are put back and the suite runs with them).
    """
    code, _output = _python(REGENERATE, copy, shim, timeout)
    if code != 0:
        for download, content in committed.items():
            download.write_bytes(content)
        return "failed"
    folder = next(iter(committed)).parent
    now = {p: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    return "unchanged" if now == committed else "regenerated"


def try_mutant(
    item: Item,
    code: str,
    copy: Path,
    shim: Path,
    coverage: CoverageMap,
    timeout: float,
    suite_coverage: CoverageMap | None = None,
    notebooks_only: bool = False,
) -> Item:
    """The result for one mutant, tested in ``copy``.

    Its verdict: ``nbval`` (the notebooks that reach it caught it), ``suite`` (only the suite
    did) or ``survived``; ``nbval`` says what nbval did (``caught``, ``passed``, ``not reached``)
    and ``notebooks`` which notebooks it ran; ``downloads`` whether the downloads had to be
    regenerated before the suite. With ``suite_coverage`` (``--suite-coverage``) the suite is
    only the test files that reach the mutant (``suite_files``); the notebooks that do already
    passed in step 1. With ``notebooks_only`` (``--notebooks-only``) there is no step 2: a
    mutant the notebooks miss is ``survived``, with ``suite`` ``not run``.
    """
    started = time.monotonic()
    module = str(item["module"])
    path = copy / module
    original = path.read_bytes()
    span = (item["span"][0], item["span"][1]) if item["span"] else None
    notebooks = by_reach(select_notebooks(coverage, module, span), coverage, module)
    files = (
        None
        if suite_coverage is None
        else by_reach(select_notebooks(suite_coverage, module, span), suite_coverage, module)
    )
    extra: Item = {} if files is None else {"suite_files": files}
    downloads = copy / DOWNLOADS
    committed = {p: p.read_bytes() for p in downloads.iterdir() if p.is_file()} if downloads.is_dir() else {}
    try:
        path.write_text(code, encoding="utf-8")
        if not notebooks:
            nbval = "not reached"
        else:
            nbval = "passed" if _python([*NBVAL, *notebooks], copy, shim, timeout)[0] == 0 else "caught"
        if nbval != "caught" and committed and not notebooks_only:
            extra["downloads"] = _regenerate(copy, shim, timeout, committed)
        if nbval == "caught":
            verdict = "nbval"
        elif notebooks_only:
            verdict, extra["suite"] = "survived", "not run"
        elif files is None:
            verdict = "survived" if _python(SUITE, copy, shim, timeout * 4)[0] == 0 else "suite"
        elif not files:
            verdict, extra["suite"] = "survived", "not reached"
        else:
            verdict = (
                "survived" if _python([*SUITE_OPTIONS, *files], copy, shim, timeout * 4)[0] == 0 else "suite"
            )
    finally:
        path.write_bytes(original)
        if committed:
            for extra_file in set(downloads.iterdir()) - committed.keys():
                extra_file.unlink()
            for download, content in committed.items():
                download.write_bytes(content)
    seconds = round(time.monotonic() - started, 1)
    return {**item, "verdict": verdict, "nbval": nbval, "notebooks": notebooks, **extra, "seconds": seconds}


def _load_jsonl(path: Path) -> tuple[str | None, list[Item]]:
    """The name of the run that started the journal, and the verdicts in it."""
    if not path.exists():
        return None, []
    run: str | None = None
    results = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interruption
        if not isinstance(record, dict):
            continue
        if "mutant" in record and "verdict" in record:
            results.append(record)
        elif run is None and "run" in record:
            run = str(record["run"])
    return run, results


def _load_equivalent() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads(EQUIVALENT.read_text(encoding="utf-8"))["equivalent"]
    for entry in entries:
        if not {"mutant", "line", "original", "mutated", "reason"} <= entry.keys():
            _say(f"equivalent.json: {entry.get('mutant')} lacks line/original/mutated/reason; ignored")
    return entries


def _listing(items: list[Item], all_counts: Counter[str], modules: list[str]) -> str:
    out = []
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        counts[item["module"]][item.get("verdict", "to run")] += 1
    for module in modules:
        out.append(f"{module}:")
        for item in (i for i in items if i["module"] == module):
            status = item.get("verdict", "")
            status = f" [{item['never_run']}]" if status == "never-run" else f" [{status}]" if status else ""
            out.append(
                f"  {item['line']:>4} {item['mutant'].split(':', 1)[1]}{status} in {item['where'] or '(module)'}: "
                f"{item['original']} -> {item['mutated']}"
            )
    out += [
        "",
        "| Module | All operators | Selected | In annotations (never run) | Equivalent | Not valid Python "
        "| To run |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    total: Counter[str] = Counter()
    for module in modules:
        c = counts[module]
        row = Counter(
            all=all_counts[module],
            curated=sum(c.values()),
            never=c["never-run"],
            equivalent=c["equivalent"] + c["unchanged"],
            invalid=c["invalid"],
            run=c["to run"],
        )
        total.update(row)
        out.append(
            f"| {module} | {row['all']} | {row['curated']} | {row['never']} | {row['equivalent']} "
            f"| {row['invalid']} | {row['run']} |"
        )
    out.append(
        f"| **all** | {total['all']} | {total['curated']} | {total['never']} | {total['equivalent']} "
        f"| {total['invalid']} | {total['run']} |"
    )
    return "\n".join(out)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python3 tasks.py mutants",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--limit", type=int, help="a spread sample of this many mutants")
    parser.add_argument(
        "--fresh-from",
        action="append",
        default=[],
        metavar="RESULTS",
        help="leave out the mutants an earlier run's mutants.json tested (repeatable): a fresh sample",
    )
    parser.add_argument("--module", action="append", help="only this module (repeatable)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for one nbval run")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once, each in its own copy")
    parser.add_argument(
        "--all-operators", action="store_true", help="every cosmic-ray operator, not the curated ones"
    )
    parser.add_argument(
        "--list", action="store_true", help="print the mutants and their counts per module; run nothing"
    )
    parser.add_argument(
        "--rerun-survivors",
        action="store_true",
        help="re-test only mutants whose verdict in artifacts/mutants.json was not nbval; merge the results",
    )
    parser.add_argument("--resume", action="store_true", help="reuse the verdicts in artifacts/mutants.jsonl")
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the one run of the suite on the unmutated copy"
    )
    parser.add_argument(
        "--suite-coverage",
        action="store_true",
        help="step 2 runs only the test files that execute the mutated statement (a coverage map "
        "of each test file is recorded first, in place of the baseline); not the default",
    )
    parser.add_argument(
        "--notebooks-only",
        action="store_true",
        help="step 1 only: a mutant strict nbval on the notebooks misses counts as survived, "
        "and the suite never runs (no baseline either)",
    )
    args = parser.parse_args(argv)
    args.modules = args.module or list(MODULES)
    unknown = [m for m in args.modules if not (ROOT / m).is_file()]
    if unknown:
        parser.error(f"no such module: {', '.join(unknown)}")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.notebooks_only and args.suite_coverage:
        parser.error("--notebooks-only runs no suite, so --suite-coverage has nothing to do")
    if args.rerun_survivors and not (ARTIFACTS / "mutants.json").exists():
        parser.error("--rerun-survivors needs an earlier artifacts/mutants.json")
    return args


def _interrupted(signum: int, _frame: object) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    # Ctrl-C, or SIGTERM, stops cleanly (kills what runs, keeps the journal) even when started in
    # the background, where SIGINT arrives ignored.
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)
    try:
        return _main(args)
    except RunnerError as error:
        _say(f"stopped: {error}")
        return 2


def _main(args: argparse.Namespace) -> int:
    modules: list[str] = args.modules
    equivalent = _load_equivalent()
    command = tool()
    run_id = datetime.now().isoformat(timespec="seconds")
    started = time.monotonic()
    copies = [scratch_copy()]
    shim = Path(tempfile.mkdtemp(prefix="eic-mutants-site-")).resolve()
    (shim / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    try:
        everything = work_items(command, copies[0], modules)
        all_counts = Counter(str(i["module"]) for i in everything)
        items = everything if args.all_operators else [i for i in everything if curated(str(i["operator"]))]
        made = len(items)
        selected = [str(i["mutant"]) for i in items]
        previous: list[Item] = []
        kept: list[Item] = []
        new = 0
        if args.fresh_from:
            items = leave_out_tested(items, args.fresh_from)
        if args.limit is not None and not (args.list or args.rerun_survivors):
            # Sample first, so only the sampled mutants are made (making every one takes minutes).
            items = spread(items, args.limit)
        if args.rerun_survivors and not args.list:
            # Likewise: an earlier nbval catch whose line is unchanged, and a mutant with no earlier
            # verdict, are not made at all.
            previous = json.loads((ARTIFACTS / "mutants.json").read_text(encoding="utf-8"))
            sources = {
                m: (copies[0] / m).read_text(encoding="utf-8") for m in {str(i["module"]) for i in items}
            }
            kept, items, new = unmade_catches(previous, items, sources)
        codes = describe(items, copies[0], mutated_sources(copies[0], items, args.jobs))
        classify(items, equivalent)
        if args.list:
            print(_listing(items, all_counts, modules))
            return 0
        _say(
            f"{made} {'' if args.all_operators else 'curated '}mutants of {len(modules)} modules "
            f"({len(everything)} with every operator)"
        )
        if args.rerun_survivors:
            made_kept, items, _none = rerun_plan(previous, items)
            kept += made_kept
            _say(
                f"--rerun-survivors: {len(kept)} earlier nbval catches kept, {len(items)} to re-test, "
                f"{new} mutants with no earlier verdict left out"
            )
        items = spread(items, args.limit)
        done: dict[str, Item] = {}
        journal = ARTIFACTS / "mutants.jsonl"
        ARTIFACTS.mkdir(exist_ok=True)
        if args.resume:
            first_run, earlier = _load_jsonl(journal)
            run_id = first_run or run_id  # the resumed run goes on under its own name
            for old in earlier:
                done[str(old["mutant"])] = old
            reused = [i for i in items if i["mutant"] in done and same_mutant(done[i["mutant"]], i)]
            _say(f"--resume: {len(reused)} verdicts reused from {journal.name}")
            done = {str(i["mutant"]): done[str(i["mutant"])] for i in reused}
        else:
            journal.write_text("", encoding="utf-8")
        with journal.open("a", encoding="utf-8") as log:
            log.write(json.dumps({"run": run_id, "argv": sys.argv[1:]}) + "\n")
            results, timings = _run_all(args, items, codes, done, copies, shim, log, run_id)
    except KeyboardInterrupt:
        _kill_all()
        _say("interrupted: the verdicts so far are in artifacts/mutants.jsonl; go on with --resume")
        return 130
    finally:
        for copy in copies:
            shutil.rmtree(copy, ignore_errors=True)
        shutil.rmtree(shim, ignore_errors=True)
    elapsed = time.monotonic() - started
    if args.rerun_survivors:
        merged = merge(previous, kept + results, modules, selected)
    else:
        merged = sorted(results, key=lambda r: (r["module"], r["line"], r["operator"], r["occurrence"]))
    _write(merged, run_id, elapsed, timings, args)
    return 0


def _run_all(
    args: argparse.Namespace,
    items: list[Item],
    codes: Mapping[str, str],
    done: Mapping[str, Item],
    copies: list[Path],
    shim: Path,
    log: IO[str],
    run_id: str,
) -> tuple[list[Item], dict[str, float]]:
    """Build the coverage map (and check the baseline), then test every item on ``args.jobs`` copies."""
    timings: dict[str, float] = {}
    results: list[Item] = []
    for item in items:
        if item["mutant"] in done:
            results.append(done[item["mutant"]])
        elif "verdict" in item:  # equivalent, never run or unchanged: nothing to run
            result = {**item, "seconds": 0.0, "notebooks": [], "nbval": None, "run": run_id}
            results.append(result)
            log.write(json.dumps(result) + "\n")
    to_test = [i for i in items if "verdict" not in i and i["mutant"] not in done]
    if not to_test:
        return results, timings
    for _ in range(1, args.jobs):  # copies of the first copy, so every worker tests the same tree
        extra = Path(tempfile.mkdtemp(prefix="eic-mutants-")).resolve()
        shutil.copytree(copies[0], extra, dirs_exist_ok=True)
        copies.append(extra)
    free: queue.Queue[Path] = queue.Queue()
    for copy in copies:
        free.put(copy)

    def on_a_copy(work: Callable[[Path], Any]) -> Any:
        copy = free.get()
        try:
            return work(copy)
        finally:
            free.put(copy)

    pool = ThreadPoolExecutor(max_workers=args.jobs)
    try:
        coverage, suite_coverage = _coverage_phase(args, pool, on_a_copy, copies[0], shim, timings)
        phase = time.monotonic()
        _say(f"{len(to_test)} mutants to test on {args.jobs} workers")
        futures = [
            pool.submit(
                on_a_copy,
                functools.partial(
                    try_mutant,
                    item,
                    codes[item["mutant"]],
                    shim=shim,
                    coverage=coverage,
                    timeout=args.timeout,
                    suite_coverage=suite_coverage,
                    notebooks_only=args.notebooks_only,
                ),
            )
            for item in to_test
        ]
        for number, future in enumerate(as_completed(futures), 1):
            result = {**future.result(), "run": run_id}
            results.append(result)
            log.write(json.dumps(result) + "\n")
            log.flush()
            ran = f"{len(result['notebooks'])} notebooks"
            if "suite_files" in result and result["verdict"] != "nbval":
                ran += f", {len(result['suite_files'])} test files"
            _say(
                f"{number}/{len(to_test)} {result['mutant']} (line {result['line']}): {result['verdict']} "
                f"({result['seconds']:.1f} s; {ran})"
            )
        timings["mutants"] = time.monotonic() - phase
    except BaseException:
        _kill_all()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return results, timings


def _coverage_phase(
    args: argparse.Namespace,
    pool: ThreadPoolExecutor,
    on_a_copy: Callable[[Callable[[Path], Any]], Any],
    copy: Path,
    shim: Path,
    timings: dict[str, float],
) -> tuple[dict[str, dict[str, set[int]] | None], dict[str, dict[str, set[int]] | None] | None]:
    """The lines each notebook runs, and either the suite run once on the unmutated copy (the
    baseline) or, with ``--suite-coverage``, the lines each test file runs (each file must pass)."""
    phase = time.monotonic()
    baseline: Future[tuple[int, str]] | None = None
    if not args.no_baseline and not args.suite_coverage and not args.notebooks_only:
        baseline = pool.submit(on_a_copy, lambda c: _python(SUITE, c, shim, args.timeout * 4))
    files = test_files_in(copy) if args.suite_coverage else []
    traced = {
        target: pool.submit(
            on_a_copy,
            functools.partial(coverage_of, target, shim=shim, timeout=args.timeout, suite=target in files),
        )
        for target in [*files, *notebooks_in(copy)]
    }
    coverage: dict[str, dict[str, set[int]] | None] = {}
    suite_coverage: dict[str, dict[str, set[int]] | None] = {}
    for target, future in traced.items():
        lines, seconds, ran = future.result()
        if not ran:
            _say(f"coverage map: {target} runs no test here; left out ({seconds:.0f} s)")
            continue
        (suite_coverage if target in files else coverage)[target] = lines
        if lines is None:
            _say(f"coverage map: no line recorded for {target}: it is run for every mutant")
            continue
        reached = sum(len(v) for k, v in lines.items() if k in args.modules)
        _say(f"coverage map: {target} runs {reached} lines of the mutated modules ({seconds:.0f} s)")
    timings["coverage map"] = time.monotonic() - phase
    _say(
        f"coverage map: {len(traced) - len(files)} notebooks"
        + (f" and {len(files)} test files" if files else "")
        + f" in {timings['coverage map']:.0f} s"
    )
    check_coverage(coverage)
    if args.suite_coverage:
        check_coverage(suite_coverage, "test file")
    (ARTIFACTS / "mutants-coverage.json").write_text(
        json.dumps(
            {
                target: {m: sorted(v) for m, v in sorted((lines or {}).items())}
                for target, lines in {**coverage, **suite_coverage}.items()
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    if baseline is not None:
        code, output = baseline.result()
        timings["baseline suite"] = time.monotonic() - phase
        if code != 0:
            raise RunnerError(f"the suite fails before any mutation:\n{output}")
        _say(f"baseline: the suite passes on the unmutated copy ({timings['baseline suite']:.0f} s)")
    return coverage, (suite_coverage if args.suite_coverage else None)


def _write(
    results: list[Item], run_id: str, elapsed: float, timings: Mapping[str, float], args: argparse.Namespace
) -> None:
    survivors = [r for r in results if r["verdict"] == "survived"]
    fresh = sum(1 for r in results if r.get("run") == run_id)
    tested = [r for r in results if r.get("run") == run_id and r["verdict"] in TESTED]
    text = [
        table(results),
        "",
        "Mutants counts every mutant made (curated operators unless --all-operators). Equivalent: "
        "reviewed in tools/mutation/equivalent.json, or left unchanged by the operator. Not valid "
        "Python: the mutated module does not compile. In annotations: inside a type annotation or an "
        "`if TYPE_CHECKING:` block, never run. None of those is tested; the percentages are over the "
        "rest. suite % counts what nbval or the suite caught. No notebook reaches: tested mutants "
        "that no notebook executes (so not caught by nbval; the suite still ran).",
        "",
        f"{len(results)} mutants; run {run_id} took {elapsed / 60:.1f} minutes on {args.jobs} workers"
        + (" (" + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in timings.items()) + ")")
        + (
            f"; {sum(r['seconds'] for r in tested) / len(tested):.1f} s per tested mutant." if tested else "."
        ),
    ]
    text.append(
        "Step 2 did not run (--notebooks-only): survived means strict nbval on the notebooks alone "
        "missed the mutant, and suite % is nbval %."
        if args.notebooks_only
        else "Step 2 (after regenerating the downloads from the mutated source) ran "
        + (
            "only the test files that execute each mutant's statement (--suite-coverage)."
            if args.suite_coverage
            else "the whole suite."
        )
    )
    if fresh != len(results):
        text.append(
            f"{fresh} verdicts are from this run ({run_id}); the other {len(results) - fresh} are kept "
            "from earlier runs (their nbval catches, or modules not run this time)."
        )
    text += ["", f"Survivors ({len(survivors)}):", ""]
    text += [_survivor(r) for r in survivors]
    (ARTIFACTS / "mutants.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    (ARTIFACTS / "mutants.md").write_text("\n".join(text) + "\n", encoding="utf-8")
    print("\n".join(text))


if __name__ == "__main__":
    raise SystemExit(main())
