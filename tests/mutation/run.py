"""Mutation testing of the checks and the teaching code: do the notebooks alone catch a broken check?

Run by hand with ``python3 tasks.py mutants`` (never in CI: it is slow). For each mutant that
cosmic-ray makes of the modules below, in a scratch copy of the repository:

1. strict nbval over the notebooks alone: does a stored output change?
2. if not, the whole non-browser suite (without ``tests/test_downloads.py``, so a mutant
   caught only because a committed download went stale does not count).

Mutants listed in ``tests/mutation/equivalent.json`` (reviewed, each with a one-line reason)
are left out. The summary table per module goes to standard output and, with every verdict,
to ``artifacts/mutants.md`` and ``artifacts/mutants.json``.

    python3 tasks.py mutants                    # every mutant (hours on 2 cores)
    python3 tasks.py mutants --limit 60         # a spread sample of 60
    python3 tasks.py mutants --module helpers/core/sentinels.py
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL_VENV = ROOT / ".mutation-venv"
TOOL_REQUIREMENTS = Path(__file__).with_name("requirements.txt")
EQUIVALENT = Path(__file__).with_name("equivalent.json")
PYTHON = ROOT / ".venv" / "bin" / "python"

#: The modules mutated: the checks (core) and the teaching code that grades and renders them.
MODULES = (
    "helpers/core/target_scope.py",
    "helpers/core/sentinels.py",
    "helpers/core/ordering.py",
    "helpers/core/validation.py",
    "helpers/core/jsonio.py",
    "helpers/core/chardiff.py",
    "helpers/core/explain.py",
    "helpers/core/outcomes.py",
    "helpers/core/checks.py",
    "helpers/core/baselines.py",
    "helpers/data/fastpath.py",
    "helpers/teach/grading.py",
    "helpers/teach/cases.py",
    "helpers/teach/render.py",
)

NBVAL = [
    "-m",
    "pytest",
    "-q",
    "-x",
    "-p",
    "no:cacheprovider",
    "-p",
    "no:randomly",
    "--nbval",
    "--nbval-current-env",
    "--nbval-sanitize-with",
    "tests/nbval_sanitize.cfg",
    "notebooks",
]
SUITE = [
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
    "tests/test_downloads.py",
    "--ignore",
    "tests/mutation",
    "tests",
    "notebooks",
]


def _say(message: str) -> None:
    print(f"[mutants] {message}", file=sys.stderr, flush=True)


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
    target = Path(tempfile.mkdtemp(prefix="eic-mutants-"))
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def work_items(command: Path, copy: Path, modules: list[str]) -> list[dict[str, object]]:
    """Every mutation cosmic-ray would make of ``modules``: module, operator, occurrence, line."""
    config = copy / "cosmic-ray.toml"
    config.write_text(
        "[cosmic-ray]\n"
        f"module-path = {json.dumps(modules)}\n"
        'timeout = 600.0\nexcluded-modules = []\ntest-command = "true"\n'
        '[cosmic-ray.distributor]\nname = "local"\n',
        encoding="utf-8",
    )
    session = copy / "session.sqlite"
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
        items.append(
            {
                "module": mutation["module_path"],
                "operator": mutation["operator_name"],
                "occurrence": mutation["occurrence"],
                "line": mutation["start_pos"][0],
                "where": mutation.get("definition_name") or "",
            }
        )
    return items


def spread(items: list[dict[str, object]], limit: int | None) -> list[dict[str, object]]:
    """``limit`` items spread evenly over the list (so over every module), or all of them."""
    if limit is None or limit >= len(items):
        return items
    step = len(items) / limit
    return [items[int(index * step)] for index in range(limit)]


def _passes(args: list[str], copy: Path, timeout: float) -> bool:
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run([str(PYTHON), *args], cwd=copy, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False  # a mutant that hangs the run is caught
    return done.returncode == 0


def verdict(command: Path, copy: Path, item: dict[str, object], timeout: float) -> str:
    """``nbval`` (the notebooks alone caught it), ``suite`` (only the full suite did), or ``survived``."""
    path = copy / str(item["module"])
    original = path.read_bytes()
    try:
        subprocess.run(
            [str(command), "apply", str(item["module"]), str(item["operator"]), str(item["occurrence"])],
            cwd=copy,
            check=True,
            capture_output=True,
        )
        if path.read_bytes() == original:
            return "unchanged"
        if not _passes(NBVAL, copy, timeout):
            return "nbval"
        return "suite" if not _passes(SUITE, copy, timeout * 4) else "survived"
    finally:
        path.write_bytes(original)


def _key(item: dict[str, object]) -> str:
    return f"{item['module']}:{item['operator']}:{item['occurrence']}"


def table(results: list[dict[str, object]]) -> str:
    """The summary per module as a Markdown table."""
    by_module: dict[str, Counter[str]] = defaultdict(Counter)
    for result in results:
        by_module[str(result["module"])][str(result["verdict"])] += 1
    lines = [
        "| Module | Mutants | Equivalent | Caught by nbval alone | Caught by the suite only | Survived | nbval % | suite % |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    total: Counter[str] = Counter()
    for module in sorted(by_module):
        counts = by_module[module]
        total.update(counts)
        lines.append(_row(module, counts))
    lines.append(_row("**all**", total))
    return "\n".join(lines)


def _row(name: str, counts: Counter[str]) -> str:
    real = counts["nbval"] + counts["suite"] + counts["survived"]
    mutants = real + counts["equivalent"] + counts["unchanged"]
    nbval = f"{100 * counts['nbval'] / real:.0f}" if real else "-"
    suite = f"{100 * (counts['nbval'] + counts['suite']) / real:.0f}" if real else "-"
    return (
        f"| {name} | {mutants} | {counts['equivalent'] + counts['unchanged']} | {counts['nbval']} | "
        f"{counts['suite']} | {counts['survived']} | {nbval} | {suite} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 tasks.py mutants",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--limit", type=int, help="a spread sample of this many mutants")
    parser.add_argument("--module", action="append", help="only this module (repeatable)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for one nbval run")
    args = parser.parse_args(argv)
    modules = args.module or list(MODULES)
    unknown = [m for m in modules if not (ROOT / m).is_file()]
    if unknown:
        parser.error(f"no such module: {', '.join(unknown)}")
    equivalent = {
        entry["mutant"]: entry["reason"]
        for entry in json.loads(EQUIVALENT.read_text(encoding="utf-8"))["equivalent"]
    }
    command = tool()
    copy = scratch_copy()
    started = time.monotonic()
    try:
        items = spread(work_items(command, copy, modules), args.limit)
        _say(f"{len(items)} mutants of {len(modules)} modules, in {copy}")
        results = []
        for number, item in enumerate(items, 1):
            key = _key(item)
            result = "equivalent" if key in equivalent else verdict(command, copy, item, args.timeout)
            results.append({**item, "mutant": key, "verdict": result})
            _say(f"{number}/{len(items)} {key} (line {item['line']}): {result}")
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    elapsed = time.monotonic() - started
    report = table(results)
    survivors = [r for r in results if r["verdict"] == "survived"]
    artifacts = ROOT / "artifacts"
    artifacts.mkdir(exist_ok=True)
    (artifacts / "mutants.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    text = [report, "", f"{len(results)} mutants in {elapsed / 60:.1f} minutes."]
    text += [f"- survived: {r['mutant']} (line {r['line']}, in {r['where']})" for r in survivors]
    (artifacts / "mutants.md").write_text("\n".join(text) + "\n", encoding="utf-8")
    print("\n".join(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
