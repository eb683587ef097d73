"""Where the command line reads and writes: every byte of output goes through a :class:`_Sink`,
gathered and written about 64 KiB at a time, and any failure to write (a full disk, a closed
descriptor, a reader that closed the pipe early) is raised as :class:`_OutputFailed`, which
:func:`~helpers.cli.main` turns into exit status 2 and one line; standard error is a
:class:`_TextSink`, which remembers a failure instead of raising it. Here too are the run's standard
streams (``_STDOUT``, ``_STDERR``, ``_STDIN_CLOSED``, set up by :func:`_claim_standard_streams`),
standard input left open (:class:`_Unclosed`), writing a text file
(exit status 2 when it cannot be), ``--results FILE`` opened as a sink, and Ctrl-C held back while
that file is set up.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import IO, TYPE_CHECKING, Any

from helpers.core.errors import HelpersError
from helpers.core.outcomes import EXIT_PASS, EXIT_USAGE

if TYPE_CHECKING:
    from helpers.core.files import PendingFile


class _Unclosed:
    """Standard input for reading, left open when the run closes its input."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.read = getattr(stream, "read1", stream.read)

    def fileno(self) -> int:
        return self.stream.fileno()

    def tell(self) -> int:
        """Where a regular file given as standard input is read from (so it can be split over
        two cores); ``OSError`` for a pipe."""
        return self.stream.tell()

    def __iter__(self) -> Any:
        return iter(self.stream)

    def close(self) -> None:
        pass


def _open_results(path: str) -> Any:
    """``--results FILE`` opened for writing, as a :class:`_Sink` (its errors exit 2).

    A regular file (or a new one) is written beside its place and takes it only when
    the run finishes (:class:`~helpers.core.files.PendingFile`), so an interrupted or
    failed run never leaves a partial file; a device or a pipe is written as it goes.
    """
    from helpers.core.files import PendingFile

    target = os.path.realpath(path)
    try:
        regular = stat.S_ISREG(os.stat(target).st_mode)
    except FileNotFoundError:
        regular = True
    if not regular:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        return _Sink(fd, path, owned=True)
    pending = PendingFile(target)
    return _Sink(pending.fd, path, pending=pending)


def _hold_ctrl_c() -> Any:
    """Hold back Ctrl-C (SIGINT) by noting it; returns what :func:`_release_ctrl_c` restores.

    A handler that only notes the signal works whichever thread the signal lands on;
    outside the main thread no handler can be set, and ``None`` holds nothing back.
    """
    import signal

    came: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda number, _frame: came.append(number))
    except ValueError:
        return None
    return previous, came


def _release_ctrl_c(held: Any) -> None:
    """Restore the SIGINT handler; a Ctrl-C that came meanwhile is handled now, as it would have been."""
    if held is None:
        return
    import signal

    previous, came = held
    signal.signal(signal.SIGINT, previous)
    if came:
        if callable(previous):
            previous(signal.SIGINT, None)  # the default handler raises KeyboardInterrupt
        elif previous == signal.SIG_DFL:
            os.kill(os.getpid(), signal.SIGINT)


def _write_text(text: str, output: str | None, command: str) -> int:
    """Write ``text`` to ``output`` (or standard output); an unwritable path exits 2."""
    if output is None:
        _STDOUT.write(text.encode("utf-8"))
        return EXIT_PASS
    try:
        with open(output, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as exc:
        _STDERR.write(f"python -m helpers {command}: cannot write {output}: {exc.strerror}\n")
        return EXIT_USAGE
    return EXIT_PASS


def _write_new_text(text: str, output: str, command: str, *, force: bool) -> int:
    """Write ``text`` to a new file ``output`` atomically; an existing one is replaced only with ``force``."""
    from helpers.core.files import write_atomically

    try:
        write_atomically(output, text, replace=force)
    except FileExistsError:
        _STDERR.write(
            f"python -m helpers {command}: {output} already exists; it was not replaced (--force replaces it)\n"
        )
        return EXIT_USAGE
    except OSError as exc:
        _STDERR.write(
            f"python -m helpers {command}: cannot write {output}: {exc.strerror}; it is as it was\n"
        )
        return EXIT_USAGE
    return EXIT_PASS


class _OutputFailed(HelpersError):
    """Writing to an output failed; ``error`` is the ``OSError``, or ``None`` if it was closed."""

    def __init__(self, name: str, error: OSError | None) -> None:
        super().__init__(name)
        self.name = name
        self.error = error

    def line(self) -> str:
        """The one line that explains it, for standard error."""
        if self.name == "standard output" and isinstance(self.error, BrokenPipeError):
            return "python -m helpers: output closed early; not every line was written\n"
        why = "it is closed" if self.error is None else (self.error.strerror or str(self.error))
        return f"python -m helpers: cannot write {self.name}: {why}; not every line was written\n"


class _Sink:
    """Binary output to one file descriptor, gathered and written about 64 KiB at a time.

    The one place the command line writes: no system call per line, and any
    failure (a full disk, a closed pipe, a closed descriptor) is raised as
    :class:`_OutputFailed`, which :func:`~helpers.cli.main` turns into exit status 2.
    """

    LIMIT = 1 << 16

    def __init__(
        self,
        fd: int,
        name: str,
        *,
        usable: bool = True,
        owned: bool = False,
        file: Any = None,
        pending: PendingFile | None = None,
    ) -> None:
        self.fd = fd
        self.pending = pending  # owns ``fd``: the file takes its place on close, is removed on discard
        self.file = file  # a replaced sys.stdout's binary buffer, written instead of ``fd``
        self.name = name
        self.usable = usable
        self.owned = owned
        self.parts: list[bytes] = []
        self.size = 0

    def write(self, data: bytes) -> None:
        self.parts.append(data)
        self.size += len(data)
        if self.size >= self.LIMIT:
            self.flush()

    def flush(self) -> None:
        if not self.parts:
            return
        data = self.parts[0] if len(self.parts) == 1 else b"".join(self.parts)
        self.parts = []
        self.size = 0
        if not self.usable:
            raise _OutputFailed(self.name, None)
        if self.file is not None:
            try:
                self.file.write(data)
                self.file.flush()
            except OSError as exc:
                self.usable = False
                raise _OutputFailed(self.name, exc) from None
            return
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd, view)
            except OSError as exc:
                self.usable = False
                raise _OutputFailed(self.name, exc) from None
            view = view[written:]

    def close(self) -> None:
        """Write what is left and close (an owned descriptor); errors raise :class:`_OutputFailed`."""
        self.flush()
        if self.pending is not None:
            try:
                self.pending.commit()
            except OSError as exc:
                raise _OutputFailed(self.name, exc) from None
            self.fd, self.pending = -1, None
            return
        if self.owned and self.fd >= 0:
            fd, self.fd = self.fd, -1
            try:
                os.close(fd)
            except OSError as exc:
                raise _OutputFailed(self.name, exc) from None

    def discard(self) -> None:
        """Drop what is left unwritten and close, quietly (after a failure)."""
        self.parts = []
        self.size = 0
        if self.pending is not None:
            self.pending.abort()
            self.fd, self.pending = -1, None
            return
        if self.owned and self.fd >= 0:
            fd, self.fd = self.fd, -1
            try:
                os.close(fd)
            except OSError:
                return


class _TextSink:
    """Standard error as text; a failure to write it is remembered, never raised."""

    def __init__(self, sink: _Sink) -> None:
        self.sink = sink
        self.failed = False

    def write(self, text: str) -> int:
        try:
            self.sink.write(text.encode("utf-8", "backslashreplace"))
        except _OutputFailed:
            self.failed = True
        return len(text)

    def flush(self) -> None:
        try:
            self.sink.flush()
        except _OutputFailed:
            self.failed = True


def _claim(fd: int) -> bool:
    """True if ``fd`` is open; otherwise hold it with ``/dev/null`` (so no file opened later gets it)."""
    try:
        os.fstat(fd)
        return True
    except OSError:
        pass
    try:
        got = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
    except OSError:
        return False
    if got != fd:
        os.dup2(got, fd)
        os.close(got)
    return False


def _silence(fd: int) -> None:
    """Point ``fd`` at ``/dev/null``, so Python's own flush at exit cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:
        pass


def _replaced(stream: Any, original: Any) -> Any:
    """The binary buffer of ``sys.stdout``/``sys.stderr`` when a caller replaced it, else ``None``."""
    if stream is None or stream is original:
        return None
    buffer = getattr(stream, "buffer", None)
    return buffer if buffer is not None else _TextWriter(stream)


class _TextWriter:
    """Bytes written to a text stream (such as a test's ``io.StringIO``)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, data: bytes) -> None:
        self.stream.write(data.decode("utf-8", "backslashreplace"))

    def flush(self) -> None:
        self.stream.flush()


#: True when the run is the process's last act (``python -m helpers``): see
#: :func:`helpers.cli.run.end_process`.
_ENDS_PROCESS = False

#: The run's standard streams, set up afresh by :func:`_claim_standard_streams` as each run starts.
#: Other modules read them here at call time, as ``streams._STDOUT``: a name imported from here
#: would keep the streams of the moment it was imported.
_STDIN_CLOSED = False
_STDOUT = _Sink(1, "standard output")
_STDERR = _TextSink(_Sink(2, "standard error"))


def _claim_standard_streams() -> None:
    """Set up one run's standard streams; a closed descriptor (0, 1 or 2) is held with ``/dev/null``."""
    global _STDIN_CLOSED, _STDOUT, _STDERR
    _STDIN_CLOSED = not _claim(0) or sys.stdin is None
    _STDOUT = _Sink(1, "standard output", usable=_claim(1), file=_replaced(sys.stdout, sys.__stdout__))
    _STDERR = _TextSink(
        _Sink(2, "standard error", usable=_claim(2), file=_replaced(sys.stderr, sys.__stderr__))
    )
