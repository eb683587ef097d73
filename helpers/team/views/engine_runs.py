"""Both routes of the command line run side by side on the sample Parquet files, for notebook 05.

Taught in ``05_check_your_data.ipynb`` ("When your files outgrow this machine").
"""

from __future__ import annotations

import subprocess
import sys

from helpers.core.errors import CheckInputError
from helpers.core.paths import fixtures_dir
from helpers.trainee.html import HtmlBlock, html

#: The two sample commands, run from ``fixtures/sample_data`` so the output names files, not paths.
SAMPLES: dict[str, tuple[str, ...]] = {
    "target-scope": ("target-scope", "rewrites.parquet", "--format", "parquet", "--summary"),
    "sentinels": (
        "sentinels",
        "--baseline",
        "qrels_baseline.parquet",
        "--proposed",
        "qrels_proposed.parquet",
        "--format",
        "parquet",
        "--id-column",
        "query_id",
        "--id-column",
        "doc_id",
        "--answer-column",
        "relevance",
    ),
}


def _run(args: tuple[str, ...]) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "helpers", *args],
        capture_output=True,
        text=True,
        cwd=fixtures_dir() / "sample_data",
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def engines_beside(check: str) -> HtmlBlock:
    """``check``'s sample command run with ``--engine duckdb`` and ``--engine python``: DuckDB's
    output, its exit status, and whether the two routes wrote the same bytes.

    Taught in ``05_check_your_data.ipynb`` ("When your files outgrow this machine").
    """
    if check not in SAMPLES:
        raise CheckInputError(f"check must be one of {', '.join(SAMPLES)}, not {check!r}", field="check")
    shown = "python -m helpers " + " ".join(SAMPLES[check]) + " --engine duckdb"
    if sys.platform == "emscripten":
        note = "The browser edition starts no processes and has no DuckDB: run this on a machine with Python."
        return HtmlBlock(html("<p><code>{}</code></p><p>{}</p>", shown, note), f"$ {shown}\n{note}")
    duckdb = _run((*SAMPLES[check], "--engine", "duckdb"))
    python = _run((*SAMPLES[check], "--engine", "python"))
    same = duckdb == python
    verdict = (
        "✔ the same bytes, exit status and messages as --engine python"
        if same
        else "✘ differs from --engine python"
    )
    output = duckdb[1] + duckdb[2]
    text = f"$ {shown}\n{output.rstrip()}\nexit status {duckdb[0]}; {verdict}"
    return HtmlBlock(
        html(
            "<p><code>{}</code></p><pre>{}</pre><p>exit status {}; <b>{}</b></p>",
            shown,
            output.rstrip(),
            duckdb[0],
            verdict,
        ),
        text,
    )
