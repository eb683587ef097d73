"""The mutation-testing runner's own logic (tools/mutation/run.py), without cosmic-ray or nbval."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

RUNNER_PATH = Path(__file__).resolve().parents[2] / "tools" / "mutation" / "run.py"


def _load_runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_runner", RUNNER_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


runner = _load_runner()


def _col(source: str, line: int, text: str, nth: int = 0) -> int:
    """The column (in characters, as cosmic-ray gives it) of the ``nth`` ``text`` on ``line``."""
    row = source.split("\n")[line - 1]
    column = -1
    for _ in range(nth + 1):
        column = row.index(text, column + 1)
    return column


# ------------------------------------------------------------------------------ operators


def test_the_curated_operators_keep_one_counterpart_per_binary_operator():
    assert runner.curated("core/ReplaceBinaryOperator_BitOr_BitAnd")
    assert runner.curated("core/ReplaceBinaryOperator_Add_Sub")
    assert not runner.curated("core/ReplaceBinaryOperator_Add_Mul")
    assert not runner.curated("core/ReplaceBinaryOperator_BitOr_Add")
    binary = Counter(
        name.split("_")[1] for name in runner.CURATED if name.startswith("ReplaceBinaryOperator_")
    )
    assert set(binary.values()) == {1}
    assert set(binary) == {
        "Add",
        "Sub",
        "Mul",
        "Div",
        "FloorDiv",
        "Mod",
        "Pow",
        "LShift",
        "RShift",
        "BitOr",
        "BitAnd",
        "BitXor",
    }


def test_the_curated_comparisons_are_the_negation_and_the_boundary():
    assert runner.curated("core/ReplaceComparisonOperator_Lt_LtE")
    assert runner.curated("core/ReplaceComparisonOperator_Lt_GtE")
    assert runner.curated("core/ReplaceComparisonOperator_Eq_NotEq")
    assert runner.curated("core/ReplaceComparisonOperator_IsNot_Is")
    assert not runner.curated("core/ReplaceComparisonOperator_Lt_Gt")
    assert not runner.curated("core/ReplaceComparisonOperator_Eq_Lt")
    assert not runner.curated("core/ReplaceComparisonOperator_Eq_Is")
    comparisons = Counter(
        name.split("_")[1] for name in runner.CURATED if name.startswith("ReplaceComparisonOperator_")
    )
    assert max(comparisons.values()) == 2
    assert comparisons["Eq"] == comparisons["Is"] == 1


def test_the_other_operator_families_are_kept_whole_or_left_out():
    for name in ("AddNot", "NumberReplacer", "ExceptionReplacer", "ZeroIterationForLoop", "RemoveDecorator"):
        assert runner.curated(f"core/{name}")
        assert runner.curated(name)
    assert runner.curated("core/ReplaceUnaryOperator_Delete_Not")
    assert not runner.curated("core/ReplaceUnaryOperator_USub_Invert")
    assert not runner.curated("core/VariableReplacer")


# ------------------------------------------------------------------------ source positions

ANNOTATED = textwrap.dedent(
    """\
    from __future__ import annotations

    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        Alias = int | str
    else:
        Alias = int | float


    def f(x: int | None, *rest: int | str, **named: bool | None) -> str | None:
        y: int | None = x | 4
        return x | y


    def g(a="éééééé", b: int | None = None) -> None:
        return a | b
    """
)


def test_a_mutant_in_an_annotation_is_never_run():
    line = 11
    for nth in range(4):
        column = _col(ANNOTATED, line, "|", nth)
        assert runner.never_run(ANNOTATED, line, column) == "annotation"
    assert runner.never_run(ANNOTATED, 12, _col(ANNOTATED, 12, "|", 0)) == "annotation"


def test_a_mutant_in_a_body_is_kept():
    assert runner.never_run(ANNOTATED, 12, _col(ANNOTATED, 12, "|", 1)) is None  # the value of y
    assert runner.never_run(ANNOTATED, 13, _col(ANNOTATED, 13, "|")) is None
    assert runner.never_run(ANNOTATED, 12, _col(ANNOTATED, 12, "4")) is None


def test_a_column_after_non_ascii_text_is_counted_in_characters():
    # cosmic-ray's columns count characters; ast's count UTF-8 bytes (each é is two).
    assert runner.never_run(ANNOTATED, 16, _col(ANNOTATED, 16, "|")) == "annotation"
    assert runner.never_run(ANNOTATED, 17, _col(ANNOTATED, 17, "|")) is None


def test_a_type_checking_block_is_never_run_but_its_else_is():
    assert runner.never_run(ANNOTATED, 6, _col(ANNOTATED, 6, "|")) == "TYPE_CHECKING block"
    assert runner.never_run(ANNOTATED, 8, _col(ANNOTATED, 8, "|")) is None


def test_without_the_future_import_only_local_annotations_are_never_run():
    source = textwrap.dedent(
        """\
        def f(x: int | None) -> None:
            y: int | None = x
            return y

        TYPE_CHECKING = True
        if TYPE_CHECKING:
            z = 1 | 2
        """
    )
    assert runner.never_run(source, 1, _col(source, 1, "|")) is None  # evaluated when f is defined
    assert runner.never_run(source, 2, _col(source, 2, "|")) == "annotation"
    assert runner.never_run(source, 7, _col(source, 7, "|")) is None  # this TYPE_CHECKING is true


SPANS = textwrap.dedent(
    """\
    import functools


    @functools.cache
    def f(x):
        if x < 3:
            y = 1
        else:
            y = 2
        total = sum(
            [x, y],
        )
        return total
    """
)


def test_the_span_is_the_innermost_statement():
    assert runner.statement_span(SPANS, 7, _col(SPANS, 7, "1")) == (7, 7)
    assert runner.statement_span(SPANS, 11, _col(SPANS, 11, "y")) == (10, 12)
    assert runner.statement_span(SPANS, 13, _col(SPANS, 13, "total")) == (13, 13)


def test_a_compound_statement_spans_its_whole_body():
    assert runner.statement_span(SPANS, 6, _col(SPANS, 6, "<")) == (6, 9)


def test_a_decorator_belongs_to_the_decorated_definition():
    assert runner.statement_span(SPANS, 4, _col(SPANS, 4, "@")) == (4, 13)


def test_a_position_outside_every_statement_has_no_span():
    assert runner.statement_span(SPANS, 2, 0) is None


def test_changed_lines_gives_the_line_before_and_after():
    before = "a = 1\nb = x < 3\nc = 2\n"
    after = "a = 1\nb = x <= 3\nc = 2\n"
    assert runner.changed_lines(before, after) == (2, "b = x < 3", "b = x <= 3")
    assert runner.changed_lines("@d\ndef f(): pass\n", "def f(): pass\n") == (1, "@d", "")


def test_a_mutant_that_does_not_compile_is_spotted():
    assert runner.compiles("def f(*, x): return x\n", "m.py")
    assert not runner.compiles("def f(+, x): return x\n", "m.py")


# ------------------------------------------------------------------------- coverage map

COVERAGE = {
    "notebooks/a.ipynb": {"helpers/m.py": {1, 2, 3}, "helpers/core/target_scope.py": {5}},
    "notebooks/b.ipynb": {"helpers/m.py": {10}},
    "notebooks/c.ipynb": {"helpers/other.py": {2}},
}


def test_only_the_notebooks_that_run_the_span_are_selected():
    assert runner.select_notebooks(COVERAGE, "helpers/m.py", (2, 2)) == ["notebooks/a.ipynb"]
    assert runner.select_notebooks(COVERAGE, "helpers/m.py", (3, 10)) == [
        "notebooks/a.ipynb",
        "notebooks/b.ipynb",
    ]
    assert runner.select_notebooks(COVERAGE, "helpers/m.py", (4, 9)) == []
    assert runner.select_notebooks(COVERAGE, "helpers/unseen.py", (1, 100)) == []


def test_when_in_doubt_the_notebook_is_run():
    everything = sorted(COVERAGE)
    assert runner.select_notebooks(COVERAGE, "helpers/m.py", None) == everything
    unknown = {**COVERAGE, "notebooks/d.ipynb": None}
    assert runner.select_notebooks(unknown, "helpers/m.py", (4, 9)) == ["notebooks/d.ipynb"]


def test_the_coverage_self_check_stops_a_broken_tracer():
    runner.check_coverage(COVERAGE)
    broken = {
        name: {k: v for k, v in lines.items() if "target_scope" not in k} for name, lines in COVERAGE.items()
    }
    with pytest.raises(runner.RunnerError, match="tracer is broken"):
        runner.check_coverage(broken)
    with pytest.raises(runner.RunnerError):
        runner.check_coverage({"notebooks/a.ipynb": None})


def _traced_run(tmp_path: Path, code: str, *argv: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    shim, copy, trace = tmp_path / "shim", tmp_path / "copy", tmp_path / "trace"
    for folder in (shim, copy / "helpers", trace):
        folder.mkdir(parents=True)
    (shim / "sitecustomize.py").write_text(runner.SITECUSTOMIZE, encoding="utf-8")
    (copy / "helpers" / "__init__.py").write_text("NAME = 'helpers'\n", encoding="utf-8")
    (copy / "helpers" / "m.py").write_text(
        "def f(x):\n    if x:\n        return 1\n    return 2\n", encoding="utf-8"
    )
    env = {
        **os.environ,
        "PYTHONPATH": f"{shim}{os.pathsep}{copy}",
        runner.TRACE_DIR_ENV: str(trace),
        runner.TRACE_PREFIX_ENV: str(copy / "helpers") + os.sep,
    }
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    return done, trace


def test_the_tracer_records_lines_even_when_the_process_is_killed(tmp_path):
    # nbval kills the kernel (shutdown_kernel(now=True)): no atexit, so every line must be on disk already.
    code = "import os, signal\nimport helpers.m\nhelpers.m.f(0)\nos.kill(os.getpid(), signal.SIGKILL)\n"
    done, trace = _traced_run(tmp_path, code)
    assert done.returncode == -9
    lines = runner.read_trace(trace, tmp_path / "copy")
    # __init__'s one line; in m.py the def line, the test and the second return, not the first
    assert lines == {"helpers/__init__.py": {1}, "helpers/m.py": {1, 2, 4}}


def test_the_tracer_leaves_the_nbval_driver_alone_and_defines_the_test_exception(tmp_path):
    code = "import builtins, helpers.m\nhelpers.m.f(1)\nprint(builtins.CosmicRayTestingException.__name__)\n"
    done, trace = _traced_run(tmp_path, code, "--nbval")
    assert done.stdout.strip() == "CosmicRayTestingException"
    assert runner.read_trace(trace, tmp_path / "copy") == {}


# -------------------------------------------------------------------------- the mutant set


def test_a_fresh_sample_leaves_out_the_mutants_an_earlier_run_tested(tmp_path: Path) -> None:
    items = [{"mutant": f"m.py:core/AddNot:{n}", "line": 10 + n} for n in range(5)]
    earlier = tmp_path / "mutants.json"
    # Mutant 1 at its line was tested; mutant 3's key was tested at another line (renumbered), so it stays.
    earlier.write_text(
        json.dumps(
            [{"mutant": "m.py:core/AddNot:1", "line": 11}, {"mutant": "m.py:core/AddNot:3", "line": 99}]
        )
    )
    left = runner.leave_out_tested(items, [earlier])
    assert [i["mutant"][-1] for i in left] == ["0", "2", "3", "4"]
    assert runner.leave_out_tested(items, []) == items


def test_spread_takes_evenly_from_the_whole_list():
    items = [{"n": n} for n in range(10)]
    assert [i["n"] for i in runner.spread(items, 3)] == [0, 3, 6]
    assert [i["n"] for i in runner.spread(items, 4)] == [0, 2, 5, 7]
    assert runner.spread(items, None) is items
    assert runner.spread(items, 10) is items


def _mutant(module: str, occurrence: int, verdict: str | None = None, **extra: object) -> dict[str, object]:
    item: dict[str, object] = {
        "module": module,
        "operator": "core/AddNot",
        "occurrence": occurrence,
        "line": 10 + occurrence,
        "original": f"if x{occurrence}:",
        "mutated": f"if not x{occurrence}:",
        **extra,
    }
    item["mutant"] = runner.key(item)
    if verdict:
        item["verdict"] = verdict
    return item


def test_rerun_survivors_keeps_only_the_nbval_catches_of_the_same_mutant():
    previous = [
        _mutant("helpers/m.py", 0, "nbval"),
        _mutant("helpers/m.py", 1, "survived"),
        _mutant("helpers/m.py", 2, "suite"),
        _mutant("helpers/m.py", 3, "nbval"),
        _mutant("helpers/m.py", 9, "survived"),  # no longer made
        _mutant("helpers/other.py", 0, "survived"),  # a module not enumerated this time
    ]
    current = [
        _mutant("helpers/m.py", 0),
        _mutant("helpers/m.py", 1),
        _mutant("helpers/m.py", 2),
        _mutant("helpers/m.py", 3, mutated="if not y3:"),  # the code under the key changed
        _mutant("helpers/m.py", 4),  # new: no earlier verdict
    ]
    kept, again, new = runner.rerun_plan(previous, current)
    assert [k["occurrence"] for k in kept] == [0]
    assert [a["occurrence"] for a in again] == [1, 2, 3]
    assert new == 1
    fresh = [{**item, "verdict": "nbval", "run": "now"} for item in again]
    merged = runner.merge(previous, kept + fresh, ["helpers/m.py"], [c["mutant"] for c in current])
    assert [(m["module"], m["occurrence"], m["verdict"], m.get("run")) for m in merged] == [
        ("helpers/m.py", 0, "nbval", None),
        ("helpers/m.py", 1, "nbval", "now"),
        ("helpers/m.py", 2, "nbval", "now"),
        ("helpers/m.py", 3, "nbval", "now"),
        ("helpers/other.py", 0, "survived", None),
    ]
    assert merged[3]["mutated"] == "if not y3:"


def _placed(module: str, occurrence: int, verdict: str | None = None, **extra: object) -> dict[str, object]:
    """A mutant on line 10 + occurrence, columns 4 to 6 (cosmic-ray's start and end)."""
    line = 10 + occurrence
    return _mutant(module, occurrence, verdict, start=[line, 4], end=[line, 6], **extra)


def test_rerun_survivors_makes_no_mutant_it_can_keep_or_must_leave_out():
    source = "\n".join([*(["pass"] * 9), *(f"    if x{n}:" for n in range(6))]) + "\n"
    previous = [
        _placed("helpers/m.py", 0, "nbval"),  # the same place and text: known without making it
        _placed("helpers/m.py", 1, "survived"),  # to re-test
        _placed("helpers/m.py", 2, "nbval"),  # its line reads otherwise now: made and compared
        _placed("helpers/m.py", 3, "nbval"),  # it moved within its line
        {k: v for k, v in _placed("helpers/m.py", 4, "nbval").items() if k != "start"},  # an older record
        _mutant("helpers/m.py", 5, "nbval", start=[15, 4], end=[16, 2]),  # over two lines
    ]
    current = [
        _placed("helpers/m.py", 0),
        _placed("helpers/m.py", 1),
        _placed("helpers/m.py", 2),
        {**_placed("helpers/m.py", 3), "start": [13, 5], "end": [13, 7]},
        _placed("helpers/m.py", 4),
        _mutant("helpers/m.py", 5, start=[15, 4], end=[16, 2]),
        _placed("helpers/m.py", 7),  # new: no earlier verdict
    ]
    changed = source.replace("if x2:", "if x2 or y:")
    kept, to_make, new = runner.unmade_catches(previous, current, {"helpers/m.py": changed})
    assert [k["occurrence"] for k in kept] == [0]
    assert kept[0] is previous[0]
    assert [m["occurrence"] for m in to_make] == [1, 2, 3, 4, 5]
    assert new == 1
    # unchanged text: every catch on one line is known; the one over two lines is still made
    kept, to_make, _new = runner.unmade_catches(previous[:3], current[:3], {"helpers/m.py": source})
    assert [k["occurrence"] for k in kept] == [0, 2]


def test_an_equivalent_entry_counts_only_while_it_matches_the_code(capsys):
    entry = {**_mutant("helpers/m.py", 0), "reason": "same result"}
    items = [_mutant("helpers/m.py", 0, never_run=None), _mutant("helpers/m.py", 1, never_run=None)]
    runner.classify(items, [entry])
    assert items[0]["verdict"] == "equivalent"
    assert "verdict" not in items[1]
    moved = [_mutant("helpers/m.py", 0, never_run=None, original="if y0:")]
    runner.classify(moved, [entry])
    assert "verdict" not in moved[0]
    assert "no longer matches" in capsys.readouterr().err


# ------------------------------------------------------------------------------ the table


def test_the_percentages_are_over_tested_mutants_only():
    counts = Counter(nbval=3, suite=1, survived=1, equivalent=2, **{"never-run": 4, "invalid": 1})
    assert runner.percentages(counts) == (60.0, 80.0)
    assert runner.percentages(Counter(equivalent=2)) is None


def test_the_table_counts_each_module_and_the_whole():
    results = [
        {"module": "helpers/a.py", "verdict": "nbval", "nbval": "caught"},
        {"module": "helpers/a.py", "verdict": "nbval", "nbval": "caught"},
        {"module": "helpers/a.py", "verdict": "survived", "nbval": "not reached"},
        {"module": "helpers/a.py", "verdict": "never-run"},
        {"module": "helpers/b.py", "verdict": "suite", "nbval": "passed"},
        {"module": "helpers/b.py", "verdict": "equivalent"},
        {"module": "helpers/b.py", "verdict": "invalid"},
    ]
    rows = runner.table(results).splitlines()
    assert rows[2] == "| helpers/a.py | 4 | 0 | 0 | 1 | 2 | 0 | 1 | 67 | 67 | 1 |"
    assert rows[3] == "| helpers/b.py | 3 | 1 | 1 | 0 | 0 | 1 | 0 | 0 | 100 | 0 |"
    assert rows[4] == "| **all** | 7 | 1 | 1 | 1 | 2 | 1 | 1 | 50 | 75 | 1 |"


def test_the_likeliest_catchers_run_first():
    files = ["notebooks/a.ipynb", "notebooks/b.ipynb", "notebooks/c.ipynb"]
    assert runner.by_reach(files, COVERAGE, "helpers/m.py") == files
    assert runner.by_reach(files, COVERAGE, "helpers/other.py") == [
        "notebooks/c.ipynb",
        "notebooks/a.ipynb",
        "notebooks/b.ipynb",
    ]
    assert runner.by_reach(["x", "notebooks/b.ipynb"], {**COVERAGE, "x": None}, "helpers/m.py") == [
        "notebooks/b.ipynb",
        "x",
    ]


def test_the_suite_files_are_those_pytest_collects_less_the_ignored(tmp_path):
    for name in (
        "tests/test_a.py",
        "tests/sub/test_b.py",
        "tests/helper.py",
        "tests/tools/test_downloads.py",
        "tests/project/test_mutation_runner.py",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    assert runner.test_files_in(tmp_path) == ["tests/sub/test_b.py", "tests/test_a.py"]


def _downloads(tmp_path: Path) -> tuple[Path, dict[Path, bytes]]:
    folder = tmp_path / "notebooks" / "downloads"
    folder.mkdir(parents=True)
    (folder / "example.py").write_text("old\n", encoding="utf-8")
    return folder, {folder / "example.py": b"old\n"}


def test_stale_downloads_are_regenerated_from_the_mutated_source(tmp_path, monkeypatch):
    folder, committed = _downloads(tmp_path)
    monkeypatch.setattr(runner, "PYTHON", Path(sys.executable))
    write = "import pathlib; pathlib.Path('notebooks/downloads/example.py').write_text('{}')"
    monkeypatch.setattr(runner, "REGENERATE", ["-c", write.format("old\\n")])
    assert runner._regenerate(tmp_path, tmp_path, 60, committed) == "unchanged"
    monkeypatch.setattr(runner, "REGENERATE", ["-c", write.format("new\\n")])
    assert runner._regenerate(tmp_path, tmp_path, 60, committed) == "regenerated"
    assert (folder / "example.py").read_text(encoding="utf-8") == "new\n"


def test_when_regenerating_fails_the_committed_downloads_stay(tmp_path, monkeypatch):
    folder, committed = _downloads(tmp_path)
    monkeypatch.setattr(runner, "PYTHON", Path(sys.executable))
    broken = "import pathlib; pathlib.Path('notebooks/downloads/example.py').write_text('half'); 1 / 0"
    monkeypatch.setattr(runner, "REGENERATE", ["-c", broken])
    assert runner._regenerate(tmp_path, tmp_path, 60, committed) == "failed"
    assert (folder / "example.py").read_text(encoding="utf-8") == "old\n"


def test_every_reviewed_equivalent_still_points_at_its_line() -> None:
    """An entry whose line has moved is ignored by the runner (and its mutant tested), so keep them current."""
    root = Path(__file__).resolve().parents[2]
    data = json.loads((root / "tools" / "mutation" / "equivalent.json").read_text(encoding="utf-8"))
    for entry in data["equivalent"]:
        module = entry["mutant"].split(":", 1)[0]
        lines = (root / module).read_text(encoding="utf-8").splitlines()
        # A change over several lines is written as the lines joined by " / ", ending at ``line``.
        assert lines[entry["line"] - 1].strip() == entry["original"].split(" / ")[-1].strip(), (
            f"{entry['mutant']} has moved: python tools/mutation/repin.py finds it again"
        )
        assert entry["reason"].strip() and entry["mutated"] != entry["original"], entry["mutant"]


def test_notebooks_only_never_runs_the_suite(tmp_path, monkeypatch):
    """``--notebooks-only``: a mutant nbval misses is survived, and no suite (nor regeneration) runs."""
    module = tmp_path / "helpers" / "example.py"
    module.parent.mkdir(parents=True)
    module.write_text("x = 1\n", encoding="utf-8")
    _downloads(tmp_path)
    runs: list[list[str]] = []

    def fake_python(args, copy, shim, timeout, **env):
        runs.append(list(args))
        return 0, ""  # nbval passes: the notebooks miss the mutant

    monkeypatch.setattr(runner, "_python", fake_python)
    coverage = {"notebooks/01.ipynb": {"helpers/example.py": {1}}}
    item = {"mutant": "m", "module": "helpers/example.py", "span": [1, 1]}
    result = runner.try_mutant(item, "x = 2\n", tmp_path, tmp_path, coverage, 60, notebooks_only=True)
    assert (result["verdict"], result["nbval"], result["suite"]) == ("survived", "passed", "not run")
    assert runs == [[*runner.NBVAL, "notebooks/01.ipynb"]]
    assert module.read_text(encoding="utf-8") == "x = 1\n"
    runs.clear()
    result = runner.try_mutant(item, "x = 2\n", tmp_path, tmp_path, coverage, 60)
    assert result["verdict"] == "survived" and runner.SUITE in runs


def test_notebooks_only_refuses_suite_coverage():
    with pytest.raises(SystemExit):
        runner._parse(["--notebooks-only", "--suite-coverage"])
    assert runner._parse(["--notebooks-only"]).notebooks_only


def _load_repin() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_repin", RUNNER_PATH.with_name("repin.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_repin_follows_a_mutant_renumbered_or_moved_by_an_edit_and_names_what_it_cannot_find():
    repin = _load_repin()
    entry = {
        "mutant": "helpers/x.py:core/ReplaceFalseWithTrue:5",
        "line": 467,
        "original": 'ax.set_xlabel("trainees", parse_math=False)',
        "mutated": 'ax.set_xlabel("trainees", parse_math=True)',
    }
    items = [
        {
            "module": "helpers/x.py",
            "operator": "core/ReplaceFalseWithTrue",
            "mutant": f"helpers/x.py:core/ReplaceFalseWithTrue:{n}",
            "line": line,
            "original": original,
            "mutated": original.replace("False", "True"),
        }
        for n, line, original in [
            (5, 478, "ax.set_yticks(positions, parse_math=False)"),  # the old name now means another mutant
            (6, 480, 'ax.set_xlabel("trainees", parse_math=False)'),
        ]
    ]
    gone = {
        **entry,
        "mutant": "helpers/x.py:core/ReplaceFalseWithTrue:9",
        "original": "x = False",
        "mutated": "x = True",
    }
    entries = [dict(entry), gone]
    moved, unmatched = repin.repin(entries, items)
    assert entries[0]["mutant"].endswith(":6") and entries[0]["line"] == 480
    assert moved == [
        "helpers/x.py:core/ReplaceFalseWithTrue:5 line 467 -> helpers/x.py:core/ReplaceFalseWithTrue:6 line 480"
    ]
    assert unmatched == ["helpers/x.py:core/ReplaceFalseWithTrue:9 (line 467): 0 mutants change that line so"]
    assert repin.repin(entries[:1], items) == ([], [])  # pinned right: nothing moves


def test_repin_tells_two_lines_changed_alike_apart_by_the_line_an_entry_is_on():
    repin = _load_repin()
    items = [
        {
            "module": "m.py",
            "operator": "core/NumberReplacer",
            "mutant": f"m.py:core/NumberReplacer:{n}",
            "line": line,
            "original": "depth = 0",
            "mutated": "depth = 1",
        }
        for n, line in ((24, 191), (28, 229))
    ]
    on_its_line = {
        "mutant": "m.py:core/NumberReplacer:18",
        "line": 229,
        "original": "depth = 0",
        "mutated": "depth = 1",
    }
    moved_off = {**on_its_line, "line": 200}
    assert repin.repin([on_its_line], items)[0] == [
        "m.py:core/NumberReplacer:18 line 229 -> m.py:core/NumberReplacer:28 line 229"
    ]
    assert repin.repin([moved_off], items)[1] == [
        "m.py:core/NumberReplacer:18 (line 200): 0 mutants change that line so"
    ]
