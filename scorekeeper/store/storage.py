"""Durable file writes, and the TinyDB ``Storage`` built on them: every change the
store makes to its directory -- a file written, a damaged file moved aside, a match
file removed -- goes through this module.

TinyDB's own ``JSONStorage`` rewrites its file in place: a crash in the middle
leaves a torn file that cannot be opened (TinyDB issue 467). Here every write
goes to a temporary file beside the target, is flushed to the disk
(``fsync``), and replaces the target with ``os.replace`` -- atomic on POSIX and on
Windows -- after which the directory is fsynced too, so the rename itself survives a
power cut. A reader sees the old file or the new one, never a mix. Windows has no
``fsync`` of a directory (:class:`Disk`), and another program there (an antivirus, the
search indexer) may hold the target open for a moment: the replace is then tried
again for about a second (:func:`replace`).

The store holds an exclusive lock on its directory, so nobody else writes
these files while it is open: :class:`AtomicJSONStorage` keeps the last state
it read or wrote in memory and TinyDB's read-before-every-write costs nothing.

A read-only store takes no lock and reads while a writer may replace any file:
it reads each file once through :func:`read_tables`, whose stat is that of the
very file it read (an open file keeps its inode when the name is replaced), and
ignores the temporary files (``.<name>.tmp-<pid>``) of a write in flight.

Every read opens the file without blocking and reads it only if it is a regular
file: a FIFO, a directory, a socket or a device where a file should be is a
:class:`CorruptFileError` (opening a FIFO to read would wait for a writer forever).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import stat
import time
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from scorekeeper import system
from scorekeeper.store.errors import StoreError

TEMP_MARK = ".tmp-"

#: Seconds waited before each new try of a replace Windows refused (about a second in all):
#: an antivirus or the search indexer opens a new file for a moment, and while it holds it
#: Windows refuses to replace it (PermissionError).
REPLACE_PAUSES = (0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.2, 0.3)


class CorruptFileError(Exception):
    """A file that exists but does not hold what it should (internal to the store)."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.path = path
        self.why = why


class NotDurableError(OSError):
    """The new file replaced the target, but the directory could not be synced: the
    change is visible and may not survive a power cut (``filename``: the directory)."""


class Disk:
    """What makes a directory's entries (a rename, a new file, a removal) durable: the one
    seam between the store and the platform's durability. Here, a POSIX disk: ``fsync`` of
    the directory. Windows cannot open a directory as a file, so it has no such ``fsync``
    (``os.O_DIRECTORY``): nothing is done there (NTFS journals the rename, which is whole or
    not done, but it may not be on the disk yet when a power cut comes). A platform whose
    files live in memory until they are copied elsewhere puts its own in place with
    :func:`use_disk` (the browser: Pyodide's file system, copied into IndexedDB, see
    :mod:`scorekeeper.site.disk`). Every durable change of the store ends here:
    :func:`atomic_write`, :func:`remove`, a new directory, an import taken back."""

    def sync_dir(self, path: Path) -> None:
        if not system.can_open_directories():
            return
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | system.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


_disk = Disk()


def use_disk(disk: Disk) -> Disk:
    """Make ``disk`` the one this process's stores use; returns the one it replaces."""
    global _disk
    previous, _disk = _disk, disk
    return previous


def fsync_dir(path: Path) -> None:
    """Make a directory's entries (a rename, a new file) durable (see :class:`Disk`)."""
    _disk.sync_dir(path)


def _naming(e: OSError, path: Path) -> OSError:
    """``e`` as an OSError of the same kind that names ``path`` (the file being written)."""
    if e.errno is None:
        return e
    named = OSError(e.errno, e.strerror or os.strerror(e.errno), str(path))
    named.__cause__ = e
    return named


def atomic_write(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new file, whole.

    An OSError before the rename leaves ``path`` as it was (the temporary file is
    removed) and names ``path``; a failure to sync the directory after the rename
    raises :class:`NotDurableError` (``path`` holds the new data). ``mode``: the new
    file's permissions (less the umask)."""
    tmp = path.with_name(f".{path.name}{TEMP_MARK}{os.getpid()}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | system.O_BINARY | system.O_CLOEXEC, mode)
    except OSError as e:
        raise _naming(e, path) from e
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
        os.close(fd)
        fd = -1
        replace(tmp, path)
    except BaseException as e:
        if fd >= 0:
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise _naming(e, path) from e
        raise
    try:
        fsync_dir(path.parent)
    except OSError as e:
        raise NotDurableError(e.errno, e.strerror or str(e), str(path.parent)) from e


def replace(src: Path, dst: Path) -> None:
    """``os.replace(src, dst)``; on Windows, a PermissionError (another program holding
    ``dst`` or ``src`` open for a moment) is tried again after each of
    :data:`REPLACE_PAUSES`, and raised if it lasts."""
    for pause in (*REPLACE_PAUSES, None):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if pause is None or not system.windows():
                raise
            time.sleep(pause)


def move_aside(path: Path) -> Path:
    """Rename a damaged file to ``<name>.corrupt-<UTC time>`` beside it (nothing is deleted);
    returns the new path. A missing file raises FileNotFoundError; a rename the disk refuses,
    its OSError (the file is then where it was)."""
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    replace(path, aside)
    return aside


def remove(path: Path, *, sync: bool = True) -> None:
    """Remove a file (a missing one is no error) and, with ``sync``, make the removal durable
    as far as the disk lets: an OSError of the unlink is raised (the file is still there); a
    directory that cannot be synced afterwards is no error (a power cut may bring the file
    back)."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    if sync:
        try:
            fsync_dir(path.parent)
        except OSError:
            pass


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def _not_regular(path: Path, mode: int) -> CorruptFileError:
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return CorruptFileError(path, f"it is {kind}, not a regular file")


def read_file(path: Path) -> tuple[bytes, os.stat_result]:
    """A file's bytes and the stat of the very file read, without ever blocking: a FIFO,
    directory, socket or device where a file should be raises CorruptFileError. A missing
    file raises FileNotFoundError; any other failure to read it, its OSError."""
    st = os.stat(path)  # a socket cannot even be opened: tell what it is first
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular(path, st.st_mode)
    fd = os.open(path, os.O_RDONLY | system.O_BINARY | system.O_NONBLOCK | system.O_CLOEXEC)  # a FIFO put here: no wait
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(path, st.st_mode)
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks), st


def parse_json(path: Path, data: bytes) -> Any:
    """Parse a JSON file's bytes; bytes that cannot be parsed raise CorruptFileError."""
    if not data.strip():
        raise CorruptFileError(path, "the file is empty")
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as e:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise CorruptFileError(path, f"not valid JSON ({e})") from None


def read_json_file(path: Path) -> Any:
    """Parse a JSON file; a file that cannot be parsed (or is no regular file) raises CorruptFileError."""
    return parse_json(path, read_file(path)[0])


def as_tables(path: Path, data: Any) -> dict[str, dict[str, Any]]:
    """A parsed TinyDB file: a JSON object of tables (objects), else CorruptFileError."""
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        raise CorruptFileError(path, "not a TinyDB database (an object of tables)")
    return data


def read_tables(path: Path) -> tuple[dict[str, dict[str, Any]], os.stat_result]:
    """A TinyDB file's tables, read without TinyDB, and the stat of the file that was read.

    One open file gives both, so the stat (inode, size, times) belongs to the bytes
    even when a writer replaces the file meanwhile. A missing file raises
    FileNotFoundError; one that is not a TinyDB database (or no regular file) raises
    CorruptFileError; one that cannot be read, its OSError."""
    data, st = read_file(path)
    return as_tables(path, parse_json(path, data)), st


def dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class AtomicJSONStorage(Storage):
    """A TinyDB storage whose every write is atomic and durable.

    ``TinyDB(path, storage=AtomicJSONStorage)``. A missing file is an empty
    database; a file that is not a JSON object of tables raises
    :class:`CorruptFileError`. With ``read_only=True`` every write raises
    StoreError (a read-only store writes nothing).
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False, **_: Any) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._cache: dict[str, dict[str, Any]] | None = None

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._cache is not None:
            return self._cache
        try:
            data = read_json_file(self.path)
        except FileNotFoundError:
            return None
        self._cache = as_tables(self.path, data)
        return self._cache

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        if self.read_only:
            raise StoreError(f"{self.path} was opened read-only; it is not written")
        self._cache = None  # if the write fails, the next read goes to the disk
        atomic_write(self.path, dumps(data))
        self._cache = data

    def close(self) -> None:
        self._cache = None
