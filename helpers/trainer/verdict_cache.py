"""The trainer's verdict cache: a re-run of the cohort re-grades only the files that changed.

A trainer opens the cohort every day, and most progress files have not changed
since the day before. :class:`VerdictCache` keeps each file's re-graded summary
in the trainer's own folder (beside the trainer's secret, :mod:`helpers.trainer.secret`),
keyed by the SHA-256 of the file's bytes, the course's content hash and the
helpers' version (with a digest of their code). A file whose key is unchanged is
not re-graded; any change to the file, the course or the helpers is a miss.

Nothing in the cache is trusted as it stands: every entry is signed with the
trainer's secret (HMAC-SHA-256), and one whose signature does not match (edited,
or written with another secret) is refused with a line and its file is re-graded.
The cache is written atomically (a temporary file renamed over it), owner-only,
under a lock (``filelock``): two runs at once each add their entries and neither
loses the other's. A cache that cannot be read or written costs time, never a
verdict. Taught in ``06_trainer.ipynb``.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import stat
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from helpers.core.files import write_atomically
from helpers.trainee.progress.paths import shown_path
from helpers.trainer.file_schemas import schema_problem
from helpers.trainer.secret import SECRET_NAME, TrainerSecret, trainer_dir

__all__ = ["CACHE_NAME", "CACHE_FORMAT", "MAX_ENTRIES", "VerdictCache", "helpers_version"]

#: The cache's file name in the trainer's folder.
CACHE_NAME = "cohort-verdicts.json"
CACHE_FORMAT = "eval-integrity-cohort-verdicts"
_VERSION = 1
#: The most entries kept; the oldest go first (a dropped entry is only re-graded again).
MAX_ENTRIES = 20_000
#: A cache file larger than this is not read (20,000 entries take about 100 MB).
_MAX_BYTES = 256 * 2**20
#: How long a run waits for another run's write of the cache before it gives up writing.
_WAIT_SECONDS = 30.0
_KIND = "cohort-verdict"


#: The parts of the package whose code decides a re-grade, and the data files it reads.
_GRADING_CODE = ("core", "team", "trainee", "trainer")
_GRADING_DATA = ("rules.json", "vocabulary.json", "schemas")


def grading_sources(package: Path, fixtures: Path) -> list[tuple[str, Path]]:
    """Every file whose bytes go into :func:`helpers_version`, by the name it is hashed under: each
    ``*.py`` in ``package``'s ``core``, ``team``, ``trainee`` and ``trainer`` at any depth but their
    widgets, the rules, the vocabulary and the schemas."""
    found = [
        (source.relative_to(package).as_posix(), source)
        for part in _GRADING_CODE
        for source in (package / part).rglob("*.py")
        if "widgets" not in source.relative_to(package).parts
    ]
    for name in _GRADING_DATA:
        path = fixtures / name
        found += [(f"fixtures/{p.relative_to(fixtures).as_posix()}", p) for p in path.rglob("*.json")]
        if path.is_file():
            found.append((f"fixtures/{name}", path))
    return sorted(found)


@functools.lru_cache(maxsize=1)
def helpers_version() -> str:
    """The helpers' version and a digest of their grading code and data: a re-grade by other code is another key."""
    from importlib import metadata

    from helpers.core.paths import fixtures_dir

    try:
        version = metadata.version("eval-integrity-helpers")
    except metadata.PackageNotFoundError:
        version = "unknown"
    package = Path(__file__).resolve().parent.parent  # helpers/
    digest = hashlib.sha256()
    for name, source in grading_sources(package, fixtures_dir()):
        digest.update(name.encode() + b"\0" + source.read_bytes() + b"\0")
    return f"{version}+{digest.hexdigest()[:16]}"


class VerdictCache:
    """Signed summaries of re-graded progress files, by file SHA-256, for one course and helpers version.

    :meth:`get` gives an entry's summary only when its signature is this trainer's and its
    course and helpers version are the current ones; :meth:`put` adds one; :meth:`save`
    writes what is new. :attr:`notes` holds one line for each entry refused and for a
    cache that could not be read or written. Taught in ``06_trainer.ipynb``.
    """

    def __init__(self, secret: TrainerSecret, course: str, helpers: str | None = None) -> None:
        self.secret = secret
        self.course = course
        self.helpers = helpers if helpers is not None else helpers_version()
        self.path = secret.folder / CACHE_NAME
        self.notes: list[str] = []
        self.hits = 0
        self._entries: dict[str, Mapping[str, Any]] | None = None
        self._checked: set[tuple[str, str]] = set()  # (file SHA-256, signature) already found good
        self._new: dict[str, dict[str, Any]] = {}
        self._refused = False
        self._foreign = False  # something not a regular file is where the cache goes: left alone

    @classmethod
    def open(cls, folder: str | Path | None, *, course: str) -> VerdictCache | None:
        """The cache in the trainer's folder, or ``None`` (with no line) where there is no secret yet.

        A secret that is there but refused (open to others, damaged) raises
        :class:`helpers.trainer.secret.TrainerSecretError`, as every use of it does.
        """
        if not os.path.lexists(trainer_dir(folder) / SECRET_NAME):
            return None
        return cls(TrainerSecret.open(folder), course)

    def _shown(self) -> str:
        return shown_path(self.path)

    # --- reading ---------------------------------------------------------------------------------

    def _read_disk(self) -> dict[str, Mapping[str, Any]]:
        """The entries in the file as it is now (unchecked); an unreadable cache is empty, with a line."""
        try:
            # O_NONBLOCK: a FIFO put where the cache goes must not hang the run (it is refused below)
            flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
            handle = os.open(self.path, flags | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            return {}
        except OSError as exc:
            self.notes.append(
                f"the verdict cache {self._shown()} cannot be read ({exc.strerror or type(exc).__name__}): "
                "every file is re-graded"
            )
            return {}
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            os.close(handle)
            self.notes.append(
                f"the verdict cache {self._shown()} is not a regular file (a FIFO, device or socket): "
                "it is neither read nor written, and every file is re-graded"
            )
            self._foreign = True
            return {}
        try:
            with os.fdopen(handle, "rb") as stream:
                raw = stream.read(_MAX_BYTES + 1)
        except OSError as exc:
            self.notes.append(
                f"the verdict cache {self._shown()} cannot be read ({exc.strerror or type(exc).__name__}): "
                "every file is re-graded"
            )
            return {}
        try:
            data = json.loads(raw) if len(raw) <= _MAX_BYTES else None
        except (UnicodeDecodeError, ValueError, RecursionError):
            data = None
        if data is None or schema_problem("verdict cache", data) is not None:
            self.notes.append(
                f"the verdict cache {self._shown()} is not a verdict cache (or it was damaged): "
                "it is not used, every file is re-graded, and it is written anew"
            )
            self._refused = True
            return {}
        entries: dict[str, Mapping[str, Any]] = data["entries"]
        return entries

    def _good(self, key: str, entry: Mapping[str, Any]) -> bool:
        """Whether ``entry`` (an object, as the cache's schema holds) is signed by this trainer for ``key``."""
        signature = entry.get("signature")
        if not isinstance(signature, Mapping) or not isinstance(signature.get("hmac"), str):
            return False
        mac = signature["hmac"]
        if entry.get("file_sha256") != key or signature.get("trainer") != self.secret.trainer_id:
            return False  # an entry filed under another file's bytes never stands for them
        if (key, mac) in self._checked:
            return True
        body = {k: v for k, v in entry.items() if k != "signature"}
        try:
            expected = self.secret.sign(_KIND, body)["hmac"]
        except (TypeError, ValueError):  # not JSON a signature could have been made over
            return False
        if not hmac.compare_digest(expected, mac):
            return False
        self._checked.add((key, mac))
        return True

    def _current(self, entry: Mapping[str, Any]) -> bool:
        return entry.get("course") == self.course and entry.get("helpers") == self.helpers

    def get(self, digest: str, *, shown: str = "") -> Mapping[str, Any] | None:
        """The summary kept for a file with this SHA-256, or ``None`` (a miss, or an entry refused)."""
        if self._entries is None:
            self._entries = self._read_disk()
        entry = self._entries.get(digest)
        if entry is None:
            return None
        if not self._good(digest, entry):
            self.notes.append(
                f"the verdict cache entry for {shown or digest[:16]} does not match its signature "
                "(it was changed, or written without this trainer's secret): it is not trusted, "
                "and the file is re-graded"
            )
            self._refused = True
            return None
        summary = entry.get("summary")
        if not self._current(entry) or not isinstance(summary, Mapping):
            return None
        self.hits += 1
        return summary

    # --- writing ---------------------------------------------------------------------------------

    def put(self, digest: str, summary: Mapping[str, Any]) -> None:
        """Keep ``summary`` for the file whose bytes have this SHA-256 (written by :meth:`save`)."""
        body = {
            "file_sha256": digest,
            "course": self.course,
            "helpers": self.helpers,
            "summary": dict(summary),
        }
        self._new[digest] = {**body, "signature": self.secret.sign(_KIND, body)}

    def save(self) -> None:
        """Write the new entries under the lock: the file as it is now, checked, plus this run's.

        Entries that are not signed by this trainer or are for another course or helpers
        version are dropped; at most :data:`MAX_ENTRIES` are kept. A cache that cannot be
        written is a line in :attr:`notes`, never an error.
        """
        if (not self._new and not self._refused) or self._foreign:
            return
        if sys.platform == "emscripten":  # the browser edition: no lock to keep two tabs apart
            return
        try:
            from filelock import FileLock, Timeout
        except ImportError:  # pragma: no cover - filelock is a pinned dependency
            self.notes.append("the verdict cache needs the filelock package; it was not written")
            return
        lock = FileLock(str(self.path) + ".lock", timeout=_WAIT_SECONDS, mode=0o600)
        try:
            with lock:
                quiet = VerdictCache(self.secret, self.course, self.helpers)
                quiet._checked = self._checked
                on_disk = quiet._read_disk()
                if quiet._foreign:  # put there since this run read it: left alone
                    self.notes.extend(quiet.notes)
                    return
                kept = {
                    key: entry
                    for key, entry in on_disk.items()
                    if key not in self._new and quiet._good(key, entry) and quiet._current(entry)
                }
                kept.update(self._new)
                entries = dict(list(kept.items())[-MAX_ENTRIES:])
                text = json.dumps(
                    {"format": CACHE_FORMAT, "version": _VERSION, "entries": entries},
                    ensure_ascii=True,
                    separators=(",", ":"),
                )
                if not os.path.lexists(self.path):
                    os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
                write_atomically(self.path, text.encode("ascii"), mode=0o600)
        except Timeout:
            self.notes.append(
                f"the verdict cache {self._shown()} is being written by another run "
                f"(waited {_WAIT_SECONDS:.0f} s); this run's verdicts were not kept"
            )
            return
        except OSError as exc:
            self.notes.append(
                f"the verdict cache {self._shown()} cannot be written "
                f"({exc.strerror or type(exc).__name__}); the next run re-grades these files again"
            )
            return
        self._entries = entries
        self._new = {}
        self._refused = False
