#!/usr/bin/env python3
"""Project commands. Each one builds ``.venv`` from requirements.txt first.

    python3 tasks.py test [--all] [ARGS]  run the tests and strict nbval, one browser smoke test per surface
                                          (--all: every browser test and every seed, as CI)
    python3 tasks.py test --python PATH [ARGS]
                                          the code's tests on another Python, in its own .venv-X.Y.Z/
    python3 tasks.py pythons [PATH ...]   the same on every other Python the project supports (as CI)
    python3 tasks.py lint                 ruff check, ruff format --check and mypy (all three run)
    python3 tasks.py lab [LAB ARGS]       open the notebooks in JupyterLab (a working copy in .lab/)
    python3 tasks.py notebooks [NB ...]   re-execute notebooks (all by default), storing outputs
    python3 tasks.py site [-o DIR]        render the notebooks to a static site in site/ (open site/index.html)
    python3 tasks.py app                  open the notebooks as a code-free app (Voila, 127.0.0.1)
    python3 tasks.py mutants [--limit N]  mutation-test the checks: notebooks alone, then the suite (slow)
    python3 tasks.py lite [--serve]       build the offline in-browser edition (JupyterLite) in lite/
    python3 tasks.py setup                only build or refresh .venv

Needs only Python 3.11 or newer; everything else comes from requirements.txt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".requirements-sha256"
NOTEBOOKS = ROOT / "notebooks"


def _say(message: str) -> None:
    print(f"[tasks] {message}", file=sys.stderr, flush=True)


def _run(*args: str | Path, **kwargs) -> None:
    result = subprocess.run([str(a) for a in args], **kwargs)
    if result.returncode:
        raise SystemExit(result.returncode)


def _requirements_digest() -> str:
    digest = hashlib.sha256()
    for name in ("requirements.txt", "pyproject.toml"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def setup() -> None:
    """Create .venv and install the pinned requirements when they changed."""
    # tasks.py runs on whatever python3 the machine has, so this check is not dead code.
    if sys.version_info < (3, 11):  # noqa: UP036
        raise SystemExit(f"Python 3.11 or newer is needed; this is {sys.version.split()[0]}")
    wanted = _requirements_digest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted and (BIN / "python").exists():
        return
    if not (BIN / "python").exists():
        _say(f"creating {VENV.relative_to(ROOT)}")
        _run(sys.executable, "-m", "venv", VENV)
    pinned = [
        line.split("==")[0]
        for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.lstrip().startswith("#")
    ]
    _say(
        f"installing {len(pinned)} pinned packages from requirements.txt, pip naming each as it goes "
        "(about 3 minutes the first time)"
    )
    _run(
        BIN / "python",
        "-m",
        "pip",
        "install",
        "--progress-bar",
        "off",
        "--disable-pip-version-check",
        "-r",
        ROOT / "requirements.txt",
        cwd=ROOT,
    )
    # The announcements pop-up covers the notebook on first start; switch it off.
    _run(
        BIN / "jupyter",
        "labextension",
        "disable",
        "--level=sys_prefix",
        "@jupyterlab/apputils-extension:announcements",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    STAMP.write_text(wanted + "\n")


#: The Pythons the project supports besides the one that builds ``.venv`` (``requires-python >=3.11,<3.14``):
#: ``(version, where it comes from, where to look)``. ``tasks.py pythons`` tests each one and fails
#: when one is missing, so CI never passes on fewer Pythons than it claims.
PYTHONS = (
    ("3.11", "Debian 12's own (3.11.2)", ("/usr/bin/python3.11",)),
    ("3.12", "pyenv's", ("~/.pyenv/versions/3.12.*/bin/python3.12", "/usr/local/bin/python3.12")),
    ("3.13", "pyenv's", ("~/.pyenv/versions/3.13.*/bin/python3.13", "/usr/local/bin/python3.13")),
)
#: What ``test --python`` runs when given no test arguments: every test of the code itself, on
#: two workers, without the browser, the notebooks, the publishing tests (the site, the wheel)
#: or the project's own checks (lint, drift, the servers), which need only one Python.
PYTHON_TESTS = ("tests/core", "tests/trainee", "tests/trainer", "tests/team", "tests/cli")


def find_python(version: str, places: tuple[str, ...]) -> Path | None:
    """The newest Python ``version`` found in ``places`` (paths, ``~`` and ``*`` allowed), or ``None``."""
    import glob

    for place in places:
        found = sorted(glob.glob(os.path.expanduser(place)), key=_version_key, reverse=True)
        for path in found:
            if os.access(path, os.X_OK):
                return Path(path)
    return None


def _version_key(path: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", path))


def _python_version(python: Path) -> str:
    """``3.12.1``: the full version of the Python at ``python``."""
    try:
        done = subprocess.run(
            [str(python), "-c", "import platform; print(platform.python_version())"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as exc:
        raise SystemExit(f"[tasks] cannot run {python}: {exc.strerror}") from None
    if done.returncode:
        raise SystemExit(f"[tasks] {python} does not run: {done.stderr.strip()}")
    return done.stdout.strip()


def python_venv(python: Path) -> Path:
    """``.venv-X.Y.Z/`` for the Python at ``python``, built from the pinned requirements when they changed."""
    version = _python_version(python)
    if tuple(int(part) for part in version.split(".")[:2]) < (3, 11):
        raise SystemExit(f"[tasks] {python} is Python {version}; the project needs 3.11 or newer")
    venv = ROOT / f".venv-{version}"
    binary = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    stamp = venv / ".requirements-sha256"
    wanted = hashlib.sha256(f"{python.resolve()}\n{version}\n{_requirements_digest()}".encode()).hexdigest()
    if stamp.exists() and stamp.read_text().strip() == wanted and binary.exists():
        return binary
    if not binary.exists():
        _say(f"creating {venv.name} with {python} (Python {version})")
        made = subprocess.run(
            [str(python), "-m", "venv", str(venv)], capture_output=True, text=True, check=False
        )
        if made.returncode:
            hint = ""
            if "ensurepip" in made.stdout + made.stderr:
                hint = f"; on Debian, install its venv module: apt-get install python{version.rsplit('.', 1)[0]}-venv"
            raise SystemExit(
                f"[tasks] cannot create {venv.name}: {(made.stdout + made.stderr).strip()}{hint}"
            )
    _say(f"installing the pinned requirements into {venv.name} (2 to 4 minutes the first time)")
    _run(
        binary,
        "-m",
        "pip",
        "install",
        "-qq",  # errors only: a clean install has nothing to say
        "--progress-bar",
        "off",
        "--disable-pip-version-check",
        "--no-compile",  # the tests compile only what they import (test_environment)
        "-r",
        ROOT / "requirements.txt",
        cwd=ROOT,
    )
    stamp.write_text(wanted + "\n")
    return binary


def test_environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a test run: ``base`` (``os.environ``), with bytecode cached.

    The suite starts hundreds of Python processes (the command line, the notebooks' kernels,
    the servers), and each would compile ``helpers`` and the tests afresh, so a run writes
    bytecode (into ``__pycache__/``, which git ignores) even where ``PYTHONDONTWRITEBYTECODE`` is set.
    """
    env = dict(os.environ if base is None else base)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def test_on(python: Path, extra: list[str]) -> None:
    """Run the code's tests (:data:`PYTHON_TESTS`, or exactly ``extra``) on ``python``, in its own venv."""
    binary = python_venv(python)
    version = _python_version(binary)
    args = extra or ["-n", "2", "--dist", "loadfile", "-q", "-m", "not browser and not slow", *PYTHON_TESTS]
    _say(f"the tests on Python {version} ({python}): {' '.join(args)}")
    started = time.monotonic()
    _run(binary, "-m", "pytest", "-p", "no:cacheprovider", *args, cwd=ROOT, env=test_environment())
    _say(f"passed on Python {version} in {time.monotonic() - started:.0f} s")


def pythons(paths: list[str]) -> None:
    """Run the code's tests on every Python of :data:`PYTHONS` (or on the ``paths`` given); a missing one fails."""
    chosen: list[Path] = []
    if paths:
        chosen = [Path(path) for path in paths]
    else:
        missing = []
        for version, origin, places in PYTHONS:
            found = find_python(version, places)
            if found is None:
                missing.append(f"Python {version} ({origin}; looked in {', '.join(places)})")
            else:
                chosen.append(found)
        if missing:
            raise SystemExit(
                "[tasks] the project supports Pythons this machine lacks: "
                + "; ".join(missing)
                + ". Install them (pyenv install 3.X, apt-get install python3.11) or name others: "
                "python3 tasks.py pythons PATH ..."
            )
    started = time.monotonic()
    build_venvs(chosen)
    for python in chosen:
        test_on(python, [])
    _say(f"the tests passed on {len(chosen)} Pythons in {time.monotonic() - started:.0f} s")


def build_venvs(pythons: list[Path]) -> None:
    """Build (or confirm) each Python's venv, all at once, before any test runs.

    One pip install uses one core and waits on the disk in between, so on two cores the builds
    overlap; each is named when it starts, and a failed one stops the run, naming it.
    """
    from concurrent.futures import ThreadPoolExecutor

    def built(python: Path) -> Path:
        try:
            return python_venv(python)
        except SystemExit as exc:
            if isinstance(exc.code, int):  # pip's own exit status: say whose venv it was
                raise SystemExit(
                    f"[tasks] building the venv of {python} failed (pip exited {exc.code})"
                ) from None
            raise

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(len(pythons), 1)) as pool:
        list(pool.map(built, pythons))
    _say(f"{len(pythons)} venvs ready in {time.monotonic() - started:.0f} s")


def duration(seconds: float) -> str:
    """``4 min 2 s`` (or ``38 s``): a wall time as the fast loop prints it."""
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60} s" if whole >= 60 else f"{whole} s"


#: Where the tests' scratch files go when it has room: memory (tmpfs), where the fsyncs the
#: trainer's files and the progress files make cost nothing; on this 2-core machine's disk each
#: costs about 6 ms, and the fast loop makes thousands of them.
MEMORY_SCRATCH = (Path("/dev/shm"),)
#: The free space a scratch place needs (the browser edition's build and Chromium's profiles use some).
MEMORY_SCRATCH_BYTES = 2 << 30


def memory_scratch_root(places: tuple[Path, ...] | None = None) -> Path | None:
    """The first of ``places`` (:data:`MEMORY_SCRATCH`) that is a writable folder with :data:`MEMORY_SCRATCH_BYTES` free."""
    for place in MEMORY_SCRATCH if places is None else places:
        try:
            stats = os.statvfs(place)
        except (OSError, AttributeError):  # missing, or no statvfs (Windows)
            continue
        if (
            place.is_dir()
            and os.access(place, os.W_OK)
            and stats.f_bavail * stats.f_frsize >= MEMORY_SCRATCH_BYTES
        ):
            return place
    return None


@contextlib.contextmanager
def scratch_in_memory(places: tuple[Path, ...] | None = None):
    """Set ``TMPDIR`` to a fresh folder in memory for the ``with`` block (when there is one), then remove it.

    Every test's ``tmp_path`` and ``tempfile`` folder, and every process the tests start, use it.
    """
    import shutil
    import tempfile

    root = memory_scratch_root(places)
    if root is None:
        yield None
        return
    folder = tempfile.mkdtemp(prefix="eic-tests-", dir=root)
    before = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = folder
    try:
        yield Path(folder)
    finally:
        if before is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = before
        shutil.rmtree(folder, ignore_errors=True)


def test(extra: list[str]) -> None:
    """:func:`run_tests` with its scratch files in memory, then its wall time, printed last whether it passed or not."""
    started = time.monotonic()
    try:
        with scratch_in_memory():
            run_tests(extra)
    except BaseException:
        _say(f"tasks.py test failed after {duration(time.monotonic() - started)} (wall time)")
        raise
    _say(f"tasks.py test passed in {duration(time.monotonic() - started)} (wall time)")


def run_tests(extra: list[str]) -> None:
    """Run the unit, widget, CLI and browser tests and strict nbval.

    With no arguments (the fast loop), everything but the browser tests on two
    workers (``pytest-xdist``, one file per worker, so a notebook's cells stay
    together), and beside it one browser smoke test per surface (JupyterLab, Notebook 7,
    the app, the site, the browser edition; marked ``smoke``), one at a time,
    since each drives its own server and Chromium (see :func:`smoke_tests`).
    ``--all`` (what CI runs) runs every browser test instead, after the rest, and sets
    ``EIC_ALL_TESTS=1``, so the tests that sample (the simulated trainees) take
    every seed, and ``EIC_LITE_FRESH=1``, so the browser edition is built afresh rather than
    copied from the cache. With other arguments, one pytest run with exactly those.
    """
    if extra[:1] == ["--python"] or (extra and extra[0].startswith("--python=")):
        path = extra[1] if extra[0] == "--python" and len(extra) > 1 else extra[0].partition("=")[2]
        if not path:
            raise SystemExit("[tasks] --python needs the path of a Python, e.g. --python /usr/bin/python3.11")
        test_on(Path(path), extra[2:] if extra[0] == "--python" else extra[1:])
        return
    setup()
    _refuse_if_helpers_shadowed(NOTEBOOKS)
    pytest: list[str | Path] = [
        BIN / "python",
        "-m",
        "pytest",
        "--nbval",
        "--nbval-current-env",
        "--nbval-sanitize-with",
        ROOT / "tests" / "nbval_sanitize.cfg",
    ]
    env = test_environment()
    every = extra[:1] == ["--all"]
    if every:
        env["EIC_ALL_TESTS"] = "1"
        env["EIC_LITE_FRESH"] = "1"  # the browser edition is built afresh, never copied from .lite-cache/
        extra = extra[1:]
    if extra:
        _run(*pytest, *extra, cwd=ROOT, env=env)
        return
    step_one = [*pytest, "-n", "2", "--dist", "loadfile", "-m", "not browser", "tests", "notebooks"]
    if every:
        _say("step 1 of 2: everything but the browser tests, on two workers")
        _run(*step_one, cwd=ROOT, env=env)
        _say("step 2 of 2: every browser test, one at a time")
        _run(*pytest, "-m", "browser", "-v", "tests/surfaces", cwd=ROOT, env=env)
        return
    smoke_tests(pytest, env, beside=step_one)


def smoke_tests(
    pytest: list[str | Path], env: dict[str, str], *, beside: list[str | Path], log_path: Path | None = None
) -> None:
    """The fast loop: ``beside`` (everything but the browser tests) and the browser smoke tests at once.

    The smoke tests run one at a time in a process of their own, its output kept in
    ``artifacts/smoke-tests.log`` and shown when ``beside`` is done, each test named; they mostly
    wait on their servers and Chromium, so the two workers of ``beside`` fill those waits. If
    ``beside`` fails or is interrupted, the smoke run is stopped.
    """
    log_path = log_path or ROOT / "artifacts" / "smoke-tests.log"
    log_path.parent.mkdir(exist_ok=True)
    # Without the cache plugin, the two pytest runs never write .pytest_cache at once.
    smoke_args = [
        str(a) for a in [*pytest, "-m", "browser and smoke", "-v", "-p", "no:cacheprovider", "tests/surfaces"]
    ]
    _say("one browser smoke test per surface, one at a time, beside the rest (--all runs every one);")
    _say(f"their output goes to {log_path} and is shown when the rest is done")
    with open(log_path, "wb") as log:
        smoke = subprocess.Popen(
            smoke_args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            _say("everything but the browser tests, on two workers")
            _run(*beside, cwd=ROOT, env=env)
            if smoke.poll() is None:
                _say("waiting for the browser smoke tests")
            code = smoke.wait()
        finally:
            stopped = smoke.poll() is None
            if stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(smoke.pid, signal.SIGTERM)
                smoke.wait()
            # Shown whatever the other step did: a failure there must not hide the browser results.
            _say("the browser smoke tests" + (" (stopped early, when the rest failed):" if stopped else ":"))
            sys.stdout.write(log_path.read_text(encoding="utf-8", errors="replace"))
            sys.stdout.flush()
    if code:
        raise SystemExit(code)


def lint() -> None:
    """Run ``ruff check``, ``ruff format --check``, ``mypy``, ``lint-imports`` and ``validate-pyproject``.

    All five always run, so one run reports every finding, and the command fails if any fails. Their
    settings are in pyproject.toml (``[tool.ruff]``, ``[tool.mypy]``, ``[tool.importlinter]``: the layers);
    ``validate-pyproject`` checks the package metadata itself (the SPDX licence, the classifiers).
    """
    setup()
    failed = []
    for name, args in (
        ("ruff check", [BIN / "ruff", "check", "."]),
        ("ruff format", [BIN / "ruff", "format", "--check", "."]),
        ("mypy", [BIN / "mypy"]),
        ("import layers", [BIN / "lint-imports", "--no-cache"]),
        ("pyproject.toml", [BIN / "validate-pyproject", "pyproject.toml"]),
    ):
        _say(name)
        if subprocess.run([str(a) for a in args], cwd=ROOT).returncode:
            failed.append(name)
    if failed:
        _say(f"failed: {', '.join(failed)}")
        raise SystemExit(1)
    _say("lint clean")


def _root_flags() -> list[str]:
    """Jupyter refuses to run as root unless told; containers often run as root."""
    return ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []


#: The git-ignored working copy of the notebooks that ``lab`` serves, so Lab's autosave never
#: changes the committed notebooks (their stored outputs are what CI checks).
LAB_COPY = ROOT / ".lab"


def prepare_lab_copy(source: Path = NOTEBOOKS, copy: Path = LAB_COPY) -> Path:
    """Bring the working copy up to date with the committed notebooks; return its folder.

    A notebook is copied when the working copy lacks it. When the committed notebook has
    changed since it was copied, the trainee's copy is moved to ``earlier/`` first, so
    nothing they did is lost. Progress files and anything else in the copy are left alone.
    """
    import shutil

    copy.mkdir(exist_ok=True)
    ledger = copy / ".copied-from.json"
    copied = json.loads(ledger.read_text(encoding="utf-8")) if ledger.is_file() else {}
    for path in sorted(source.glob("[0-9][0-9]_*.ipynb")):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        target = copy / path.name
        if target.exists() and copied.get(path.name) == digest:
            continue
        if target.exists():
            earlier = copy / "earlier"
            earlier.mkdir(exist_ok=True)
            number = 1
            while (kept := earlier / f"{path.stem}-{number}.ipynb").exists():
                number += 1
            target.replace(kept)
            _say(f"the course changed: your copy of {path.name} is kept as {kept.relative_to(copy)}")
        shutil.copyfile(path, target)
        copied[path.name] = digest
    downloads = source / "downloads"
    if downloads.is_dir():
        shutil.copytree(downloads, copy / "downloads", dirs_exist_ok=True)
    ledger.write_text(json.dumps(copied, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return copy


#: The page ``tasks.py lab`` opens on, under the server's address.
LAB_START_PAGE = "/lab/tree/01_start_here.ipynb"
_SERVER_URL = re.compile(r"(http://(?:127\.0\.0\.1|localhost):\d+)/[^\s?]*\?token=([0-9A-Za-z]+)")


def _ready(base: str, token: str) -> bool:
    """True once the server answers its status API."""
    try:
        with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as reply:
            return reply.status == 200
    except (OSError, ValueError):
        return False


#: ``<linux/prctl.h>``: the signal a process is sent when its parent exits.
_PR_SET_PDEATHSIG = 1


def _dies_with_parent(number: int = signal.SIGTERM):
    """A ``preexec_fn`` that has the server sent ``number`` when tasks.py exits, even by ``kill -9``.

    Linux's ``prctl(PR_SET_PDEATHSIG)``, set in the child before it runs the server; a tasks.py
    that died before the call is caught by comparing the parent's pid. SIGTERM lets the server
    shut its kernels down. None where ``prctl`` is not available (the server then outlives a
    ``kill -9`` of tasks.py, as before). tasks.py does not import the helpers, so this is here.
    """
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def set_in_child() -> None:
        prctl(_PR_SET_PDEATHSIG, number, 0, 0, 0)
        if os.getppid() != parent:  # tasks.py died before the call
            os.kill(os.getpid(), number)

    return set_in_child


def serve_and_announce(command: list[str], cwd: Path, page: str, *, quiet: float = 1.0) -> int:
    """Run a Jupyter server, relaying its log, and print ``Open: URL`` last, on its own line.

    The link (with the server's token) is printed once the server answers and its log
    has been quiet for ``quiet`` seconds, so it is not buried among the start-up lines.
    Ctrl-C goes to the server as usual (it asks before shutting down). Returns its exit status.
    """
    server = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=_dies_with_parent(),  # set before the relay thread starts
    )
    assert server.stdout is not None
    found: list[tuple[str, str]] = []
    last_line = [time.monotonic()]

    def relay() -> None:
        for line in server.stdout:  # type: ignore[union-attr]
            sys.stderr.write(line)
            sys.stderr.flush()
            last_line[0] = time.monotonic()
            if not found and (match := _SERVER_URL.search(line)):
                found.append((match.group(1), match.group(2)))

    reader = threading.Thread(target=relay, daemon=True)
    reader.start()
    # Stopped with SIGTERM (or a closed terminal: SIGHUP), stop the server too rather than leave it running.
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), lambda *_: server.terminate())
    announced = False
    try:
        while True:
            try:
                if not announced and found and _ready(*found[0]):
                    while time.monotonic() - last_line[0] < quiet and server.poll() is None:
                        time.sleep(0.1)
                    base, token = found[0]
                    print(f"\nOpen: {base}{page}?token={token}\n", flush=True)
                    announced = True
                if server.poll() is not None:
                    break
                time.sleep(0.1)
            except KeyboardInterrupt:  # the server got it too, and decides; keep relaying
                continue
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=30)
    reader.join(timeout=5)
    return server.returncode


def helpers_in_the_way(folder: Path) -> str | None:
    """One line when ``import helpers``, run from ``folder``, would load another module than this project's."""
    done = subprocess.run(
        [str(BIN / "python"), "-c", "import eval_integrity_helpers"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode == 0:
        return None
    lines = done.stderr.strip().splitlines()
    return lines[-1].partition(": ")[2] if lines else f"python exited with {done.returncode}"


def _refuse_if_helpers_shadowed(folder: Path) -> None:
    problem = helpers_in_the_way(folder)
    if problem is not None:
        raise SystemExit(f"[tasks] {problem}")


def lab(extra: list[str]) -> None:
    """Open JupyterLab on the start page, from the working copy, on this machine; the link is printed last."""
    setup()
    folder = prepare_lab_copy()
    _refuse_if_helpers_shadowed(folder)
    code = serve_and_announce(
        [
            str(BIN / "jupyter"),
            "lab",
            f"--ServerApp.root_dir={folder}",
            "--ServerApp.ip=127.0.0.1",
            f"--LabApp.default_url={LAB_START_PAGE}",
            *_root_flags(),
            *extra,
        ],
        folder,
        LAB_START_PAGE,
    )
    if code:
        raise SystemExit(code)


def _stable_widget_ids(name: str, index: int, cell: dict) -> None:
    """Replace random widget model ids with ones derived from the cell's place.

    No widget state is stored, so the ids point at nothing; stable ids keep a
    re-run from changing every widget cell (nbval ignores them either way).
    """
    for number, output in enumerate(cell.get("outputs", [])):
        view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
        if view is not None:
            seed = f"{name}:{index}:{number}".encode()
            view["model_id"] = hashlib.sha256(seed).hexdigest()[:32]


def notebooks(names: list[str]) -> None:
    """Re-execute notebooks in place: outputs stored, no widget state or timings."""
    setup()
    if names:
        paths = [NOTEBOOKS / Path(name).name for name in names]
        for path in paths:
            if not path.is_file():
                raise SystemExit(f"no notebook {path.relative_to(ROOT)}")
    else:
        paths = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    _refuse_if_helpers_shadowed(NOTEBOOKS)
    _run(
        BIN / "jupyter",
        "nbconvert",
        "--to",
        "notebook",
        "--execute",
        "--inplace",
        "--ExecutePreprocessor.record_timing=False",
        "--ExecutePreprocessor.store_widget_state=False",
        "--ExecutePreprocessor.timeout=300",
        *paths,
        cwd=NOTEBOOKS,
    )
    for path in paths:
        nb = json.loads(path.read_text(encoding="utf-8"))
        nb.get("metadata", {}).pop("widgets", None)
        for index, cell in enumerate(nb["cells"]):
            cell.get("metadata", {}).pop("execution", None)
            _stable_widget_ids(path.name, index, cell)
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    _say(f"re-executed {len(paths)} notebooks")


#: What stops a server that tasks.py runs: a kill (SIGTERM), Ctrl-C (SIGINT), a closed terminal (SIGHUP).
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name)
)
#: How long a server has to stop after SIGTERM before its whole process group is killed.
STOP_GRACE_SECONDS = 20.0


def run_server(command: list[str | Path], what: str, *, cwd: Path = ROOT) -> int:
    """Run a server until it ends, or until tasks.py is told to stop; return its exit status.

    The server runs in its own process group, so whatever it starts goes with it. SIGTERM,
    Ctrl-C or SIGHUP to tasks.py sends SIGTERM to that group (the server shuts down its
    kernels, or stops serving), waits for it (``STOP_GRACE_SECONDS``, then SIGKILL; a second
    signal kills at once), says so in one line and exits with 128 + the signal's number. If
    tasks.py itself is killed (even by ``kill -9``), the server is sent SIGTERM
    (:func:`_dies_with_parent`), and its kernels end with it. At a
    terminal, Ctrl-C reaches only tasks.py, which passes it on as SIGTERM.
    """
    came: list[int] = []
    previous = {
        number: signal.signal(number, lambda number, _frame: came.append(number)) for number in STOP_SIGNALS
    }
    try:
        server = subprocess.Popen(
            [str(a) for a in command],
            cwd=cwd,
            process_group=0,
            preexec_fn=_dies_with_parent(),
        )
        while server.poll() is None and not came:
            time.sleep(0.1)
        if not came:
            return server.returncode
        number = came[0]
        _signal_group(server.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        while server.poll() is None and time.monotonic() < deadline and len(came) == 1:
            time.sleep(0.1)
        if server.poll() is None:
            _signal_group(server.pid, signal.SIGKILL)
            server.wait()
        _signal_group(server.pid, signal.SIGKILL)  # anything of the group the server left behind
        name = signal.Signals(number).name
        _say(
            f"stopped {what} ({name})"
            + ("" if server.returncode == 0 else f"; it exited with {server.returncode}")
        )
        raise SystemExit(128 + number)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _signal_group(group: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # the group is gone already
        os.killpg(group, number)


def site(extra: list[str]) -> None:
    """Render the validated notebooks, as stored, to a static offline site in site/."""
    setup()
    _run(BIN / "python", "-m", "tools.publish.site", *extra, cwd=ROOT)


def app(extra: list[str]) -> None:
    """Open the notebooks as a code-free app (Voila), serving only on this machine; stopped by :func:`run_server`."""
    setup()
    code = run_server([BIN / "python", "-m", "helpers.trainer.serve.app", *extra], "the app")
    if code:
        raise SystemExit(code)


def lite(extra: list[str]) -> None:
    """Build the offline in-browser edition (JupyterLite + Pyodide) in lite/; ``--serve`` serves it.

    Run by :func:`run_server`, so a stop signal ends the build or the server with it.
    """
    setup()
    code = run_server([BIN / "python", "-m", "tools.publish.lite", *extra], "the browser edition")
    if code:
        raise SystemExit(code)


def mutants(extra: list[str]) -> None:
    """Mutation-test the checks: do the notebooks alone catch each mutant? (by hand, slow)."""
    setup()
    _run(BIN / "python", ROOT / "tools" / "mutation" / "run.py", *extra, cwd=ROOT)


def main(argv: list[str]) -> None:
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    if command == "test":
        test(rest)
    elif command == "lint":
        lint()
    elif command == "lab":
        lab(rest)
    elif command == "notebooks":
        notebooks(rest)
    elif command == "site":
        site(rest)
    elif command == "app":
        app(rest)
    elif command == "lite":
        lite(rest)
    elif command == "mutants":
        mutants(rest)
    elif command == "pythons":
        pythons(rest)
    elif command == "setup":
        setup()
    else:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
