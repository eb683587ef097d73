"""The offline in-browser edition: a JupyterLite site with the Pyodide kernel, in ``lite/``.

``python3 tasks.py lite`` (or ``python -m tools.publish.lite [-o DIR]``) builds a
complete JupyterLite site holding the numbered notebooks, from pinned packages only:

* the Lite build tools (:data:`BUILD_REQUIREMENTS`), installed by this command into
  their own virtual environment in the cache folder;
* the Pyodide core runtime from the npm package ``pyodide@`` :data:`PYODIDE_VERSION`,
  the version the pinned kernel expects (``npm pack``, checked against a pinned sha256);
* the pure-Python packages the kernel loads at start (:data:`KERNEL_START_WHEELS`), from
  PyPI at the versions of Pyodide's lock file, each checked against a pinned sha256; the
  lock is rewritten to name exactly these files, and every entry without a file is dropped;
* comm, ipywidgets and this project's own wheel (with its fixtures), added to the lock
  with their import names, so ``import helpers`` loads them all with no ``%pip``.

The site needs no network at all: Pyodide is served from ``static/pyodide/``, and the
PyPI fallback of the kernel's package installer is switched off. Downloads are kept in a
git-ignored cache folder (``.lite-cache/``, or ``$EIC_LITE_CACHE``), so a rebuild
downloads nothing; the last site built is kept there too, and copied instead of built again
while its inputs are unchanged (:mod:`tools.publish.lite_cache`; ``--fresh`` builds anyway). ``--serve`` then serves the site on 127.0.0.1 and prints the link;
any static web server can host the folder, but ``file://`` does not work.

Only the standard library is imported here; the build tools run as subprocesses.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from helpers.core.errors import BuildError
from helpers.core.paths import project_root
from tools.publish.lite_cache import cached_site, file_sha256, fresh_wanted, keep_site, site_digest
from tools.publish.lite_pins import (
    BUILD_REQUIREMENTS,
    EXTRA_WHEELS,
    KERNEL_START_WHEELS,
    PROJECT_DEPENDS,
    PROJECT_IMPORTS,
    PROJECT_KEY,
    PYODIDE_FILES,
    PYODIDE_PYTHON,
    PYODIDE_TARBALL_SHA256,
    PYODIDE_VERSION,
    Wheel,
)
from tools.publish.lite_server import LiteServer, Stopped, serve, stop_on_signals

__all__ = [
    "PYODIDE_VERSION",
    "PYODIDE_PYTHON",
    "BUILD_REQUIREMENTS",
    "KERNEL_START_WHEELS",
    "EXTRA_WHEELS",
    "LITE_MARKER",
    "LiteSite",
    "default_cache_dir",
    "default_output_dir",
    "build_lite",
    "LiteServer",
    "serve",
    "main",
]


#: A file the builder leaves in its output folder, so a rebuild may replace that folder.
LITE_MARKER = ".built-by-helpers-lite"
#: The notebook a visitor lands on.
START_NOTEBOOK = "01_start_here.ipynb"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"

#: Top-level entries of the checkout that are never input to the project wheel.
_NOT_SOURCE = frozenset(
    {
        ".git",
        ".venv",
        ".hypothesis",
        ".lite-cache",
        "build",
        "dist",
        "site",
        "lite",
        "artifacts",
        "node_modules",
    }
)


def _say(message: str) -> None:
    print(f"[lite] {message}", file=sys.stderr, flush=True)


def default_output_dir() -> Path:
    """``lite/`` in the checkout."""
    return project_root() / "lite"


def default_cache_dir() -> Path:
    """``$EIC_LITE_CACHE``, else ``.lite-cache/`` in the checkout (both git-ignored)."""
    configured = os.environ.get("EIC_LITE_CACHE")
    return Path(configured).resolve() if configured else project_root() / ".lite-cache"


def _run(args: Sequence[str | Path], *, cwd: Path | None = None, what: str) -> None:
    """Run a build step; raise :class:`BuildError` with its output if it fails."""
    try:
        done = subprocess.run(
            [str(a) for a in args], cwd=cwd, capture_output=True, text=True, errors="replace", check=False
        )
    except OSError as exc:
        raise BuildError(f"{what}: cannot run {args[0]}: {exc}") from exc
    if done.returncode:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-40:])
        raise BuildError(f"{what} failed (exit {done.returncode}):\n{tail}")


def _bin(venv: Path, name: str) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin") / name


# --- the build environment ------------------------------------------------------


def ensure_build_env(cache: Path) -> Path:
    """The build tools' own venv in ``cache/build-venv``, installed from the pins once."""
    venv = cache / "build-venv"
    stamp = venv / ".requirements-sha256"
    wanted = hashlib.sha256(
        "\n".join([sys.version, *BUILD_REQUIREMENTS]).encode("utf-8"),
    ).hexdigest()
    if stamp.is_file() and stamp.read_text().strip() == wanted and _bin(venv, "jupyter").exists():
        return venv
    if venv.exists():
        shutil.rmtree(venv)
    _say(f"installing the pinned Lite build tools into {venv} (about a minute, once)")
    _run([sys.executable, "-m", "venv", venv], what="creating the build venv")
    requirements = cache / "build-requirements.txt"
    requirements.write_text("\n".join(BUILD_REQUIREMENTS) + "\n", encoding="utf-8")
    _run(
        [
            _bin(venv, "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-input",
            "-r",
            requirements,
        ],
        what="installing the Lite build tools",
    )
    stamp.write_text(wanted + "\n")
    return venv


# --- downloads ----------------------------------------------------------------------


def _checked(path: Path, sha256: str) -> bool:
    return path.is_file() and file_sha256(path) == sha256


def fetch_pyodide(cache: Path) -> Path:
    """``pyodide-<version>.tgz`` from npm into ``cache/downloads``, its sha256 checked."""
    folder = cache / "downloads"
    tarball = folder / f"pyodide-{PYODIDE_VERSION}.tgz"
    if _checked(tarball, PYODIDE_TARBALL_SHA256):
        return tarball
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError(
            "npm is needed to fetch Pyodide from the npm registry: install it with "
            "`apt-get install -y npm` (`.ci/run` does)"
        )
    folder.mkdir(parents=True, exist_ok=True)
    tarball.unlink(missing_ok=True)
    _say(f"fetching pyodide@{PYODIDE_VERSION} from npm")
    _run(
        [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", folder, "--silent"],
        cwd=folder,
        what=f"npm pack pyodide@{PYODIDE_VERSION}",
    )
    if not tarball.is_file():
        raise BuildError(f"npm pack did not write {tarball}")
    if (found := file_sha256(tarball)) != PYODIDE_TARBALL_SHA256:
        raise BuildError(f"{tarball.name} has sha256 {found}, expected the pinned {PYODIDE_TARBALL_SHA256}")
    return tarball


def _find_wheel(folder: Path, wheel: Wheel) -> Path | None:
    for path in sorted(folder.glob("*.whl")):
        name, version = path.name.split("-")[:2]
        if name.replace("_", "-").lower() == wheel.key and version == wheel.version:
            return path
    return None


def fetch_wheels(cache: Path, wheels: Sequence[Wheel], python: Path) -> dict[str, Path]:
    """Each pinned wheel from PyPI into ``cache/wheels`` (pure Python, for Python 3.14), checked."""
    folder = cache / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    wanted = [w for w in wheels if not ((p := _find_wheel(folder, w)) and _checked(p, w.sha256))]
    if wanted:
        _say(f"downloading {len(wanted)} pinned wheels from PyPI")
        _run(
            [
                python,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
                "--only-binary=:all:",
                "--python-version",
                PYODIDE_PYTHON,
                "--dest",
                folder,
                *(w.requirement for w in wanted),
            ],
            what="downloading the kernel's wheels",
        )
    found: dict[str, Path] = {}
    for wheel in wheels:
        path = _find_wheel(folder, wheel)
        if path is None:
            raise BuildError(f"no wheel for {wheel.requirement} in {folder}")
        if (digest := file_sha256(path)) != wheel.sha256:
            raise BuildError(f"{path.name} has sha256 {digest}, expected the pinned {wheel.sha256}")
        found[wheel.key] = path
    return found


def _ignore_non_source(root: Path) -> Callable[[str, list[str]], set[str]]:
    def ignore(folder: str, names: list[str]) -> set[str]:
        ignored = {n for n in names if n == "__pycache__" or n.endswith(".egg-info")}
        if Path(folder) == root:
            # Hidden entries at the top (.git, every .venv-X.Y, the caches) are never build input,
            # and the per-Python environments alone are gigabytes to copy.
            ignored |= _NOT_SOURCE.intersection(names) | {n for n in names if n.startswith(".")}
        return ignored

    return ignore


def build_project_wheel(root: Path, into: Path) -> Path:
    """This project's wheel (with ``helpers/fixtures/``), built from a scratch copy of ``root``."""
    with tempfile.TemporaryDirectory(prefix="eic-lite-wheel-") as scratch:
        source = Path(scratch) / "source"
        shutil.copytree(root, source, ignore=_ignore_non_source(root))
        into.mkdir(parents=True, exist_ok=True)
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
                "--no-build-isolation",
                "-w",
                into,
                source,
            ],
            what="building the project wheel",
        )
    wheels = sorted(into.glob("eval_integrity_helpers-*.whl"))
    if len(wheels) != 1:
        raise BuildError(f"expected one project wheel in {into}, found {[w.name for w in wheels]}")
    with zipfile.ZipFile(wheels[0]) as archive:
        if "helpers/fixtures/filled_cases.json" not in archive.namelist():
            raise BuildError(f"{wheels[0].name} does not carry helpers/fixtures/")
    return wheels[0]


# --- the Pyodide folder --------------------------------------------------------------


def _lock_entry(
    name: str, version: str, wheel: Path, imports: Sequence[str], depends: Sequence[str]
) -> dict[str, object]:
    return {
        "name": name,
        "version": version,
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": file_sha256(wheel),
        "package_type": "package",
        "imports": list(imports),
        "depends": list(depends),
        "unvendored_tests": False,
    }


def stage_pyodide(
    tarball: Path, wheels: dict[str, Path], project_wheel: Path, project_version: str, target: Path
) -> dict[str, object]:
    """Unpack the Pyodide core into ``target``, add the wheels and rewrite its lock to match."""
    target.mkdir(parents=True)
    with tarfile.open(tarball, "r:gz") as archive:
        for name in PYODIDE_FILES:
            member = archive.extractfile(f"package/{name}")
            if member is None:
                raise BuildError(f"{tarball.name} has no package/{name}")
            (target / name).write_bytes(member.read())
    lock_path = target / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    if lock["info"]["python"].rsplit(".", 1)[0] != PYODIDE_PYTHON:
        raise BuildError(
            f"Pyodide {PYODIDE_VERSION} runs Python {lock['info']['python']}, not {PYODIDE_PYTHON}"
        )
    packages: dict[str, dict[str, object]] = {}
    for wheel in KERNEL_START_WHEELS:
        entry = lock["packages"].get(wheel.key)
        if entry is None or entry["version"] != wheel.version:
            raise BuildError(f"Pyodide's lock does not pin {wheel.requirement}")
        path = wheels[wheel.key]
        shutil.copyfile(path, target / path.name)
        packages[wheel.key] = {**entry, "file_name": path.name, "sha256": file_sha256(path)}
    for wheel in EXTRA_WHEELS:
        path = wheels[wheel.key]
        shutil.copyfile(path, target / path.name)
        packages[wheel.key] = _lock_entry(wheel.key, wheel.version, path, wheel.imports, wheel.depends)
    shutil.copyfile(project_wheel, target / project_wheel.name)
    packages[PROJECT_KEY] = _lock_entry(
        PROJECT_KEY, project_version, project_wheel, PROJECT_IMPORTS, PROJECT_DEPENDS
    )
    # Every dependency named must be an entry with a file; nothing points at a missing file.
    for key, entry in packages.items():
        depends = entry["depends"]
        assert isinstance(depends, list)
        for dependency in depends:
            if str(dependency).replace("_", "-").lower() not in packages:
                raise BuildError(f"lock entry {key} depends on {dependency}, which has no wheel")
    lock["packages"] = dict(sorted(packages.items()))
    lock_path.write_text(json.dumps(lock, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    return lock


def _jupyter_lite_json() -> dict[str, object]:
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Evaluation-integrity checks (offline)",
            # window.jupyterapp: lets the browser test tell when the kernel is really ready.
            "exposeAppInBrowser": True,
            "litePluginSettings": {
                KERNEL_PLUGIN: {
                    "pyodideUrl": "./static/pyodide/pyodide.mjs",
                    "disablePyPIFallback": True,
                }
            },
        },
    }


# --- the whole build ---------------------------------------------------------------


@dataclass(frozen=True)
class LiteSite:
    """A built site: its folder and the notebooks it holds."""

    output: Path
    notebooks: tuple[str, ...]
    seconds: float
    reused: bool = False  # copied from the cache: built earlier from the same inputs

    @property
    def start_path(self) -> str:
        """The site-relative address of the start page."""
        return f"lab/index.html?path={START_NOTEBOOK}"


def _project_version(root: Path) -> str:
    for line in (root / "pyproject.toml").read_text(encoding="utf-8").splitlines():
        if line.startswith("version = "):
            return line.split("=", 1)[1].strip().strip('"')
    raise BuildError("pyproject.toml has no version")


def _check_output(output: Path) -> None:
    config = json.loads((output / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    if (
        settings.get("pyodideUrl") != "./static/pyodide/pyodide.mjs"
        or settings.get("disablePyPIFallback") is not True
    ):
        raise BuildError(f"the built jupyter-lite.json lost the offline Pyodide settings: {settings}")
    for name in PYODIDE_FILES:
        if not (output / "static" / "pyodide" / name).is_file():
            raise BuildError(f"the built site has no static/pyodide/{name}")


def build_lite(
    output: Path | None = None,
    *,
    cache: Path | None = None,
    root: Path | None = None,
    fresh: bool | None = None,
) -> LiteSite:
    """Build the site into ``output`` (default ``lite/``), replacing an earlier build there.

    When the cache keeps a site built from the same inputs (:func:`site_digest`), it is copied
    instead of running ``jupyter lite build`` again, unless ``fresh`` (default:
    ``$EIC_LITE_FRESH=1``); a fresh build is kept in the cache for the next run.
    """
    started = time.perf_counter()
    root = root or project_root()
    output = (output or default_output_dir()).resolve()
    cache = (cache or default_cache_dir()).resolve()
    fresh = fresh_wanted() if fresh is None else fresh
    if output.exists() and not (output / LITE_MARKER).exists() and any(output.iterdir()):
        raise BuildError(f"{output} exists and was not built by this command; not replacing it")
    notebooks = sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not notebooks:
        raise BuildError(f"no numbered notebooks in {root / 'notebooks'}")
    cache.mkdir(parents=True, exist_ok=True)
    venv = ensure_build_env(cache)
    tarball = fetch_pyodide(cache)
    wheels = fetch_wheels(cache, [*KERNEL_START_WHEELS, *EXTRA_WHEELS], _bin(venv, "python"))
    with tempfile.TemporaryDirectory(prefix="eic-lite-") as scratch:
        work = Path(scratch)
        project_wheel = build_project_wheel(root, work / "dist")
        digest = site_digest(root, project_wheel, notebooks, wheels, _jupyter_lite_json())
        built = work / "_output"
        kept = None if fresh else cached_site(cache, digest)
        if kept is not None:
            _say("the inputs are those of the cached site: copying it instead of building")
            shutil.copytree(kept, built)
        else:
            _lite_build(venv, tarball, wheels, project_wheel, _project_version(root), notebooks, work, built)
            keep_site(cache, digest, built)
        _check_output(built)
        if output.exists():
            shutil.rmtree(output)
        output.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(built), str(output))
    seconds = time.perf_counter() - started
    return LiteSite(output, tuple(n.name for n in notebooks), seconds, reused=kept is not None)


def _lite_build(
    venv: Path,
    tarball: Path,
    wheels: dict[str, Path],
    project_wheel: Path,
    project_version: str,
    notebooks: Sequence[Path],
    work: Path,
    built: Path,
) -> None:
    """Stage Pyodide, the configuration and the notebooks in ``work``; ``jupyter lite build`` into ``built``."""
    stage = work / "stage"
    stage_pyodide(tarball, wheels, project_wheel, project_version, stage / "static" / "pyodide")
    (stage / "jupyter-lite.json").write_text(json.dumps(_jupyter_lite_json(), indent=2) + "\n")
    contents = work / "contents"
    contents.mkdir()
    for notebook in notebooks:
        shutil.copyfile(notebook, contents / notebook.name)
    _say("running jupyter lite build")
    _run(
        [
            _bin(venv, "jupyter"),
            "lite",
            "build",
            "--lite-dir",
            stage,
            "--contents",
            contents,
            "--output-dir",
            built,
            "--no-sourcemaps",
            "--no-unused-shared-packages",
        ],
        cwd=stage,
        what="jupyter lite build",
    )
    _check_output(built)
    (built / LITE_MARKER).write_text("Built by python3 tasks.py lite.\n")


# --- command line ----------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tools.publish.lite [-o DIR] [--serve [--port N]]``."""
    parser = argparse.ArgumentParser(
        prog="python3 tasks.py lite",
        description="Build the offline in-browser edition (JupyterLite + Pyodide) into lite/.",
    )
    parser.add_argument("-o", "--output", type=Path, default=None, help="output folder (default: lite/)")
    parser.add_argument("--cache", type=Path, default=None, help="download cache (default: .lite-cache/)")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="build afresh even when the cache keeps a site built from the same inputs",
    )
    parser.add_argument("--serve", action="store_true", help="then serve the site on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default 8000; 0: any free)")
    args = parser.parse_args(argv)
    try:
        site = build_lite(args.output, cache=args.cache, fresh=True if args.fresh else None)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    how = "copied from the cache" if site.reused else "built"
    _say(f"{how} {site.output} ({len(site.notebooks)} notebooks) in {site.seconds:.0f} s")
    if not args.serve:
        _say("serve it with `python3 tasks.py lite --serve`, or from any static web server (not file://)")
        return 0
    try:
        server = LiteServer(site.output, args.port).start()
    except OSError as exc:
        print(f"error: cannot serve on 127.0.0.1:{args.port}: {exc} (try --port 0)", file=sys.stderr)
        return 1
    print(
        f"Serving {site.output} on 127.0.0.1 only. Open:\n\n    {server.base_url}/{site.start_path}\n",
        flush=True,
    )
    print("Press Ctrl+C to stop.", flush=True)
    stopping = stop_on_signals()
    try:
        while server.thread.is_alive():
            server.thread.join(timeout=0.5)
    except (KeyboardInterrupt, Stopped):
        pass
    finally:
        server.stop()
        stopping.restore()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
