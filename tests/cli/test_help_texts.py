"""Every command's and step's ``--help`` stays byte for byte what it was, at 80 and 200 columns.

The argparse definitions live beside each command group (helpers/team/command_parser.py,
trainer_parser.py) and are joined by :func:`helpers.cli.run._parser`; moving a definition must
not change a byte a user reads. The expected texts are in help_texts.json beside this file;
after an intended change of a help text, rewrite it with
``PYTHONPATH=. python tests/cli/test_help_texts.py`` and review the diff.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.cli.run import _parser

EXPECTED = Path(__file__).with_name("help_texts.json")
ROOT = Path(__file__).resolve().parents[2]

#: Every command and step, as typed after ``python -m helpers``.
COMMANDS = (
    "",
    "target-scope",
    "sentinels",
    "rebaseline",
    "export-csv",
    "export-example",
    "practice",
    "practice generate",
    "cohort",
    "checkout",
    "checkout issue",
    "checkout proctor",
    "checkout grade",
)
WIDTHS = (80, 200)
#: Python 3.13's argparse words help its own way (e.g. ``-o, --output FILE``), so the texts are
#: pinned as Pythons 3.11 and 3.12 print them; on 3.13 the process is held to the parser's own text.
PINNED = sys.version_info < (3, 13)


def _help(command: str, only: str | None) -> str:
    sub = _parser(only=only)
    for word in command.split():
        actions = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
        sub = actions[0].choices[word]
    return sub.format_help()


def _run_help(command: str) -> str:
    """The help a run builds: only the chosen command's arguments, as :func:`helpers.cli.run._main`."""
    return _help(command, command.split()[0] if command else "")


def _texts() -> dict[str, str]:
    texts = {}
    for width in WIDTHS:
        os.environ["COLUMNS"] = str(width)
        for command in COMMANDS:
            texts[f"{width} {command}".rstrip()] = _run_help(command)
    return texts


@pytest.mark.skipif(not PINNED, reason="the texts are pinned as Python 3.11 and 3.12's argparse prints them")
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_text_is_unchanged(monkeypatch, command, width):
    monkeypatch.setenv("COLUMNS", str(width))
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert _run_help(command) == expected[f"{width} {command}".rstrip()]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_run_builds_the_same_help_as_the_whole_tree(monkeypatch, command):
    """Building only the chosen command's arguments leaves its help as the full tree has it."""
    monkeypatch.setenv("COLUMNS", "80")
    assert _run_help(command) == _help(command, None)


@pytest.mark.parametrize("command", ["", "checkout grade", "sentinels"])
def test_the_process_prints_the_same_help(monkeypatch, command):
    """``python -m helpers ... --help`` writes exactly the expected text to standard output."""
    done = subprocess.run(
        [sys.executable, "-m", "helpers", *command.split(), "--help"],
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "200"},
        timeout=120,
        check=False,
    )
    if PINNED:
        expected = json.loads(EXPECTED.read_text(encoding="utf-8"))[f"200 {command}".rstrip()]
    else:
        monkeypatch.setenv("COLUMNS", "200")
        expected = _run_help(command)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode("utf-8") == expected


if __name__ == "__main__":
    EXPECTED.write_text(json.dumps(_texts(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
