"""Standard output of the ``scorekeeper`` commands (``cli.py`` and ``eventcli.py``): a stream
whose failure to be written (closed, a full disk, a reader gone) is an :class:`OutputError`
the command reports in one line, never a traceback; and text written as UTF-8 bytes
whatever the locale."""

from __future__ import annotations

import errno
import io
import os
import sys
from typing import Any, NoReturn, cast

__all__ = [
    "EXIT_OUTPUT",
    "Guard",
    "OutputError",
    "check_output",
    "closed_stdout",
    "guarded",
    "output_failed",
    "write_utf8",
]

#: Standard output could not be written (closed, or its disk full): what was asked may not have reached anyone.
EXIT_OUTPUT = 1


class OutputError(Exception):
    """Standard output could not be written: closed, full, or its reader gone. Not an
    OSError, so that nothing on its way (argparse drops OSErrors) can hide it, and no
    handler takes it for a failure of the database."""

    def __init__(self, error: OSError | None, note: str | None = None) -> None:
        self.error = error  # None: it was closed when the command started
        why = "it is closed" if error is None or error.errno == errno.EBADF else (error.strerror or str(error))
        super().__init__(f"standard output: cannot be written ({why})" + (f"; {note}" if note else ""))

    def noting(self, note: str) -> OutputError:
        """The same failure, with what became of the command's work said after it."""
        return OutputError(self.error, note)

    @property
    def reader_gone(self) -> bool:
        """The reader went away (``... | head``): it has what it wanted, this is not a failure."""
        return isinstance(self.error, BrokenPipeError)


class Guard(io.BufferedIOBase):
    """The bytes of standard output while a command runs, on their way to the real one's
    buffer (``out``; None: it was closed when the process started). A failure to write or
    flush them is an :class:`OutputError`; after one, what is still written is dropped,
    and the real standard output is /dev/null (see :meth:`quiet`), so that nothing fails
    again -- not even Python's flush at exit."""

    def __init__(self, out: Any) -> None:
        super().__init__()
        self.out = out
        self.failed = False

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self.failed:
            return len(data)
        if self.out is None:
            self._fail(None)
        try:
            return int(self.out.write(data))
        except OSError as e:
            self._fail(e)

    def flush(self) -> None:
        if self.failed or self.out is None:
            return  # nothing written yet: a command that prints nothing (the app) does not fail
        try:
            self.out.flush()
        except OSError as e:
            self._fail(e)

    def _fail(self, e: OSError | None) -> NoReturn:
        self.failed = True
        raise OutputError(e) from None

    def fileno(self) -> int:
        if self.out is None:
            raise io.UnsupportedOperation("standard output is closed")
        return int(self.out.fileno())

    def isatty(self) -> bool:
        return self.out is not None and bool(self.out.isatty())

    def quiet(self) -> None:
        """Drop what is still written, and point the real standard output at /dev/null:
        what is left in its buffer then goes nowhere at Python's exit, without another
        failure (the recipe of Python's docs on SIGPIPE)."""
        self.failed = True
        if self.out is None:
            return
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, self.out.fileno())
            finally:
                os.close(devnull)
        except (OSError, ValueError):  # no file descriptor (an in-process stream): nothing is left at exit
            pass


def guarded(real: Any) -> tuple[Any, Guard | None]:
    """Standard output for a command: a text stream like ``real`` (its encoding, errors,
    buffering) whose bytes go through a :class:`Guard`, and the guard. A stream without
    bytes under it (an in-process text stream) is used as it is."""
    if real is None:
        closed_stdout()
        guard = Guard(None)
        return io.TextIOWrapper(cast(Any, guard), encoding="utf-8", newline="\n"), guard
    out = getattr(real, "buffer", None)
    if out is None:
        return real, None
    try:
        real.flush()  # what was printed before goes first
    except (OSError, ValueError):
        pass  # the command's first write says so
    guard = Guard(out)
    text = io.TextIOWrapper(
        cast(Any, guard),
        encoding=getattr(real, "encoding", None) or "utf-8",
        errors=getattr(real, "errors", None) or "strict",
        newline="\n",
        line_buffering=bool(getattr(real, "line_buffering", False)),
        write_through=bool(getattr(real, "write_through", False)),
    )
    return text, guard


def check_output(note: str) -> None:
    """Refuse at once, before anything is changed, when standard output was closed from the start."""
    guard = getattr(sys.stdout, "buffer", None)
    if isinstance(guard, Guard) and guard.out is None:
        raise OutputError(None, note)


def closed_stdout() -> None:
    """Standard output was closed when Python started: its descriptor is given /dev/null,
    so that no file the command opens takes its place (and is written to by mistake)."""
    try:
        os.fstat(1)
        return  # open after all (an in-process run)
    except OSError:
        pass
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        if fd != 1:
            os.dup2(fd, 1)
            os.close(fd)
    except OSError:
        pass


def output_failed(guard: Guard | None, e: OutputError) -> int:
    """The end of a command whose standard output could not be written."""
    if guard is not None:
        guard.quiet()
    if e.reader_gone:
        return 0
    print(f"error: {e}", file=sys.stderr)
    return EXIT_OUTPUT


def write_utf8(text: str) -> None:
    """Write to standard output as UTF-8 bytes, whatever the locale, with the line ends as they are."""
    out = getattr(sys.stdout, "buffer", None)
    if out is None:  # an in-process text stream
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    out.write(text.encode("utf-8", "backslashreplace"))
