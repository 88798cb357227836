"""The database's lock: one Store that writes at a time, and the pid of the one that does.

``PATH/lock`` is held with the operating system's exclusive lock of an open file
(:class:`Locking`: ``flock`` on Linux and macOS, ``LockFileEx`` on Windows, both through the
filelock library) while a Store that writes is open; it holds the holder's pid, for the
message of the next one. A read-only store never touches it. A directory where the lock
file should be is no lock anybody holds: it is moved aside (see :func:`_dir_aside`).

Windows's lock is of the file's first byte, and keeps every other process from reading
that byte: so the file holds a space, then the pid (``" 4242"``), and the pid is read from
the second byte where the first cannot be read.
"""

from __future__ import annotations

import datetime as _dt
import errno
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

from scorekeeper import system
from scorekeeper.store.errors import StoreError, StoreLockedError, reason
from scorekeeper.store.layout import LOCK
from scorekeeper.store.storage import fsync_dir

#: How often (seconds) the lock is tried while another Store holds it.
LOCK_POLL = 0.05

#: Where no directory can be opened (Windows), the file held while a directory found where the
#: lock file should be is moved aside (made only then, and left in place: it is empty).
ASIDE_LOCK = "lock.aside"

_FLAGS = os.O_RDWR | os.O_CREAT | system.O_BINARY | system.O_CLOEXEC


class Locking:
    """How a lock file is held by one Store at a time: the one seam between the lock and the
    platform. Here, the operating system's exclusive lock of an open file, through the
    filelock library's ``lock_descriptor`` (``flock`` on Linux and macOS, ``LockFileEx`` of
    the first byte on Windows), never waited on, let go when the descriptor closes (so when
    the process dies). filelock is imported when a store that writes first takes its lock,
    not before (a read-only store, ``scorekeeper score`` and the engines never need it). A
    platform where the system's lock does not exclude anybody puts its own in place with
    :func:`use_locking` (the browser, where every tab is a process of its own with pid 42: a
    Web Lock, see :mod:`scorekeeper.site.disk`)."""

    def try_lock(self, fd: int) -> bool:
        """Take the lock of the open file ``fd`` if nobody holds it: True when taken."""
        from filelock import lock_descriptor

        return lock_descriptor(fd, blocking=False)

    def unlock(self, fd: int) -> None:
        """Let the lock of ``fd`` go (an OSError: closing ``fd`` lets it go all the same)."""
        from filelock import unlock_descriptor

        unlock_descriptor(fd)

    def busy(self, path: Path, holder: str) -> str:
        """Why the store at ``path`` cannot be opened: ``holder`` (a pid, or empty) has it."""
        return f"the database {path} is in use by another Scorekeeper (pid {holder or 'unknown'}); close that one first"


_locking = Locking()


def use_locking(locking: Locking) -> Locking:
    """Make ``locking`` the one this process's stores use; returns the one it replaces."""
    global _locking
    previous, _locking = _locking, locking
    return previous


class Lock:
    """The exclusive lock of the database directory ``path``, taken by :meth:`take`,
    let go by :meth:`release` (or when the process ends)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def take(cls, path: Path, wait: float, note: Callable[[str], None]) -> Lock:
        """Take the lock of ``path``, waiting up to ``wait`` seconds for another Store to let
        it go; a Store of this very process holding it is refused at once (waiting could not
        help). ``note``: how a problem met on the way (a directory moved aside) is reported."""
        lock = path / LOCK
        try:
            fd = os.open(lock, _FLAGS, 0o644)
        except OSError:  # a directory (Windows says "permission denied"): no Scorekeeper locks one
            if not _is_dir(lock):
                raise
            _dir_aside(path, lock, wait, note)
            fd = os.open(lock, _FLAGS, 0o644)
        try:
            deadline = time.monotonic() + wait
            while not _locking.try_lock(fd):
                holder = _holder(fd)
                left = deadline - time.monotonic()
                if left <= 0 or holder == str(os.getpid()):
                    raise StoreLockedError(_locking.busy(path, holder)) from None
                time.sleep(min(LOCK_POLL, left))
        except BaseException:
            os.close(fd)
            raise
        pid = b" " + str(os.getpid()).encode()
        try:  # who holds it, for the message of the next one: not worth failing over (a full disk)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, pid)
            os.ftruncate(fd, len(pid))
        except OSError:
            try:
                os.ftruncate(fd, 0)  # at least no other process's pid
            except OSError:
                pass
        return cls(path, fd)

    def release(self) -> None:
        """Let the lock go (again: nothing)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            _locking.unlock(fd)
        except OSError:
            pass  # closing the descriptor lets the lock go all the same
        try:
            os.close(fd)
        except OSError:
            pass  # the descriptor is closed even when close reports an error (Linux, POSIX.1-2024)


def _holder(fd: int) -> str:
    """The pid the lock file names (empty if it names none): read from the first byte on, or
    from the second where the holder's lock keeps the first from being read (Windows)."""
    for start in (0, 1):
        try:
            os.lseek(fd, start, os.SEEK_SET)
            return os.read(fd, 32).decode("ascii", "replace").strip()
        except OSError:
            continue
    return ""


def _is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _dir_aside(path: Path, lock: Path, wait: float, note: Callable[[str], None]) -> None:
    """A directory where the lock file should be is no lock anybody holds (no version of
    Scorekeeper makes one): an empty one is removed, any other moved aside to
    ``lock.corrupt-<timestamp>`` (nothing in it is deleted), and the lock file is made
    anew. Done under a lock of the database directory (of :data:`ASIDE_LOCK` where a
    directory cannot be opened), which only this takes, and only while ``lock`` is still a
    directory: two Scorekeepers starting at once move it once, and neither ever moves the
    other's lock file."""
    if system.can_open_directories():
        dfd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | system.O_CLOEXEC)
    else:
        dfd = os.open(path / ASIDE_LOCK, _FLAGS, 0o644)
    try:
        deadline = time.monotonic() + max(wait, 1.0)
        while not _locking.try_lock(dfd):
            if time.monotonic() >= deadline:
                raise StoreLockedError(
                    f"the database {path} is in use by another Scorekeeper (its lock file is being made anew); try again"
                ) from None
            time.sleep(LOCK_POLL)
        if not _is_dir(lock):
            return  # made anew by another Scorekeeper meanwhile
        try:
            os.rmdir(lock)
            done = "removed (it was empty)"
        except OSError as e:
            if e.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                raise _unusable(path, lock, e) from e
            stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
            aside = lock.with_name(f"lock.corrupt-{stamp}")
            try:
                os.rename(lock, aside)
            except OSError as e2:
                raise _unusable(path, lock, e2) from e2
            done = f"moved aside to {aside.name}"
        try:
            fsync_dir(path)
        except OSError:
            pass  # a power cut may bring the directory back: it is then moved aside again
        note(f"the lock file {lock.name} was a directory, not a lock anybody holds; it was {done}")
    finally:
        os.close(dfd)  # lets the directory's lock go


def _unusable(path: Path, lock: Path, e: OSError) -> StoreError:
    return StoreError(
        f"cannot open the database {path}: its lock file {lock} is a directory that could not be "
        f"moved aside ({reason(e)}); no Scorekeeper holds it: remove it and start again"
    )
