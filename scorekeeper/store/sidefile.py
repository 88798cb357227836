"""Side files: what other parts of the app keep in the database's folder, through the store.

The statistics keep their cache (``stats.json``), the table ``stats`` prints
(``stats-table.json``) and the players' renames and merges (``players.json``) beside
the index. They ask the store for the file (:meth:`Store.side_file`) instead of
writing into its folder behind its back: a side file is read whole, without blocking
(a FIFO or a directory where it should be is no file of ours), and written through
the store's own durable write (temporary file, fsync, ``os.replace``, fsync of the
folder); a read-only store's side files refuse to be written. A side file never
holds a match: it is the store's neighbour's, the store never reads it.

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as d:
...     side = SideFile(Path(d), "notes.json")
...     before = side.load()
...     side.save(b'{"a": 1}')
...     before, side.load()
(None, {'a': 1})
>>> SideFile(Path("."), "index.json")
Traceback (most recent call last):
...
ValueError: 'index.json' is the store's own file, not a side file
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from typing import Any

from scorekeeper import system
from scorekeeper.store.errors import StoreError
from scorekeeper.store.layout import INDEX, LOCK, MATCHES
from scorekeeper.store.storage import CorruptFileError, atomic_write, read_json_file

#: A side file's name: a plain file name of the folder (no path, not hidden).
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


class SideFile:
    """The file ``name`` of the database folder ``folder``; ``writable=False``: every
    :meth:`save` raises StoreError (a read-only store writes nothing); ``mode``: the
    permissions :meth:`save` gives the file (less the umask; 0o600: its owner's only)."""

    def __init__(self, folder: Path, name: str, *, writable: bool = True, mode: int = 0o644) -> None:
        if not isinstance(name, str) or NAME_RE.fullmatch(name) is None:
            raise ValueError(f"{name!r} is not the name of a file of the database's folder")
        if name in (INDEX, LOCK, MATCHES) or name.startswith(f"{LOCK}.") or ".corrupt-" in name:
            raise ValueError(f"{name!r} is the store's own file, not a side file")
        self.path = folder / name
        self.writable = writable
        self.mode = mode

    def load(self) -> Any:
        """The file's JSON, or None when it is missing, cannot be read, is no regular file or
        holds no JSON (a side file is the app's own: a bad one is made again)."""
        try:
            return read_json_file(self.path)
        except (OSError, CorruptFileError):
            return None

    def read(self, limit: int = 1 << 20) -> bytes | None:
        """The file's bytes, or None when there is none. A file that cannot be read, is no
        regular file (a FIFO is never waited on), is a link to nothing or holds more than
        ``limit`` bytes raises OSError: something is there, and it is not "no file"."""
        try:
            fd = os.open(self.path, os.O_RDONLY | system.O_BINARY | system.O_NONBLOCK | system.O_CLOEXEC)
        except FileNotFoundError:
            if os.path.lexists(self.path):  # a symbolic link whose target is not there
                raise OSError(errno.ENOENT, "a link to a file that is not there") from None
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise OSError(errno.EINVAL, "not a regular file")
            if st.st_size > limit:
                raise OSError(errno.EFBIG, "too large for a side file")
            with os.fdopen(fd, "rb", closefd=False) as f:
                return f.read(limit + 1)
        finally:
            os.close(fd)

    def set_aside(self, suffix: str = "unreadable") -> None:
        """Move the file out of the way, to ``<name>.<suffix>`` beside it (kept for a look,
        never read again); a file that cannot be moved is left where it is."""
        if not self.writable:
            return
        try:
            self.path.replace(self.path.with_name(f"{self.path.name}.{suffix}"))
        except OSError:
            pass

    def save(self, data: bytes) -> None:
        """Replace the file with ``data``, atomically and durably (see
        :func:`~scorekeeper.store.storage.atomic_write`: its OSError, or NotDurableError
        when only the folder could not be synced)."""
        if not self.writable:
            raise StoreError(f"{self.path} belongs to a database opened read-only; it is not written")
        atomic_write(self.path, data, mode=self.mode)
