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
downloads nothing. ``--serve`` then serves the site on 127.0.0.1 and prints the link;
any static web server can host the folder, but ``file://`` does not work.

Only the standard library is imported here; the build tools run as subprocesses.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from helpers.core.error_root import HelpersError
from helpers.core.errors import BuildError
from helpers.core.paths import project_root

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

#: The Pyodide that jupyterlite-pyodide-kernel 0.8.6 expects (its ``PYODIDE_VERSION``).
PYODIDE_VERSION = "314.0.6"
#: The Python inside that Pyodide (3.14.2).
PYODIDE_PYTHON = "3.14"
#: sha256 of ``npm pack pyodide@314.0.6``.
PYODIDE_TARBALL_SHA256 = "d78ac549b28a2a58600cd06f44e017024151775f8c6b2d73fab1475400d38ea2"
#: The files of the npm package the site needs (no source maps, consoles or type stubs).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)

#: The Lite build tools and everything they need, pinned (resolved on Python 3.11).
BUILD_REQUIREMENTS = (
    "jupyterlite-core==0.8.6",
    "jupyterlite-pyodide-kernel==0.8.6",
    "jupyterlab_widgets==3.0.17",
    "widgetsnbextension==4.0.16",
    "ipywidgets==8.1.9",
    "jupyter_server==2.21.1",
    "anyio==4.16.0",
    "argon2-cffi==25.1.0",
    "argon2-cffi-bindings==26.2.0",
    "arrow==1.4.0",
    "asttokens==3.0.2",
    "attrs==26.1.0",
    "beautifulsoup4==4.15.0",
    "bleach==6.4.0",
    "cffi==2.1.1",
    "comm==0.2.3",
    "defusedxml==0.7.1",
    "doit==0.37.0",
    "executing==2.3.0",
    "fastjsonschema==2.22.3",
    "fqdn==1.6.0",
    "idna==3.20",
    "ipython==9.18.1",
    "ipython_pygments_lexers==1.1.1",
    "isoduration==20.11.0",
    "jedi==0.20.1",
    "Jinja2==3.1.6",
    "jsonpointer==3.12",
    "jsonschema==4.26.0",
    "jsonschema-specifications==2025.9.1",
    "jupyter-events==0.12.1",
    "jupyter_client==8.10.0",
    "jupyter_core==5.9.1",
    "jupyter_server_terminals==0.5.4",
    "jupyterlab_pygments==0.3.0",
    "lark==1.3.1",
    "MarkupSafe==3.0.4",
    "matplotlib-inline==0.2.2",
    "mistune==3.4.0",
    "nbclient==0.11.0",
    "nbconvert==7.17.2",
    "nbformat==5.11.1",
    "overrides==7.7.0",
    "packaging==26.4",
    "pandocfilters==1.5.1",
    "parso==0.8.7",
    "pexpect==4.9.0",
    "pkginfo==2.0",
    "platformdirs==4.14.9",
    "prometheus_client==0.26.0",
    "prompt_toolkit==3.0.53",
    "psutil==7.2.2",
    "ptyprocess==0.7.0",
    "pure_eval==0.2.4",
    "pycparser==3.12",
    "Pygments==2.21.0",
    "python-dateutil==4.0.0",
    "python-json-logger==4.2.0",
    "PyYAML==6.0.4",
    "pyzmq==27.3.0",
    "referencing==0.37.0",
    "rfc3339-validator==0.1.4",
    "rfc3986-validator==0.1.1",
    "rfc3987-syntax==1.1.0",
    "rpds-py==2026.9.1",
    "Send2Trash==2.2.0",
    "six==1.17.0",
    "soupsieve==4.1.3",
    "stack-data==0.6.3",
    "terminado==0.18.1",
    "tinycss2==1.5.1",
    "tornado==6.6.1",
    "traitlets==5.16.1",
    "typing_extensions==4.16.0",
    "tzdata==2026.6",
    "uri-template==1.3.0",
    "wcwidth==0.9.4",
    "webcolors==25.10.0",
    "webencodings==0.6.1",
    "websocket-client==1.9.2",
)


@dataclass(frozen=True)
class Wheel:
    """One pinned pure-Python wheel from PyPI: the lock key, the version and the file's sha256."""

    key: str  # the (normalized) key in pyodide-lock.json
    version: str
    sha256: str
    imports: tuple[str, ...] = ()  # for entries added to the lock
    depends: tuple[str, ...] = ()

    @property
    def requirement(self) -> str:
        return f"{self.key}=={self.version}"


#: The packages the kernel loads from the Pyodide folder at start (micropip and packaging,
#: then IPython with its dependencies, jedi and parso), at the versions of Pyodide
#: 314.0.6's lock. PyPI's wheels are not byte-identical to Pyodide's builds; the lock is
#: rewritten to these files and hashes.
KERNEL_START_WHEELS = (
    Wheel("asttokens", "3.0.1", "15a3ebc0f43c2d0a50eeafea25e19046c68398e487b9f1f5b517f7c0f40f976a"),
    Wheel("decorator", "5.2.1", "d316bb415a2d9e2d2b3abcc4084c6502fc09240e292cd76a76afc106a1c8e04a"),
    Wheel("executing", "2.2.1", "760643d3452b4d777d295bb167ccc74c64a81df23fb5e08eff250c425a4b2017"),
    Wheel("ipython", "9.12.0", "0f2701e8ee86e117e37f50563205d36feaa259d2e08d4a6bc6b6d74b18ce128d"),
    Wheel("jedi", "0.19.2", "a8ef22bde8490f57fe5c7681a3c83cb58874daf72b4784de3cce5b6ef6edb5b9"),
    Wheel("matplotlib-inline", "0.2.1", "d56ce5156ba6085e00a9d54fead6ed29a9c47e215cd1bba2e976ef39f5710a76"),
    Wheel("micropip", "0.11.1", "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"),
    Wheel("packaging", "26.1", "5d9c0669c6285e491e0ced2eee587eaf67b670d94a19e94e3984a481aba6802f"),
    Wheel("parso", "0.8.6", "2c549f800b70a5c4952197248825584cb00f033b29c692671d3bf08bf380baff"),
    Wheel("prompt-toolkit", "3.0.52", "9aac639a3bbd33284347de5ad8d68ecc044b91a762dc39b7c21095fcd6a19955"),
    Wheel("pure-eval", "0.2.3", "1db8e35b67b3d218d818ae653e27f06c3aa420901fa7b081ca98cbedc874e0d0"),
    Wheel("pygments", "2.20.0", "81a9e26dd42fd28a23a2d169d86d7ac03b46e2f8b59ed4698fb4785f946d0176"),
    Wheel("six", "1.17.0", "4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274"),
    Wheel("stack-data", "0.6.3", "d5558e0c25a4cb0853cddad3d77da9891a08cb85dd9f9f91b9f8cd66e511e695"),
    Wheel("traitlets", "5.14.3", "b74e89e397b1ed28cc831db7aea759ba6640cb3de13090ca145426688ff1ac4f"),
    Wheel("wcwidth", "0.6.0", "1a3a1e510b553315f8e146c54764f4fb6264ffad731b3d78088cdb1478ffbdad"),
)

#: Wheels not in Pyodide's lock, added to it: comm (the kernel's own wheel needs it),
#: ipywidgets (its front end, jupyterlab_widgets, is in the build environment), fsrs with
#: typing-extensions (the drill's spaced-review schedule) and fastjsonschema (progress files).
EXTRA_WHEELS = (
    Wheel(
        "comm",
        "0.2.3",
        "c615d91d75f7f04f095b30d1c1711babd43bdc6419c1be9886a85f2f4e489417",
        imports=("comm",),
        depends=("traitlets",),
    ),
    Wheel(
        "ipywidgets",
        "8.1.9",
        "f2b8cbcaae10252b809fbe4d7470db75c09b769a32cbf816d20e5ca6d3c5a79d",
        imports=("ipywidgets",),
        depends=("comm", "ipython", "traitlets"),
    ),
    Wheel(
        "fastjsonschema",
        "2.22.3",
        "f670b443830b75aca3f00b75949efa20f4b2a80302ec7a21505c28dd54cffd43",
        imports=("fastjsonschema",),
    ),
    Wheel(
        "typing-extensions",
        "4.16.0",
        "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8",
        imports=("typing_extensions",),
    ),
    Wheel(
        "fsrs",
        "6.3.2",
        "bc55066c821164b1cff6d75b17a3ed8e86cfd45789e3d775cfcb895319ce9ba4",
        imports=("fsrs",),
        depends=("typing-extensions",),
    ),
)

#: This project's lock entry: ``import helpers``, ``import eval_integrity_helpers`` (or ``from helpers.trainee.widgets import …``)
#: loads it, and ipywidgets with it.
PROJECT_KEY = "eval-integrity-helpers"
PROJECT_IMPORTS = ("helpers", "eval_integrity_helpers")
PROJECT_DEPENDS = ("ipywidgets", "fsrs", "fastjsonschema")

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


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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
    return path.is_file() and _sha256(path) == sha256


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
    if (found := _sha256(tarball)) != PYODIDE_TARBALL_SHA256:
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
        if (digest := _sha256(path)) != wheel.sha256:
            raise BuildError(f"{path.name} has sha256 {digest}, expected the pinned {wheel.sha256}")
        found[wheel.key] = path
    return found


def _ignore_non_source(root: Path) -> Callable[[str, list[str]], set[str]]:
    def ignore(folder: str, names: list[str]) -> set[str]:
        ignored = {n for n in names if n == "__pycache__" or n.endswith(".egg-info")}
        if Path(folder) == root:
            ignored |= _NOT_SOURCE.intersection(names)
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
        "sha256": _sha256(wheel),
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
        packages[wheel.key] = {**entry, "file_name": path.name, "sha256": _sha256(path)}
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
    output: Path | None = None, *, cache: Path | None = None, root: Path | None = None
) -> LiteSite:
    """Build the site into ``output`` (default ``lite/``), replacing an earlier build there."""
    started = time.perf_counter()
    root = root or project_root()
    output = (output or default_output_dir()).resolve()
    cache = (cache or default_cache_dir()).resolve()
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
        stage = work / "stage"
        stage_pyodide(tarball, wheels, project_wheel, _project_version(root), stage / "static" / "pyodide")
        (stage / "jupyter-lite.json").write_text(json.dumps(_jupyter_lite_json(), indent=2) + "\n")
        contents = work / "contents"
        contents.mkdir()
        for notebook in notebooks:
            shutil.copyfile(notebook, contents / notebook.name)
        built = work / "_output"
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
        (built / LITE_MARKER).write_text("Built by python3 tasks.py lite; rebuilt from scratch each time.\n")
        if output.exists():
            shutil.rmtree(output)
        output.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(built), str(output))
    seconds = time.perf_counter() - started
    return LiteSite(output, tuple(n.name for n in notebooks), seconds)


# --- serving ------------------------------------------------------------------------


#: The types a Lite site needs served right (``.wasm`` and ``.mjs`` above all).
_CONTENT_TYPES = {
    **http.server.SimpleHTTPRequestHandler.extensions_map,
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".ipynb": "application/json",
    ".whl": "application/octet-stream",
}


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the types a Lite site needs, quietly, from inside the site only."""

    extensions_map = _CONTENT_TYPES

    def send_head(self) -> Any:
        """As the standard handler does, but a path that leads out of the site (a symlink) is 404."""
        root = os.path.realpath(self.directory)
        real = os.path.realpath(self.translate_path(self.path))
        if real != root and not real.startswith(root + os.sep):
            self.send_error(http.HTTPStatus.NOT_FOUND, "File not found")
            return None
        return super().send_head()

    def copyfile(self, source: IO[bytes], outputfile: IO[bytes]) -> None:  # type: ignore[override]
        """Send a file, counting the bytes sent (the first-visit figure)."""
        before = source.tell()
        super().copyfile(source, outputfile)
        if isinstance(self.server, _CountingServer):
            self.server.count(source.tell() - before)

    def log_message(self, format: str, *args: object) -> None:
        pass


class _CountingServer(http.server.ThreadingHTTPServer):
    """A threading HTTP server that counts the file bytes it sends."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: Callable[..., _Handler]) -> None:
        super().__init__(address, handler)
        self._lock = threading.Lock()
        self.bytes_sent = 0
        self.files_sent = 0

    def count(self, size: int) -> None:
        with self._lock:
            self.bytes_sent += size
            self.files_sent += 1

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up mid-reply is no error: nothing is printed; anything else is."""
        if isinstance(sys.exc_info()[1], ConnectionError):  # BrokenPipeError, ConnectionResetError
            return
        super().handle_error(request, client_address)


class LiteServer:
    """A loopback-only static server for a built site, in a background thread."""

    def __init__(self, folder: Path, port: int = 0) -> None:
        handler = functools.partial(_Handler, directory=str(folder))
        self.httpd = _CountingServer(("127.0.0.1", port), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="lite-server", daemon=True)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``, no trailing slash."""
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    @property
    def bytes_sent(self) -> int:
        """Bytes of file bodies sent so far."""
        return self.httpd.bytes_sent

    @property
    def files_sent(self) -> int:
        """Files sent so far."""
        return self.httpd.files_sent

    def start(self) -> LiteServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


@contextlib.contextmanager
def serve(folder: Path, port: int = 0) -> Iterator[LiteServer]:
    """Serve ``folder`` on 127.0.0.1 (a free port by default) for the ``with`` block."""
    server = LiteServer(folder, port).start()
    try:
        yield server
    finally:
        server.stop()


# --- command line ----------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tools.publish.lite [-o DIR] [--serve [--port N]]``."""
    parser = argparse.ArgumentParser(
        prog="python3 tasks.py lite",
        description="Build the offline in-browser edition (JupyterLite + Pyodide) into lite/.",
    )
    parser.add_argument("-o", "--output", type=Path, default=None, help="output folder (default: lite/)")
    parser.add_argument("--cache", type=Path, default=None, help="download cache (default: .lite-cache/)")
    parser.add_argument("--serve", action="store_true", help="then serve the site on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default 8000; 0: any free)")
    args = parser.parse_args(argv)
    try:
        site = build_lite(args.output, cache=args.cache)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    _say(f"built {site.output} ({len(site.notebooks)} notebooks) in {site.seconds:.0f} s")
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
    stopping = _stop_on_signals()
    try:
        while server.thread.is_alive():
            server.thread.join(timeout=0.5)
    except (KeyboardInterrupt, _Stopped):
        pass
    finally:
        server.stop()
        stopping.restore()
    return 0


class _Stopped(HelpersError):
    """SIGTERM or SIGHUP came: stop serving, as Ctrl-C does."""


@dataclass
class _SignalHandlers:
    """The handlers :func:`_stop_on_signals` replaced, to put back."""

    previous: dict[int, Any]

    def restore(self) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)


def _stop_on_signals() -> _SignalHandlers:
    """SIGTERM and SIGHUP end ``--serve`` as Ctrl-C does: the server is shut down and the command exits 0."""

    came: list[int] = []

    def stop(number: int, _frame: object) -> None:
        if not came:  # once: a second signal while the server shuts down changes nothing
            came.append(number)
            raise _Stopped

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            previous[number] = signal.signal(number, stop)
    return _SignalHandlers(previous)


if __name__ == "__main__":
    raise SystemExit(main())
