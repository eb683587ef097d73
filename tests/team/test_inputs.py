"""Which path is which file: an output never takes an input's place (``--results``, ``--csv``)."""

from __future__ import annotations

import os
import subprocess
import sys

from helpers.core.files import same_file
from helpers.core.outcomes import EXIT_USAGE
from helpers.team.inputs import names_the_input, open_snapshot

LINE = b'{"original":["a"],"rewritten":["b"]}\n'


def test_an_output_path_is_the_input_by_its_inode_or_by_its_name(tmp_path):
    data = tmp_path / "rewrites.jsonl"
    data.write_bytes(LINE)
    os.link(data, tmp_path / "hard-link.jsonl")
    (tmp_path / "other.jsonl").write_bytes(LINE)
    with open_snapshot(data) as stream:
        assert names_the_input(str(tmp_path / "hard-link.jsonl"), stream)  # one inode, two names
        assert names_the_input(str(data), stream)
        assert not names_the_input(str(tmp_path / "other.jsonl"), stream)
        assert not names_the_input(str(tmp_path / "new.jsonl"), stream)  # not there yet
        assert names_the_input(str(tmp_path / "sub" / ".." / "new.jsonl"), None, str(tmp_path / "new.jsonl"))
    assert same_file(data, tmp_path / "hard-link.jsonl") and not same_file(data, tmp_path / "other.jsonl")


def test_results_that_name_the_input_are_refused_and_the_input_is_kept(tmp_path):
    data = tmp_path / "rewrites.jsonl"
    data.write_bytes(LINE)
    command = [sys.executable, "-m", "helpers", "target-scope", "--summary", "--results"]
    named = subprocess.run([*command, str(data), str(data)], capture_output=True, text=True, cwd=tmp_path)
    assert named.returncode == EXIT_USAGE and "is the input file; choose another path" in named.stderr
    with open(data, "rb") as stdin:
        redirected = subprocess.run([*command, str(data)], stdin=stdin, capture_output=True, text=True)
    assert (
        redirected.returncode == EXIT_USAGE
        and "is the standard input; choose another path" in redirected.stderr
    )
    assert data.read_bytes() == LINE
