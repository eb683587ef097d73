#!/usr/bin/env python3
"""Whole-process comparison of the command line with its peers, run by hand (never by the tests).

    python3 benchmarks/compare.py            # full sizes, best of 3 (about six minutes)
    python3 benchmarks/compare.py --quick    # small files, one run each (a smoke test)
    python3 benchmarks/compare.py --json     # the raw figures as one JSON object
    python3 benchmarks/compare.py --report FIGURES.json   # the tables again, from saved figures

Standard library only; the DuckDB peer runs in its own venv, ``benchmarks/.venv``, which this
script creates from ``benchmarks/requirements.txt`` when it is missing or out of date.

Workloads, generated deterministically (fixed seeds) into a temporary folder:

* ``records-1m``: 1,000,000 small rewrite records, JSON Lines ``{"original":[2-4 IDs],
  "rewritten":[...]}``: 70% same order, 12% reordered, 8% one target lost, 6% one added,
  2% one swapped for another, 2% with a repeated ID;
* ``records-10k``: the first 10,000 of those records (for peak memory);
* ``keys-1m``: a baseline and a proposed answer key of 1,000,000 sentinel IDs each (50
  answers changed, 50 missing, 1,000 new cases), as two ``.json`` objects for our command
  line, and as one JSON line ``{"baseline":{...},"proposed":{...}}`` for the reference (and
  for our command line once more, ``ours, one record``, and once read from standard input,
  ``ours, one record, stdin``);
* ``scope-100k``: one target-scope record with 100,000 IDs each side (10 lost, 10 added).

A peer whose first run of a workload takes over ``--slow`` seconds (default 20: the
reference and the DuckDB list query on the 100k-ID record, quadratic both) runs only once.

Peers, each a whole process with standard output to a pipe that this script drains:

* ``ours``: ``.venv/bin/python -m helpers target-scope FILE`` or
  ``sentinels --baseline B --proposed P`` (per-record output, not a summary);
* ``reference``: the seeds' evaluate functions on Node (``benchmarks/reference.mjs``);
* ``reference, Set lookup``: the same with a Set for the lookups (not the seeds' cost);
* ``DuckDB list`` and ``DuckDB unnest``: the check as SQL (``benchmarks/duckdb_scope.py``),
  target-scope workloads only.

Each figure is the best wall time of ``--repeat`` runs, with that run's CPU time and peak
resident set size (GNU time's ``%M`` where ``/usr/bin/time`` exists, else ``ru_maxrss``
from ``os.wait4``, which is floored at this script's own peak). The first 1,000 output
lines of every peer are checked against ours (byte for byte for the reference, as parsed
JSON for DuckDB), and so is every line of a small file of edge cases.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "benchmarks"
OUR_PYTHON = ROOT / ".venv" / "bin" / "python"
BENCH_VENV = HERE / ".venv"
BENCH_PYTHON = BENCH_VENV / "bin" / "python"
NODE = "/usr/bin/node"
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None

SAMPLE_LINES = 1000
KEEP_BYTES = 1 << 20  # output kept from each run for the sample check
TIMEOUT = 900  # seconds, per process

POOL = [
    "induction",
    "refresher",
    "payroll",
    "first-aid",
    "fire-safety",
    "manual-handling",
    "onboarding",
    "appraisal",
    "leave-policy",
    "expenses",
    "security",
    "data-protection",
    "whistleblowing",
    "anti-bribery",
    "equality",
    "safeguarding",
    "lone-working",
    "dse",
    "travel-policy",
    "code-of-conduct",
    "cyber-awareness",
    "gdpr-refresher",
    "probation",
    "exit-interview",
    "mentoring",
    "flexible-working",
    "sick-leave",
    "overtime",
    "pension",
    "benefits",
    "grievance",
    "disciplinary",
    "health-and-safety",
    "ppe",
    "asbestos",
    "working-at-height",
    "coshh",
    "forklift",
    "driving",
    "customer-service",
]

#: Edge cases every peer should handle as the seeds do (valid input only).
EDGE_SCOPE = [
    {
        "original": ["induction", "induction", "refresher"],
        "rewritten": ["refresher", "induction", "refresher"],
    },
    {"original": [], "rewritten": []},
    {"original": ["z", "\U0001f600-onboarding", "\uff41-policy"], "rewritten": []},
    {"original": ["caf\u00e9"], "rewritten": ["cafe\u0301"]},
    {"original": ["Induction", " induction"], "rewritten": ["induction"]},
    {"original": ["a", "B", "b", "A", "_"], "rewritten": ["b"]},
    {"original": ["S10", "S9", "S1"], "rewritten": ["S1", "S1"]},
]
EDGE_KEYS = [
    {"baseline": {"10": "A", "9": "B", "2": "C", "S1": "R"}, "proposed": {"10": "A", "9": "b"}},
    {"baseline": {"__proto__": "A", "constructor": "B", "toString": "C"}, "proposed": {"constructor": "B"}},
    {"baseline": {"S1": "R", "S2": "A "}, "proposed": {"S1": "r", "S2": "A"}},
    {"baseline": {"\U0001f600": "A", "\uff41": "B"}, "proposed": {}},
    {"baseline": {"S1": "\u00e9"}, "proposed": {"S1": "e\u0301", "C9": "x"}},
]

SIZES = {
    "full": {"records": 1_000_000, "small": 10_000, "keys": 1_000_000, "scope": 100_000},
    "quick": {"records": 20_000, "small": 2_000, "keys": 20_000, "scope": 2_000},
}


# --- deterministic inputs (written by a child process, so this one stays small) ---------


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def write_records(path: Path, count: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        lines = []
        for _ in range(count):
            original = rng.sample(POOL, rng.choice((2, 2, 2, 3, 3, 4)))
            roll = rng.random()
            if roll < 0.70:
                rewritten = list(original)
            elif roll < 0.82:
                rewritten = original[::-1]
            elif roll < 0.90:
                rewritten = list(original)
                del rewritten[rng.randrange(len(rewritten))]
            elif roll < 0.96:
                rewritten = [*original, rng.choice([t for t in POOL if t not in original])]
            elif roll < 0.98:
                rewritten = list(original)
                rewritten[rng.randrange(len(rewritten))] = rng.choice([t for t in POOL if t not in original])
            else:
                rewritten = [*original, original[0]]
            lines.append(_dump({"original": original, "rewritten": rewritten}))
            if len(lines) >= 10_000:
                out.write("\n".join(lines) + "\n")
                lines.clear()
        if lines:
            out.write("\n".join(lines) + "\n")


def write_keys(folder: Path, count: int, seed: int = 8) -> None:
    rng = random.Random(seed)
    letters = "ABCDRS"
    base = {f"S{i}": rng.choice(letters) for i in range(1, count + 1)}
    prop = dict(base)
    ids = list(base)
    for sentinel in rng.sample(ids, 50):
        prop[sentinel] = rng.choice([c for c in letters if c != base[sentinel]])
    for sentinel in rng.sample(ids, 50):
        prop.pop(sentinel, None)
    for i in range(1, 1001):
        prop[f"C{i}"] = rng.choice(letters)
    b, p = _dump(base), _dump(prop)
    (folder / "baseline.json").write_text(b, encoding="utf-8")
    (folder / "proposed.json").write_text(p, encoding="utf-8")
    (folder / "keys.jsonl").write_text('{"baseline":' + b + ',"proposed":' + p + "}\n", encoding="utf-8")


def write_scope(path: Path, count: int, seed: int = 9) -> None:
    rng = random.Random(seed)
    ids = [f"target-{i:06d}" for i in range(count)]
    original = ids[:]
    rng.shuffle(original)
    rewritten = ids[10:] + [f"extra-{i:06d}" for i in range(10)]
    rng.shuffle(rewritten)
    path.write_text(_dump({"original": original, "rewritten": rewritten}) + "\n", encoding="utf-8")


def generate(folder: Path, size: str) -> None:
    n = SIZES[size]
    write_records(folder / "records-1m.jsonl", n["records"])
    write_records(folder / "records-10k.jsonl", n["small"])
    write_keys(folder, n["keys"])
    write_scope(folder / "scope-100k.jsonl", n["scope"])
    (folder / "edge-scope.jsonl").write_text("".join(_dump(r) + "\n" for r in EDGE_SCOPE), encoding="utf-8")
    (folder / "edge-keys.jsonl").write_text("".join(_dump(r) + "\n" for r in EDGE_KEYS), encoding="utf-8")


# --- the DuckDB venv ---------------------------------------------------------------------


def pinned_duckdb() -> str:
    for line in (HERE / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("duckdb=="):
            return line.split("==", 1)[1].strip()
    raise SystemExit("benchmarks/requirements.txt pins no duckdb version")


def duckdb_version() -> str | None:
    if not BENCH_PYTHON.exists():
        return None
    done = subprocess.run(
        [str(BENCH_PYTHON), "-c", "import duckdb; print(duckdb.__version__)"], capture_output=True, text=True
    )
    return done.stdout.strip() if done.returncode == 0 else None


def ensure_duckdb() -> str:
    want = pinned_duckdb()
    if duckdb_version() == want:
        return want
    if not BENCH_PYTHON.exists():
        print(f"creating {BENCH_VENV} ...", file=sys.stderr)
        base = getattr(sys, "_base_executable", sys.executable)
        subprocess.run([base, "-m", "venv", str(BENCH_VENV)], check=True)
    print(f"installing duckdb=={want} into {BENCH_VENV} ...", file=sys.stderr)
    subprocess.run(
        [
            str(BENCH_PYTHON),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            str(HERE / "requirements.txt"),
        ],
        check=True,
    )
    got = duckdb_version()
    if got != want:
        raise SystemExit(f"duckdb {want} did not install into {BENCH_VENV} (found {got})")
    return got


# --- one process, timed ------------------------------------------------------------------


def run_process(argv: list[str]) -> dict[str, Any]:
    """Wall and CPU seconds, peak RSS, exit status, output line count and head of one process.

    An ``argv`` ending in ``<``, PATH reads PATH as its standard input (else ``/dev/null``).

    Peak RSS comes from GNU time's ``%M`` where ``/usr/bin/time`` exists: Python starts a child
    with vfork, and a child's ``ru_maxrss`` then starts from this script's own peak, whereas
    GNU time's child starts from GNU time's (about 1.5 MB). Without it, ``os.wait4``'s figure is
    used, floored at this script's peak (reported with the figures).
    """
    stdin: Any = subprocess.DEVNULL
    if len(argv) > 2 and argv[-2] == "<":
        argv, stdin = argv[:-2], open(argv[-1], "rb")  # noqa: SIM115 - closed below
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        command = [GNU_TIME, "-f", "%M", "-o", rss.name, *argv] if GNU_TIME else argv
        began = time.perf_counter()
        proc = subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE, stderr=err, cwd=ROOT)
        if stdin is not subprocess.DEVNULL:
            stdin.close()
        fd = proc.stdout.fileno()
        head = bytearray()
        lines = 0
        last = b"\n"
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            lines += chunk.count(b"\n")
            last = chunk[-1:]
            if len(head) < KEEP_BYTES:
                head += chunk[: KEEP_BYTES - len(head)]
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - began
        proc.returncode = os.waitstatus_to_exitcode(status)
        proc.stdout.close()
        err.seek(0)
        stderr = err.read()[-2000:].decode("utf-8", "replace")
        peak = usage.ru_maxrss
        if GNU_TIME:
            figures = rss.read().split()
            peak = int(figures[-1]) if figures and figures[-1].isdigit() else None
    if last != b"\n":
        lines += 1
    return {
        "seconds": seconds,
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "peak_rss_kb": peak,
        "rss_from": "GNU time %M" if GNU_TIME else "os.wait4 ru_maxrss",
        "exit_status": proc.returncode,
        "output_lines": lines,
        "head": bytes(head),
        "stderr": stderr,
    }


# --- peers and workloads ---------------------------------------------------------------


def _ours_from(tree: Path) -> list[str]:
    """Our command line, run from the ``helpers`` package in ``tree`` (a copy of another commit)."""
    code = (
        f"import runpy, sys; sys.path.insert(0, {str(tree)!r}); "
        "runpy.run_module('helpers', run_name='__main__', alter_sys=True)"
    )
    return [str(OUR_PYTHON), "-c", code]


def plan(
    folder: Path, before: Path | None = None, only_ours: bool = False
) -> dict[str, dict[str, list[str]]]:
    """For each workload, each peer's command line.

    With ``before`` (a folder holding another commit's ``helpers/``), each of our peers runs
    twice per round, once as ``..., before`` from that folder: before and after in one run.
    With ``only_ours``, the other peers are left out.
    """
    workloads = _plan(folder)
    for peers in workloads.values():
        for name in [peer for peer in peers if peer.startswith("ours")]:
            if before is not None:
                peers[f"{name}, before"] = _ours_from(before) + peers[name][3:]
        if only_ours:
            for name in [peer for peer in peers if not peer.startswith("ours")]:
                del peers[name]
    return workloads


def _plan(folder: Path) -> dict[str, dict[str, list[str]]]:
    f = lambda name: str(folder / name)  # noqa: E731
    ours = [str(OUR_PYTHON), "-m", "helpers"]
    node = [NODE, str(HERE / "reference.mjs")]
    duck = [str(BENCH_PYTHON), str(HERE / "duckdb_scope.py")]

    def scope(name: str) -> dict[str, list[str]]:
        return {
            "ours": [*ours, "target-scope", f(name)],
            "reference": [*node, "target-scope", f(name)],
            "reference, Set lookup": [*node, "--set-lookup", "target-scope", f(name)],
            "DuckDB list": [*duck, "--query", "list", f(name)],
            "DuckDB unnest": [*duck, "--query", "unnest", f(name)],
        }

    return {
        "records-1m": scope("records-1m.jsonl"),
        "records-10k": scope("records-10k.jsonl"),
        "keys-1m": {
            "ours": [*ours, "sentinels", "--baseline", f("baseline.json"), "--proposed", f("proposed.json")],
            "ours, one record": [*ours, "sentinels", f("keys.jsonl")],
            "ours, one record, stdin": [*ours, "sentinels", "<", f("keys.jsonl")],
            "reference": [*node, "sentinels", f("keys.jsonl")],
        },
        "scope-100k": scope("scope-100k.jsonl"),
        "edge-scope": scope("edge-scope.jsonl"),
        "edge-keys": {
            "ours": [*ours, "sentinels", f("edge-keys.jsonl")],
            "reference": [*node, "sentinels", f("edge-keys.jsonl")],
        },
    }


OK_STATUS = {
    f"{name}{when}": {0, 1}
    for name in ("ours", "ours, one record", "ours, one record, stdin")
    for when in ("", ", before")
}


def sample_lines(head: bytes, limit: int) -> list[bytes]:
    lines = head.split(b"\n")
    if len(head) >= KEEP_BYTES:
        lines = lines[:-1]  # the last one may be cut short
    elif lines and lines[-1] == b"":
        lines.pop()
    return lines[:limit]


def agreement(peer: str, ours: dict[str, Any], theirs: dict[str, Any], limit: int) -> dict[str, Any]:
    """Compare a peer's first ``limit`` output lines with ours."""
    mine, other = sample_lines(ours["head"], limit), sample_lines(theirs["head"], limit)
    semantic = peer.startswith("DuckDB")
    differing = []
    for number, (a, b) in enumerate(zip(mine, other, strict=False), 1):
        if semantic:
            try:
                same = json.loads(a) == json.loads(b)
            except ValueError:
                same = False
        else:
            same = a == b
        if not same:
            differing.append(number)
    result = {
        "compared": min(len(mine), len(other)),
        "how": "parsed JSON" if semantic else "bytes",
        "differing_lines": len(differing),
        "line_counts": [ours["output_lines"], theirs["output_lines"]],
        "agrees": not differing and ours["output_lines"] == theirs["output_lines"],
    }
    if differing:
        n = differing[0]
        result["first_difference"] = {
            "line": n,
            "ours": mine[n - 1].decode("utf-8", "replace"),
            "theirs": other[n - 1].decode("utf-8", "replace"),
        }
    return result


def count_lines(path: Path) -> int:
    lines, last = 0, b"\n"
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return lines + (last != b"\n")


def measure_all(
    folder: Path, repeat: int, slow: float, before: Path | None = None, only_ours: bool = False
) -> dict[str, Any]:
    """Every peer on every workload; a peer whose first run takes over ``slow`` seconds runs once."""
    figures: dict[str, Any] = {}
    for workload, peers in plan(folder, before, only_ours).items():
        edge = workload.startswith("edge")
        rounds = 1 if edge else repeat
        # one output line per input line; the two-file key comparison writes one line
        expected = count_lines(Path(peers["ours"][-1])) if "--baseline" not in peers["ours"] else 1
        runs: dict[str, list[dict[str, Any]]] = {peer: [] for peer in peers}
        for round_ in range(rounds):
            for peer, argv in peers.items():  # interleaved, so drift on a shared machine spreads evenly
                if round_ and runs[peer] and (runs[peer][0].get("seconds") or 0) > slow:
                    continue
                print(f"{workload}: {peer} (run {round_ + 1} of {rounds}) ...", file=sys.stderr)
                try:
                    run = run_process(argv)
                except OSError as error:
                    run = {
                        "seconds": None,
                        "error": str(error),
                        "exit_status": None,
                        "head": b"",
                        "output_lines": 0,
                    }
                runs[peer].append(run)
        results: dict[str, Any] = {}
        for peer, peer_runs in runs.items():
            good = [r for r in peer_runs if r.get("seconds") is not None]
            best = dict(min(good, key=lambda r: r["seconds"])) if good else dict(peer_runs[0])
            best["all_seconds"] = [round(r["seconds"], 4) for r in good]
            best["expected_lines"] = expected
            best["ok_status"] = (
                best["exit_status"] in OK_STATUS.get(peer, {0}) and best["output_lines"] == expected
            )
            results[peer] = best
        limit = 10**9 if edge else SAMPLE_LINES
        for peer, best in results.items():
            if peer != "ours":
                best["agreement"] = agreement(peer, results["ours"], best, limit)
        for best in results.values():
            best.pop("head", None)
            if best.get("ok_status"):
                best.pop("stderr", None)
        figures[workload] = results
    return figures


# --- the machine ---------------------------------------------------------------------------


def _output(argv: list[str]) -> str:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"


def machine() -> dict[str, Any]:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "nproc": len(os.sched_getaffinity(0)),
        "cpu_model": model,
        "kernel": platform.release(),
        "python": _output([str(OUR_PYTHON), "-c", "import sys; print(sys.version.split()[0])"]),
        "node": _output([NODE, "--version"]),
        "duckdb": duckdb_version() or "?",
        "orjson": _output([str(OUR_PYTHON), "-c", "import orjson; print(orjson.__version__)"]),
        "loadavg_before": os.getloadavg(),
    }


# --- the report ------------------------------------------------------------------------------

TARGETS = [
    # (label, workload, peer, minimum peer/ours time ratio[, which of ours, default "ours"])
    ("1M records: >= 2.5x faster than the reference", "records-1m", "reference", 2.5),
    ("1M records: no slower than DuckDB (its faster query)", "records-1m", "DuckDB", 1.0),
    ("two 1M-ID keys: >= 2.5x faster than the reference", "keys-1m", "reference", 2.5),
    (
        "two 1M-ID keys, one record on stdin: >= 2x the reference",
        "keys-1m",
        "reference",
        2.0,
        "ours, one record, stdin",
    ),
    ("100k-ID record: >= 100x faster than the reference", "scope-100k", "reference", 100.0),
]
MAX_MEMORY_RATIO = 1.2


def _ratio(figures: dict[str, Any], workload: str, peer: str, mine: str = "ours") -> float | None:
    results = figures[workload]
    ours = results.get(mine, {}).get("seconds")
    if peer == "DuckDB":
        times = [r["seconds"] for p, r in results.items() if p.startswith("DuckDB") and r.get("seconds")]
        theirs = min(times) if times else None
    else:
        theirs = results.get(peer, {}).get("seconds")
    return theirs / ours if ours and theirs else None


def _mb(kb: int | None) -> str:
    return "?" if kb is None else f"{kb / 1024:.1f}"


def report(figures: dict[str, Any]) -> str:
    m = figures["machine"]
    out = [
        f"{m['date']}, {m['nproc']} CPUs ({m['cpu_model']}), Linux {m['kernel']}; Python {m['python']}, "
        f"orjson {m['orjson']}, node {m['node']}, DuckDB {m['duckdb']}"
        f"{'; QUICK RUN (small files, not the real figures)' if figures['quick'] else ''}",
        f"load average {'/'.join(f'{x:.2f}' for x in m['loadavg_before'])} before, "
        f"{'/'.join(f'{x:.2f}' for x in m['loadavg_after'])} after; best of {figures['repeat']} runs; "
        + (
            "peak RSS by GNU time (%M)"
            if figures["records-1m"]["ours"].get("rss_from", "GNU").startswith("GNU")
            else f"peak RSS by os.wait4, floored at this script's own peak {figures['runner_peak_rss_kb'] / 1024:.1f} MB"
        ),
        "",
        "| Workload | Peer | wall s (best) | CPU s | peak RSS MB | peer / ours (time) | exit | sample check |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    sizes = figures["sizes"]
    names = {
        "records-1m": f"{sizes['records']:,} small records",
        "records-10k": f"{sizes['small']:,} small records",
        "keys-1m": f"two keys, {sizes['keys']:,} IDs each",
        "scope-100k": f"one record, {sizes['scope']:,} IDs each side",
    }
    for workload, label in names.items():
        results = figures[workload]
        ours = results["ours"].get("seconds")
        for peer, r in results.items():
            if r.get("seconds") is None:
                out.append(f"| {label} | {peer} | failed: {r.get('error')} | | | | | |")
                continue
            ratio = "1" if peer == "ours" else f"{r['seconds'] / ours:.2f}" if ours else "?"
            check = "—"
            if "agreement" in r:
                a = r["agreement"]
                check = (
                    f"agrees ({a['compared']} lines, {a['how']})"
                    if a["agrees"]
                    else f"**DIFFERS**: {a['differing_lines']} of {a['compared']} lines, "
                    f"{a['line_counts'][1]} vs {a['line_counts'][0]} lines"
                )
            status = str(r["exit_status"]) + ("" if r["ok_status"] else " **!**")
            runs = len(r.get("all_seconds", []))
            best_of = "" if runs == figures["repeat"] else " (1 run)" if runs == 1 else f" ({runs} runs)"
            out.append(
                f"| {label} | {peer} | {r['seconds']:.3f}{best_of} | {r['cpu_seconds']:.3f} | "
                f"{_mb(r['peak_rss_kb'])} | {ratio} | {status} | {check} |"
            )
    out += ["", "| Target | figure | verdict |", "|---|---:|---|"]
    if figures["quick"]:
        out.append("| (quick run: the targets are for the full sizes; these verdicts mean nothing) | | |")
    for label, workload, peer, minimum, *mine in TARGETS:
        ratio = _ratio(figures, workload, peer, *mine)
        out.append(
            f"| {label} | {ratio:.2f}x | {'met' if ratio and ratio >= minimum else '**missed**'} |"
            if ratio
            else f"| {label} | ? | ? |"
        )
    big = figures["records-1m"]["ours"].get("peak_rss_kb")
    small = figures["records-10k"]["ours"].get("peak_rss_kb")
    if big and small:
        out.append(
            f"| our peak RSS, {sizes['records']:,} / {sizes['small']:,} records <= {MAX_MEMORY_RATIO} | "
            f"{big / 1024:.1f} / {small / 1024:.1f} MB = {big / small:.2f} | "
            f"{'met' if big / small <= MAX_MEMORY_RATIO else '**missed**'} |"
        )
    out += ["", "edge cases (every line compared):"]
    for workload in ("edge-scope", "edge-keys"):
        for peer, r in figures[workload].items():
            if peer == "ours":
                continue
            a = r.get("agreement", {})
            if a.get("agrees"):
                out.append(f"* {workload}, {peer}: agrees on all {a['compared']} lines")
            else:
                d = a.get("first_difference", {})
                out.append(
                    f"* {workload}, {peer}: **differs** on {a.get('differing_lines')} of {a.get('compared')} lines; "
                    f"first, line {d.get('line')}: ours `{d.get('ours')}`, theirs `{d.get('theirs')}`"
                )
    problems = []
    for workload, results in figures.items():
        if not isinstance(results, dict) or "ours" not in results:
            continue
        for peer, r in results.items():
            if not r.get("ok_status", True) or r.get("error"):
                problems.append(
                    f"* {workload}, {peer}: exit {r.get('exit_status')}, {r.get('output_lines')} output "
                    f"lines for {r.get('expected_lines')} expected {r.get('error', '')} "
                    f"`{(r.get('stderr') or '').strip()[-300:]}`"
                )
            a = r.get("agreement")
            if a and not a["agrees"] and not workload.startswith("edge") and "first_difference" in a:
                d = a["first_difference"]
                problems.append(
                    f"* {workload}, {peer}: line {d['line']}: ours `{d['ours'][:200]}`, "
                    f"theirs `{d['theirs'][:200]}`"
                )
    if problems:
        out += ["", "problems:", *problems]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per peer and workload; the best counts (default 3)"
    )
    parser.add_argument("--quick", action="store_true", help="small files, one run each (a smoke test)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument(
        "--slow",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="a peer whose first run takes longer runs only once (default 20)",
    )
    parser.add_argument("--keep", metavar="DIR", help="write the inputs to DIR and keep them")
    parser.add_argument(
        "--before",
        metavar="TREE",
        help="also run our peers from the helpers/ in TREE (e.g. `git archive HEAD~1 helpers | tar -x -C TREE`)",
    )
    parser.add_argument("--only-ours", action="store_true", help="leave out the reference and DuckDB peers")
    parser.add_argument("--inputs", metavar="DIR", help="use the inputs already in DIR (from --keep)")
    parser.add_argument(
        "--report", metavar="FILE", help="print the tables for figures saved earlier with --json"
    )
    parser.add_argument("--generate", nargs=2, metavar=("DIR", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.generate:
        generate(Path(args.generate[0]), args.generate[1])
        return 0
    if args.report:
        print(report(json.loads(Path(args.report).read_text(encoding="utf-8"))))
        return 0
    if not OUR_PYTHON.exists():
        raise SystemExit(f"{OUR_PYTHON} is missing: create the project's venv first")
    ensure_duckdb()
    size = "quick" if args.quick else "full"
    repeat = 1 if args.quick else args.repeat
    info = machine()
    with tempfile.TemporaryDirectory(prefix="eic-compare-") as tmp:
        folder = Path(args.inputs or args.keep or tmp)
        if not args.inputs:
            folder.mkdir(parents=True, exist_ok=True)
            print(f"generating inputs in {folder} ...", file=sys.stderr)
            subprocess.run([sys.executable, __file__, "--generate", str(folder), size], check=True)
        before = Path(args.before).resolve() if args.before else None
        figures = measure_all(folder, repeat, args.slow, before, args.only_ours)
    info["loadavg_after"] = os.getloadavg()
    figures.update(
        {
            "machine": info,
            "quick": args.quick,
            "repeat": repeat,
            "sizes": SIZES[size],
            "runner_peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        }
    )
    print(json.dumps(figures, indent=1, ensure_ascii=False) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
