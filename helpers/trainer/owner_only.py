"""The trainer's folder is the trainer's alone: every file in it 0600, every folder 0700, whatever the umask.

``mkdir(mode=0o700)`` and a new file's mode are both cut by the umask (``0o000`` leaves a file
``0666``; an odd one such as ``0o277`` can leave a folder the trainer cannot enter), so the
modes are set explicitly after each is made: :func:`owner_folder` for folders, and
:data:`FILE_MODE` passed to :func:`helpers.core.files.write_atomically` for files. A folder
that was there already is left as it is. Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["FILE_MODE", "FOLDER_MODE", "owner_folder", "remove_made"]

#: Every file in the trainer's folder, and a key and its baseline wherever they are written.
FILE_MODE = 0o600
#: Every folder in the trainer's folder.
FOLDER_MODE = 0o700


def owner_folder(path: str | Path, *, exist_ok: bool = True) -> list[Path]:
    """Make ``path`` and any missing folder above it, each :data:`FOLDER_MODE`; the folders made, outermost first.

    With ``exist_ok=False`` an existing ``path`` is refused (:class:`FileExistsError`), as
    :meth:`pathlib.Path.mkdir` does. Raises :class:`OSError` when a folder cannot be made.
    """
    path = Path(path)
    missing: list[Path] = []
    walk = path
    while not os.path.lexists(walk) and walk != walk.parent:
        missing.append(walk)
        walk = walk.parent
    if not missing and not exist_ok:
        raise FileExistsError(f"{path} exists already")
    made: list[Path] = []
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=FOLDER_MODE)
        except FileExistsError:
            if folder == path and not exist_ok:
                raise
            continue  # made by another run at the same moment: theirs
        os.chmod(folder, FOLDER_MODE)
        made.append(folder)
    return made


def remove_made(made: list[Path]) -> list[Path]:
    """Remove the folders :func:`owner_folder` made, innermost first; those left (not empty) are returned."""
    left = []
    for folder in reversed(made):
        try:
            folder.rmdir()
        except FileNotFoundError:
            pass  # gone already: nothing is left behind
        except OSError:
            left.append(folder)
    return left
