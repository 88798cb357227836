"""The store's errors.

A StoreError that the disk caused says it twice: ``str(e)`` is the whole line for the
command line and the logs (what could not be done, the file, the system's words, the
errno's name), and :attr:`StoreError.plain` is the line for the people at the table,
without the server's paths, in plain words, ending with what it means for their match:

>>> import errno
>>> e = StoreError("match X could not be saved (...)", plain=plain_line("save", OSError(errno.EMFILE, "x")))
>>> e.plain
'could not save: too many open files (the server is overloaded); nothing was changed'
>>> StoreError("there is nothing to redo").plain
'there is nothing to redo'
"""

from __future__ import annotations

import errno
import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from scorekeeper.errors import ScorekeeperError, StoreError

__all__ = ["PLAIN_WORDS", "StoreError", "StoreLockedError", "message_of", "plain_line", "plain_words"]

#: What an errno means, said to the people at the table.
PLAIN_WORDS = {
    errno.EMFILE: "too many open files (the server is overloaded)",
    errno.ENFILE: "too many open files (the server is overloaded)",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EIO: "the disk failed to read or write (an input/output error)",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the disk is read-only",
    errno.ENOMEM: "the server is out of memory",
    errno.ESTALE: "the network disk is not answering",
    errno.ETIMEDOUT: "the network disk is not answering",
}


def plain_words(e: OSError) -> str:
    """What went wrong, in plain words (no path, no errno name)."""
    if isinstance(e.errno, int) and e.errno in PLAIN_WORDS:
        return PLAIN_WORDS[e.errno]
    words = e.strerror or (os.strerror(e.errno) if isinstance(e.errno, int) else "") or type(e).__name__
    return words[:1].lower() + words[1:]


def shown(name: str) -> str:
    """A file name as a one-line message shows it (quoted when it holds odd characters)."""
    return name if name.isprintable() else repr(name)


def reason(e: OSError) -> str:
    """An OSError as a message says it, losing nothing: the file, the system's words, the errno's name."""
    what = e.strerror or str(e) or type(e).__name__
    name = errno.errorcode.get(e.errno) if isinstance(e.errno, int) else None
    if name:
        what = f"{what} ({name})"
    if e.filename is not None:
        where = shown(os.fsdecode(e.filename)) if isinstance(e.filename, (str, bytes, os.PathLike)) else str(e.filename)
        if e.filename2 is not None:
            where += f" -> {shown(os.fsdecode(e.filename2))}"
        what = f"{where}: {what}"
    return what


def plain_line(doing: str, e: OSError, outcome: str | None = "nothing was changed") -> str:
    """``could not DOING: WHAT WENT WRONG; OUTCOME``."""
    line = f"could not {doing}: {plain_words(e)}"
    return f"{line}; {outcome}" if outcome else line


class StoreLockedError(StoreError):
    """Another Scorekeeper has the database open."""


def message_of(e: ScorekeeperError) -> str:
    """An error as the app's screens show it: the store's trouble with the disk in plain
    words, without the server's paths, saying what it means for the match
    (:attr:`StoreError.plain`); any other error as it is."""
    return e.plain if isinstance(e, StoreError) else str(e)


class _HasPath(Protocol):
    path: Path


_S = TypeVar("_S", bound=_HasPath)
_P = ParamSpec("_P")
_R = TypeVar("_R")


def os_errors(
    doing: str, plain: str, outcome: str | None = "nothing was changed"
) -> Callable[[Callable[Concatenate[_S, _P], _R]], Callable[Concatenate[_S, _P], _R]]:
    """A public method of the store (of anything with a ``path``) whose OSErrors reach the caller as StoreErrors ("cannot DOING
    ...; OUTCOME"; for people: "could not PLAIN: what went wrong; OUTCOME")."""

    def wrap(method: Callable[Concatenate[_S, _P], _R]) -> Callable[Concatenate[_S, _P], _R]:
        @functools.wraps(method)
        def wrapped(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
            try:
                return method(self, *args, **kwargs)
            except OSError as e:
                end = f"; {outcome}" if outcome else ""
                raise StoreError(
                    f"cannot {doing} in {self.path}: {reason(e)}{end}", plain=plain_line(plain, e, outcome)
                ) from e

        return wrapped

    return wrap
