"""Re-pin the reviewed equivalent mutants after an edit moved them.

A mutant is named ``module:operator:occurrence`` and pinned in ``equivalent.json`` with its line
and the source line before and after. An edit above it can move the line or renumber the
occurrence (a literal added earlier in the module), and the runner then tests the mutant as
usual, or, worse, the name lands on another mutant. This asks cosmic-ray for the mutants of
every module the file names, finds each entry's mutant by what it changes (same module, same
operator, same line before and after: exactly one, or the one on its old line when the same change
is made on two lines alike), and writes its name and line back. An entry
with no such mutant, or more than one, is named and left as it was; the exit status is then 1.

    python tools/mutation/repin.py            # re-pin tools/mutation/equivalent.json in place
    python tools/mutation/repin.py --check    # say what would change; write nothing

Run by hand, like the runner (it uses the runner's cosmic-ray in ``.mutation-venv/``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run  # the runner beside this file


def repin(
    entries: Sequence[dict[str, Any]], items: Sequence[Mapping[str, Any]]
) -> tuple[list[str], list[str]]:
    """Point each entry at the one mutant in ``items`` that changes what it says; in place.

    Returns what moved (one line each) and what could not be matched (one line each)."""
    moved: list[str] = []
    unmatched: list[str] = []
    for entry in entries:
        module, _sep, rest = str(entry["mutant"]).partition(":")
        operator = rest.rpartition(":")[0]
        found = [
            item
            for item in items
            if item["module"] == module
            and item["operator"] == operator
            and item.get("original") == entry["original"]
            and item.get("mutated") == entry["mutated"]
        ]
        if len(found) > 1:  # the same change made on two lines alike: the one still on its line, if any
            found = [item for item in found if item["line"] == entry["line"]]
        if len(found) != 1:
            unmatched.append(
                f"{entry['mutant']} (line {entry['line']}): {len(found)} mutants change that line so"
            )
            continue
        item = found[0]
        if (item["mutant"], item["line"]) != (entry["mutant"], entry["line"]):
            moved.append(f"{entry['mutant']} line {entry['line']} -> {item['mutant']} line {item['line']}")
            entry["mutant"], entry["line"] = item["mutant"], item["line"]
    return moved, unmatched


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tools/mutation/repin.py", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--check", action="store_true", help="say what would change; write nothing")
    args = parser.parse_args(argv)
    data = json.loads(run.EQUIVALENT.read_text(encoding="utf-8"))
    entries: list[dict[str, Any]] = data["equivalent"]
    modules = sorted({str(entry["mutant"]).partition(":")[0] for entry in entries})
    items = run.work_items(run.tool(), run.ROOT, modules)
    run.describe(items, run.ROOT, run.mutated_sources(run.ROOT, items, 2))
    moved, unmatched = repin(entries, items)
    for line in moved:
        print(f"re-pinned: {line}")
    for line in unmatched:
        print(f"not matched: {line}", file=sys.stderr)
    if moved and not args.check:
        run.EQUIVALENT.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(entries)} entries: {len(moved)} re-pinned, {len(unmatched)} not matched")
    return 1 if unmatched else 0


if __name__ == "__main__":
    sys.exit(main())
