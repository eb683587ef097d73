"""The trainer's secret: the key that signs a check-out's key, its baseline and every graded result.

Everything a trainee holds can be written by the trainee, so a check-out is trusted
only when a secret the trainee never sees vouches for it. The first ``checkout issue``
makes one: 32 bytes from :mod:`secrets`, in a file only its owner may read
(mode 0600, in a folder of mode 0700), in the trainer's own place:
``--trainer-dir DIR``, else the platform's own place for settings (:func:`default_trainer_dir`:
``$XDG_CONFIG_HOME/eval-integrity-helpers/``, by default ``~/.config/eval-integrity-helpers/``, on Linux;
``platformdirs``' folder on macOS and Windows), never beside a paper. Standard-library
:mod:`hmac` with SHA-256 signs each key (with its baseline), each graded result and each
line of the ledger (:mod:`helpers.trainer.ledger`); :func:`hmac.compare_digest` checks
them. Each signature names the trainer by an id derived from the secret, so a file
signed with another trainer's secret is told apart from one that was changed.

A secret that is missing, unreadable, readable or writable by anyone but its owner, or
malformed is refused (:class:`TrainerSecretError`, exit status 2 on the command line).
Taught in ``07_checkout.ipynb``.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import stat
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers.core.error_root import HelpersError
from helpers.core.errors import CheckoutFileError, describe_value
from helpers.trainee.progress.paths import shown_path
from helpers.trainer.owner_only import FILE_MODE, owner_folder

__all__ = [
    "PROJECT_DIR",
    "SECRET_NAME",
    "SECRET_FORMAT",
    "TrainerSecretError",
    "TrainerSecret",
    "default_trainer_dir",
    "trainer_dir",
]

#: The trainer's folder under ``$XDG_CONFIG_HOME``.
PROJECT_DIR = "eval-integrity-helpers"
#: The secret's file name in the trainer's folder.
SECRET_NAME = "trainer-secret.json"
SECRET_FORMAT = "eval-integrity-trainer-secret"
_VERSION = 1
_MAX_SECRET_BYTES = 4096


class TrainerSecretError(HelpersError, ValueError):
    """The trainer's secret or ledger is missing, unreadable, open to others, malformed, or cannot be written.

    Nothing is issued or graded. Exit status 2 on the command line. Taught in ``07_checkout.ipynb``.
    """

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(f"{path}: {message}")
        self.message = message
        self.path = path


def default_trainer_dir(env: Mapping[str, str] | None = None, *, platform: str | None = None) -> Path:
    """The trainer's folder in the platform's own place for settings.

    On Linux and other XDG systems (and the browser edition): ``$XDG_CONFIG_HOME/eval-integrity-helpers``
    (an absolute ``XDG_CONFIG_HOME`` only), else ``~/.config/…``. On macOS and Windows: the folder
    ``platformdirs`` names (``~/Library/Application Support/…``, ``%APPDATA%\\…``), unless the
    ``~/.config/…`` folder of earlier versions already exists, which is still used.
    ``platformdirs`` is imported only there, so no other platform needs it.
    """
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    base = env.get("XDG_CONFIG_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".config"
    xdg = root / PROJECT_DIR
    if platform not in ("darwin", "win32") or xdg.is_dir():
        return xdg
    try:
        from platformdirs import user_config_path
    except ImportError:
        raise TrainerSecretError(
            "finding the trainer's folder here needs the platformdirs package (pip install platformdirs), "
            "or name one with --trainer-dir",
            path=str(xdg),
        ) from None
    return user_config_path(PROJECT_DIR, appauthor=False, roaming=True)


def trainer_dir(explicit: str | Path | None = None) -> Path:
    """The trainer's folder: ``explicit`` (``--trainer-dir``) if given, else :func:`default_trainer_dir`."""
    return Path(explicit).expanduser() if explicit is not None else default_trainer_dir()


def _canonical(kind: str, data: Any) -> bytes:
    body = json.dumps(data, sort_keys=True, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return f"eval-integrity-helpers/{kind}/v1\n".encode() + body.encode("ascii")


@dataclass(frozen=True)
class TrainerSecret:
    """A trainer's secret, read from (or made in) the trainer's folder. Taught in ``07_checkout.ipynb``."""

    folder: Path
    key: bytes

    @property
    def trainer_id(self) -> str:
        """A public id for this secret (16 hex digits), named in every signature it makes."""
        return hashlib.sha256(b"trainer-id\n" + self.key).hexdigest()[:16]

    @property
    def path(self) -> Path:
        """The secret's file."""
        return self.folder / SECRET_NAME

    # --- reading and making ------------------------------------------------------------------

    @classmethod
    def open(cls, folder: str | Path | None = None, *, create: bool = False) -> TrainerSecret:
        """The secret in ``folder`` (default :func:`default_trainer_dir`); with ``create``, made if absent."""
        folder = trainer_dir(folder)
        path = folder / SECRET_NAME
        if create and not os.path.lexists(path):
            cls._make(folder)
        return cls(folder, cls._read(path))

    @staticmethod
    def _make(folder: Path) -> None:
        where = shown_path(folder / SECRET_NAME)
        try:
            owner_folder(folder)  # 0700 whatever the umask, and any folder made above it
            key = secrets.token_bytes(32)
            text = json.dumps({"format": SECRET_FORMAT, "version": _VERSION, "secret": key.hex()}) + "\n"
            handle, tmp = tempfile.mkstemp(dir=folder, prefix=".trainer-secret.", suffix=".tmp")  # mode 0600
            try:
                os.fchmod(handle, FILE_MODE)
                with os.fdopen(handle, "w", encoding="ascii") as stream:
                    stream.write(text)
                    stream.flush()
                    os.fsync(stream.fileno())
                with contextlib.suppress(FileExistsError):  # another first issue made it: that one stands
                    if hasattr(os, "link"):
                        os.link(tmp, folder / SECRET_NAME)
                    else:  # no hard links (the browser edition): create it exclusively, owner-only
                        target = os.open(folder / SECRET_NAME, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                        with os.fdopen(target, "w", encoding="ascii") as stream:
                            stream.write(text)
                            stream.flush()
                            os.fsync(stream.fileno())
            finally:
                Path(tmp).unlink(missing_ok=True)
        except OSError as exc:
            raise TrainerSecretError(
                f"the trainer's secret cannot be made ({exc.strerror or type(exc).__name__}); "
                "choose a folder of your own with --trainer-dir",
                path=where,
            ) from None

    @staticmethod
    def _read(path: Path) -> bytes:
        where = shown_path(path)
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        try:
            handle = os.open(path, flags)
        except FileNotFoundError:
            raise TrainerSecretError(
                "no trainer's secret here: issue a paper first (checkout issue), "
                "or name the trainer's folder with --trainer-dir",
                path=where,
            ) from None
        except OSError as exc:
            raise TrainerSecretError(
                f"the trainer's secret cannot be read ({exc.strerror or type(exc).__name__})", path=where
            ) from None
        try:
            info = os.fstat(handle)
            if not stat.S_ISREG(info.st_mode):
                raise TrainerSecretError("the trainer's secret is not a regular file", path=where)
            if hasattr(os, "getuid") and info.st_uid != os.getuid():
                raise TrainerSecretError("the trainer's secret belongs to another user", path=where)
            if info.st_mode & 0o077:
                raise TrainerSecretError(
                    f"the trainer's secret is open to others (mode {stat.S_IMODE(info.st_mode):04o}); "
                    "it may be known, so nothing is signed with it: make it owner-only (chmod 600) "
                    "if no one else has read it, else start a new trainer's folder",
                    path=where,
                )
            raw = os.read(handle, _MAX_SECRET_BYTES + 1)
        except OSError as exc:
            raise TrainerSecretError(
                f"the trainer's secret cannot be read ({exc.strerror or type(exc).__name__})", path=where
            ) from None
        finally:
            os.close(handle)
        try:
            data = json.loads(raw.decode("ascii")) if len(raw) <= _MAX_SECRET_BYTES else None
        except (UnicodeDecodeError, ValueError):
            data = None
        key = data.get("secret") if isinstance(data, dict) and data.get("format") == SECRET_FORMAT else None
        try:
            value = bytes.fromhex(key) if isinstance(key, str) and len(key) == 64 else b""
        except ValueError:
            value = b""
        if not value or data.get("version") != _VERSION:  # type: ignore[union-attr]
            raise TrainerSecretError("is not a trainer's secret (or it was damaged)", path=where)
        return value

    # --- signing ---------------------------------------------------------------------------------

    def sign(self, kind: str, data: Any) -> dict[str, str]:
        """The signature of ``data`` as a ``kind`` (``"key"``, ``"result"``, ``"ledger"``): trainer id and HMAC."""
        mac = hmac.new(self.key, _canonical(kind, data), hashlib.sha256).hexdigest()
        return {"trainer": self.trainer_id, "hmac": mac}

    def signed(self, kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """``data`` with its ``"signature"``."""
        body = {k: v for k, v in data.items() if k != "signature"}
        return {**body, "signature": self.sign(kind, body)}

    def verify(self, kind: str, data: Any, signature: Any, *, source: str, extra: Any = None) -> None:
        """Refuse (:class:`CheckoutFileError`) unless ``signature`` is this trainer's over ``data``.

        ``extra`` is signed alongside ``data`` (a key's baseline digests).
        """
        what = {"key": "key", "result": "graded result"}.get(kind, kind)
        if not isinstance(signature, Mapping) or not all(
            isinstance(signature.get(name), str) for name in ("trainer", "hmac")
        ):
            raise CheckoutFileError(
                f"is not signed by a trainer (it has no valid signature), so this {what} is not trusted",
                path=source,
            )
        if signature["trainer"] != self.trainer_id:
            raise CheckoutFileError(
                f"was signed by another trainer ({describe_value(signature['trainer'])}), not by the secret "
                f"in {shown_path(self.folder)} ({self.trainer_id}); nothing is trusted across trainers",
                path=source,
            )
        payload = data if extra is None else {"data": data, "with": extra}
        try:
            expected = self.sign(kind, payload)["hmac"]
        except (TypeError, ValueError) as exc:  # a number JSON cannot hold (1e999), which no signing covers
            raise CheckoutFileError(
                f"holds a value no signature can cover ({describe_value(str(exc))}), so this {what} is not trusted",
                path=source,
            ) from None
        if not hmac.compare_digest(expected, signature["hmac"]):
            raise CheckoutFileError(
                f"its signature does not match: this {what} was changed after the trainer signed it, "
                "or written without the trainer's secret",
                path=source,
            )

    def sign_with(self, kind: str, data: Any, extra: Any) -> dict[str, str]:
        """The signature of ``data`` together with ``extra`` (checked by :meth:`verify` with ``extra``)."""
        return self.sign(kind, {"data": data, "with": extra})
