"""What a database directory holds, and the names, versions and stamps in it.

Layout of a database directory::

    PATH/lock                 the lock file (an exclusive flock while a Store that writes is open)
    PATH/index.json           table "meta" (schema) and table "matches" (one small document
                              per match: id, game, players, created, updated, status,
                              cached scores, file signature)
    PATH/matches/<id>.json    one file per match: table "match", document "1":
                              {"schema", "id", "created", "record", "redo"}
    PATH/<name>               side files of other parts of the app (the statistics' cache,
                              the players' names ...), see :meth:`Store.side_file`

Each JSON file is in TinyDB's format (an object of tables, each an object of
documents by number) and is written through a TinyDB ``Storage``
(:class:`~scorekeeper.store.storage.AtomicJSONStorage`).

>>> is_id("20260101-120000-a1b2c3"), is_id("../etc"), is_id("x\\n")
(True, False, False)
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import secrets
from pathlib import Path
from typing import Any

from scorekeeper.store.errors import StoreError
from scorekeeper.store.storage import fsync_dir

Record = dict[str, Any]  # a match record, or another JSON object (an entry, a document of the index)

SCHEMA = 1
#: A match id, which is also its file's name; always matched whole (``fullmatch``: a ``$``
#: would let a trailing newline through).
ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")

INDEX = "index.json"
LOCK = "lock"
MATCHES = "matches"


def is_id(mid: Any) -> bool:
    """Whether ``mid`` is a match id (a safe file name, the whole string)."""
    return isinstance(mid, str) and ID_RE.fullmatch(mid) is not None


def new_id() -> str:
    return f"{_dt.datetime.now(_dt.UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


_last_now = ""


def now() -> str:
    """An ISO time stamp, strictly increasing within this process (it orders matches)."""
    global _last_now
    t = _dt.datetime.now(_dt.UTC)
    stamp = t.isoformat(timespec="microseconds").replace("+00:00", "Z")
    while stamp <= _last_now:
        t += _dt.timedelta(microseconds=1)
        stamp = t.isoformat(timespec="microseconds").replace("+00:00", "Z")
    _last_now = stamp
    return stamp


def signature(st: os.stat_result) -> list[int]:
    """What tells a changed match file: every atomic write makes a new inode, and
    any other change (even one that puts the mtime back) moves the ctime."""
    return [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


#: The signature of a match file that could not be looked at: no file has it (no inode is 0),
#: so the match's cached fields are taken for stale and its file is looked at again.
UNKNOWN_SIG = (0, 0, 0, 0)


def durable_mkdir(path: Path) -> None:
    """Create a directory and its missing parents, each made durable in its parent."""
    missing = []
    p = path
    while not p.exists():
        missing.append(p)
        p = p.parent
    for d in reversed(missing):
        try:
            d.mkdir()
        except FileExistsError:
            continue
        fsync_dir(d.parent)


def default_path() -> Path:
    """``FLET_APP_STORAGE_DATA`` inside a packaged Flet app, else the per-user data directory."""
    flet_dir = os.environ.get("FLET_APP_STORAGE_DATA")
    if flet_dir:
        return Path(flet_dir) / "matches-db"
    import platformdirs

    return Path(platformdirs.user_data_dir("scorekeeper", appauthor=False))


def newer_schema(path: Path, schema: Any) -> StoreError:
    return StoreError(
        f"{path} was written by a newer Scorekeeper (schema {schema}); this version reads schema "
        f"{SCHEMA}: update Scorekeeper to open this database"
    )


class Problems(list[str]):
    """What the store met and did about it, one line each (``Store.problems``).

    >>> p = Problems()
    >>> p.note("x"); p.note("x"); p
    ['x']
    """

    def note(self, problem: str) -> None:
        """Report a problem once (a file left where it is may be met again)."""
        if problem not in self:
            self.append(problem)
