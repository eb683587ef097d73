"""The browser edition's built-site cache: a site is reused only when every input of its build is the same.

Taught by no notebook. :func:`tools.publish.lite.build_lite` keeps the last site it built in
the download cache (``.lite-cache/built-site/``, git-ignored) with the digest of its inputs
(:func:`site_digest`), and copies it instead of building again while the digest is unchanged.
``$EIC_LITE_FRESH=1`` (``python3 tasks.py test --all``, as CI runs it) or ``--fresh`` builds afresh.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

from tools.publish.lite_pins import BUILD_REQUIREMENTS, PYODIDE_TARBALL_SHA256, PYODIDE_VERSION

__all__ = ["file_sha256", "site_digest", "cached_site", "keep_site", "fresh_wanted"]


def file_sha256(path: Path) -> str:
    """The sha256 of a file's bytes, in hex."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


#: The folder in the cache that keeps the last site built, and the file naming its inputs' digest.
_SITE_CACHE = "built-site"
_SITE_DIGEST = "built-site.sha256"


def site_digest(
    root: Path,
    project_wheel: Path,
    notebooks: Sequence[Path],
    wheels: dict[str, Path],
    config: dict[str, object],
) -> str:
    """sha256 of everything a build reads: the pins, this builder's code, the wheels' and the notebooks' bytes.

    ``config`` is the site's ``jupyter-lite.json``. The project wheel counts by its members' bytes
    (not the zip's timestamps); ``root`` only names the notebooks. Any change to any input gives
    another digest, so the cached site is not used.
    """
    digest = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)

    add("python", sys.version.encode())  # the build tools' venv runs on it
    add("build requirements", "\n".join(BUILD_REQUIREMENTS).encode())
    add("pyodide", f"{PYODIDE_VERSION} {PYODIDE_TARBALL_SHA256}".encode())
    add("jupyter-lite.json", json.dumps(config, sort_keys=True).encode())
    for module in sorted(Path(__file__).parent.glob("lite*.py")):
        add(f"builder {module.name}", module.read_bytes())
    for key, path in sorted(wheels.items()):
        add(f"wheel {key} {path.name}", file_sha256(path).encode())
    with zipfile.ZipFile(project_wheel) as archive:
        add("project wheel", project_wheel.name.encode())
        for name in sorted(archive.namelist()):
            add(f"project {name}", archive.read(name))
    for notebook in notebooks:
        add(f"notebook {notebook.relative_to(root).as_posix()}", notebook.read_bytes())
    return digest.hexdigest()


def cached_site(cache: Path, digest: str) -> Path | None:
    """The cached site built from inputs with ``digest``, or ``None`` (none kept, or built from others)."""
    stamp, folder = cache / _SITE_DIGEST, cache / _SITE_CACHE
    if stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest and folder.is_dir():
        return folder
    return None


def keep_site(cache: Path, digest: str, built: Path) -> None:
    """Keep a copy of ``built`` as the cached site for ``digest``, replacing the one kept before."""
    stamp, folder = cache / _SITE_DIGEST, cache / _SITE_CACHE
    stamp.unlink(missing_ok=True)  # first: a copy cut short is never taken for a whole one
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(built, folder)
    stamp.write_text(digest + "\n", encoding="utf-8")


def fresh_wanted() -> bool:
    """``$EIC_LITE_FRESH=1`` (``python3 tasks.py test --all`` sets it, as CI runs): no cached site."""
    return os.environ.get("EIC_LITE_FRESH") == "1"
