"""The match store: match records on TinyDB, every entry durable the moment it is entered.

Layout of a database directory::

    PATH/lock                 the lock file (an exclusive flock while a Store that writes is open)
    PATH/index.json           TinyDB: table "meta" (schema) and table "matches"
                              (one small document per match: id, game, players,
                              created, updated, status, cached scores, file signature)
    PATH/matches/<id>.json    TinyDB, one file per match: {"schema", "record", "redo"}

Appending an entry validates it through the game's engine (kept in memory
for open matches) and rewrites that match's own small file atomically; it
never touches the index, so its cost does not depend on how many matches are
stored. The index is a cache: its cached fields are refreshed when a match is
created, imported, edited or closed, and otherwise whenever a listed
match's file differs from its cached signature (inode, size, mtime, ctime). The record is the truth.

``Store(path, read_only=True)`` opens a database to read it while another
Scorekeeper (the app) holds it open and writes: it takes no lock and writes
nothing (stale cached fields are refreshed in memory only, corrupt files are
reported but left where they are), and every method that writes raises
StoreError. Writers replace every file atomically, so it reads each file whole,
old or new; a match is read again from its file whenever the file changed.

One bad file never takes the database down: a damaged match file is moved aside
(a read-only store leaves it as it is) and reported in ``Store.problems``; a bad
index is moved aside and rebuilt from the match files. Opening never needs to
write: when the index cannot be written (a full disk), the store goes on with it
in memory. Every OSError the store meets reaches the caller as a StoreError.

A failed write never hides a match: an OSError that is not corruption (too many
open files, a full disk, an I/O error) is the disk's trouble, not the file's: it
never moves a file aside nor drops a match from the index, the match keeps what
the index knew of it and its file is read again at the next chance, and the
index is never written without a match that is on the disk (docs/store.md).
"""

from __future__ import annotations

import copy
import datetime as _dt
import errno
import fcntl
import functools
import json
import os
import re
import secrets
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from tinydb import TinyDB

from scorekeeper import boundary, registry, text
from scorekeeper.envelope import type_name
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store.errors import StoreError, StoreLockedError, plain_line
from scorekeeper.store.storage import (
    TEMP_MARK,
    AtomicJSONStorage,
    CorruptFileError,
    NotDurableError,
    fsync_dir,
    read_tables,
)

Record = dict[str, Any]  # a match record, or another JSON object (an entry, a document of the index)

SCHEMA = 1
#: A match id, which is also its file's name; always matched whole (``fullmatch``: a ``$``
#: would let a trailing newline through).
ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")

#: How long (seconds) a Store that writes waits for another one to release the lock
#: (another command's import: a short writer) before it gives up; ``Store(path, wait=...)``,
#: or the environment's ``SCOREKEEPER_LOCK_WAIT`` for the commands.
LOCK_WAIT = 5.0
#: How often (seconds) it tries the lock meanwhile.
LOCK_POLL = 0.05


def _lock_wait() -> float:
    """:data:`LOCK_WAIT`, or ``SCOREKEEPER_LOCK_WAIT`` when it is a number of seconds (0 to 600)."""
    try:
        wait = float(os.environ.get("SCOREKEEPER_LOCK_WAIT", ""))
    except ValueError:
        return LOCK_WAIT
    return wait if 0 <= wait <= 600 else LOCK_WAIT


_P = ParamSpec("_P")
_R = TypeVar("_R")


def is_id(mid: Any) -> bool:
    """Whether ``mid`` is a match id (a safe file name, the whole string)."""
    return isinstance(mid, str) and ID_RE.fullmatch(mid) is not None


def _shown(name: str) -> str:
    """A file name as a one-line message shows it (quoted when it holds odd characters)."""
    return name if name.isprintable() else repr(name)


def _reason(e: OSError) -> str:
    """An OSError as a message says it, losing nothing: the file, the system's words, the errno's name."""
    what = e.strerror or str(e) or type(e).__name__
    name = errno.errorcode.get(e.errno) if isinstance(e.errno, int) else None
    if name:
        what = f"{what} ({name})"
    if e.filename is not None:
        where = (
            _shown(os.fsdecode(e.filename)) if isinstance(e.filename, (str, bytes, os.PathLike)) else str(e.filename)
        )
        if e.filename2 is not None:
            where += f" -> {_shown(os.fsdecode(e.filename2))}"
        what = f"{where}: {what}"
    return what


def _os_errors(
    doing: str, plain: str, outcome: str | None = "nothing was changed"
) -> Callable[[Callable[Concatenate[Store, _P], _R]], Callable[Concatenate[Store, _P], _R]]:
    """A public method of Store whose OSErrors reach the caller as StoreErrors ("cannot DOING
    ...; OUTCOME"; for people: "could not PLAIN: what went wrong; OUTCOME")."""

    def wrap(method: Callable[Concatenate[Store, _P], _R]) -> Callable[Concatenate[Store, _P], _R]:
        @functools.wraps(method)
        def wrapped(self: Store, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
            try:
                return method(self, *args, **kwargs)
            except OSError as e:
                end = f"; {outcome}" if outcome else ""
                raise StoreError(
                    f"cannot {doing} in {self.path}: {_reason(e)}{end}", plain=plain_line(plain, e, outcome)
                ) from e

        return wrapped

    return wrap


def default_path() -> Path:
    """``FLET_APP_STORAGE_DATA`` inside a packaged Flet app, else the per-user data directory."""
    flet_dir = os.environ.get("FLET_APP_STORAGE_DATA")
    if flet_dir:
        return Path(flet_dir) / "matches-db"
    import platformdirs

    return Path(platformdirs.user_data_dir("scorekeeper", appauthor=False))


_last_now = ""


def _now() -> str:
    """An ISO time stamp, strictly increasing within this process (it orders matches)."""
    global _last_now
    t = _dt.datetime.now(_dt.UTC)
    stamp = t.isoformat(timespec="microseconds").replace("+00:00", "Z")
    while stamp <= _last_now:
        t += _dt.timedelta(microseconds=1)
        stamp = t.isoformat(timespec="microseconds").replace("+00:00", "Z")
    _last_now = stamp
    return stamp


def _signature(st: os.stat_result) -> list[int]:
    """What tells a changed match file: every atomic write makes a new inode, and
    any other change (even one that puts the mtime back) moves the ctime."""
    return [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


#: The signature of a match file that could not be looked at: no file has it (no inode is 0),
#: so the match's cached fields are taken for stale and its file is looked at again.
UNKNOWN_SIG = (0, 0, 0, 0)


def _durable_mkdir(path: Path) -> None:
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


def _new_id() -> str:
    return f"{_dt.datetime.now(_dt.UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


#: What a record says that does not make it another match (see Store.find).
_LABELS = ("id", "title", "notes")


def _brief(record: Record, match: Any) -> tuple[Any, ...]:
    """What the index caches of a match and :meth:`Store.find` compares first."""
    setup = match.setup
    return (
        record.get("game"),
        list(setup.players),
        len(match.hands),
        dict(zip(setup.sides, match.scores, strict=True)),
    )


def _sameness(record: Record, match: Any) -> str:
    """A match as :meth:`Store.find` compares it: the engine's own record (tiles spelled
    one way) without its labels, with the rules as the engine reads them."""
    normal = {k: v for k, v in match.to_record().items() if k not in _LABELS}
    normal["started"] = record.get("started")
    rules = getattr(match.setup, "rules", None)
    if rules is not None:
        normal["rules"] = repr(rules)  # every option, the defaults too
    return json.dumps(normal, sort_keys=True, ensure_ascii=False)


# ------------------------------------------------------------------ the index's documents
_STATUSES = ("new", "playing", "won")


def _is_str_or_none(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


#: Each field of an index document and what its value must be (what ``Store._meta_of`` writes).
_INDEX_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "id": (is_id, "a match id"),
    "game": (lambda v: isinstance(v, str), "a string"),
    "players": (lambda v: isinstance(v, list) and all(isinstance(p, str) for p in v), "a list of names"),
    "title": (_is_str_or_none, "a string or null"),
    "started": (_is_str_or_none, "a string or null"),
    "created": (_is_str_or_none, "a string or null"),
    "updated": (lambda v: isinstance(v, str), "a string"),
    "status": (lambda v: v in _STATUSES, "one of " + ", ".join(_STATUSES)),
    "scores": (
        lambda v: isinstance(v, dict) and all(_is_number(x) for x in v.values()),
        "an object of scores",
    ),
    "winner": (_is_str_or_none, "a string or null"),
    "hands": (lambda v: _is_int(v) and v >= 0, "a count"),
    "sig": (lambda v: isinstance(v, list) and len(v) == 4 and all(_is_int(x) for x in v), "a file signature"),
}


def _index_doc_fault(doc: Any) -> str | None:
    """What is wrong with a document of the index's ``matches`` table, or None."""
    if not isinstance(doc, dict):
        return f"is {type_name(doc)}, not a match's entry"
    for field, (ok, what) in _INDEX_FIELDS.items():
        if field not in doc:
            return f"has no {field!r}"
        if not ok(doc[field]):
            return f"has a {field!r} that is not {what}"
    return None


def _index_schema(path: Path, tables: dict[str, dict[str, Any]]) -> Any:
    """The schema an index says it has (None: it has no meta table)."""
    meta = list(tables.get("meta", {}).values())
    if not all(isinstance(m, dict) for m in meta):
        raise CorruptFileError(path, "its meta table holds something other than documents")
    return meta[0].get("schema") if meta else None


def _index_docs(path: Path, tables: dict[str, dict[str, Any]]) -> dict[str, Record]:
    """The index's documents by match id; any document of the wrong shape makes it a CorruptFileError."""
    docs: dict[str, Record] = {}
    for key, doc in tables.get("matches", {}).items():
        fault = _index_doc_fault(doc)
        if fault is None and not key.isdigit():
            fault = "is not kept under a document number"
        if fault is None and doc["id"] in docs:
            fault = f"lists match {doc['id']} a second time"
        if fault is not None:
            raise CorruptFileError(path, f"the entry {_shown(key)} of its matches table {fault}")
        docs[doc["id"]] = dict(doc)
    return docs


# ------------------------------------------------------------------ open matches
@dataclass
class _Open:
    """A match the store has in memory: its TinyDB file, record, redo stack and engine state."""

    db: TinyDB
    record: Record
    redo: list[Record]  # entries taken back by undo, the last one first to come back
    match: Any  # the game's engine state: its Match, whose type depends on the game (see registry.Game.load)
    created: str
    path: Path
    dirty: bool = False  # the index's cached fields are behind the file
    stat: os.stat_result | None = None  # read-only stores: the file read (a newer one is read again)


class Store:
    """A database of match records in a directory. ``with Store(path) as store: ...``

    ``Store(path)`` reads and writes: it creates the directory if need be and holds
    an exclusive lock on it while open. Another Store holding it is waited for up to
    ``wait`` seconds (:data:`LOCK_WAIT` by default: another command's import is over by
    then), then refused with StoreLockedError; a Store of this very process holding it
    is refused at once (waiting could not help). ``Store(path, read_only=True)`` only
    reads: no lock, nothing written, so it opens while another Scorekeeper holds the
    database; a missing database is a StoreError, and every method that writes raises
    StoreError. It lists the matches whose files were there when it was opened (and
    any match read since); each read of a match gives its file as it is now."""

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False, wait: float | None = None
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.read_only = read_only
        self.wait = _lock_wait() if wait is None else wait
        if not self.wait >= 0:  # NaN too
            raise ValueError(f"wait must be a number of seconds, 0 or more, not {wait!r}")
        self.problems: list[str] = []
        self.matches_dir = self.path / "matches"
        self._open_matches: dict[str, _Open] = {}
        self._meta: dict[str, Record] = {}  # the index as this store knows it: the truth for listing
        self._lock_fd: int | None = None
        self._index: AtomicJSONStorage | None = None  # None in a read-only store: the index is never written
        self._index_behind = False  # the last write of the index failed: it is behind self._meta
        #: Match files the disk would not let be read (too many open files, an I/O error ...)
        #: whose matches the index does not have: tried again when the store lists.
        self._unread: set[str] = set()
        self._is_open = False
        try:
            self._open()
        except OSError as e:
            self._unlock()
            raise StoreError(f"cannot open the database {self.path}: {_reason(e)}") from e
        except BaseException:
            self._unlock()
            raise
        self._is_open = True

    def _open(self) -> None:
        if self.read_only:
            self._check_database_dir()
            self._meta = self._read_index()
            self._check_recent_files()
            return
        try:
            _durable_mkdir(self.matches_dir)
        except OSError as e:
            raise StoreError(f"cannot use {self.path} as a database: {_reason(e)}") from e
        self._lock_fd = self._lock()
        self._index = AtomicJSONStorage(self.path / "index.json")
        self._meta, rebuild, write = self._open_index()
        self._remove_temp_files()
        changed = self._check_recent_files()
        if rebuild:
            line = f"the index was rebuilt from {len(self._meta)} match files"
            if self._unread:
                line += f" ({len(self._unread)} more could not be read; each is listed as soon as it can be)"
            self.problems.append(line)
        if rebuild or write or changed:
            self._write_index()  # if it cannot be written, the store goes on with it in memory

    # ------------------------------------------------------------ lifecycle
    def _lock(self) -> int:
        """Take the database's lock, waiting up to ``self.wait`` seconds for another Store to let it go."""
        lock = self.path / "lock"
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except IsADirectoryError:  # no Scorekeeper locks a directory: nobody holds it
            self._lock_dir_aside(lock)
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            deadline = time.monotonic() + self.wait
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    holder = self._holder(fd)
                    left = deadline - time.monotonic()
                    if left <= 0 or holder == str(os.getpid()):
                        raise StoreLockedError(
                            f"the database {self.path} is in use by another Scorekeeper (pid {holder or 'unknown'}); "
                            "close that one first"
                        ) from None
                    time.sleep(min(LOCK_POLL, left))
        except BaseException:
            os.close(fd)
            raise
        pid = str(os.getpid()).encode()
        try:  # who holds it, for the message of the next one: not worth failing over (a full disk)
            os.pwrite(fd, pid, 0)
            os.ftruncate(fd, len(pid))
        except OSError:
            try:
                os.ftruncate(fd, 0)  # at least no other process's pid
            except OSError:
                pass
        return fd

    def _lock_dir_aside(self, lock: Path) -> None:
        """A directory where the lock file should be is no lock anybody holds (no version of
        Scorekeeper makes one): an empty one is removed, any other moved aside to
        ``lock.corrupt-<timestamp>`` (nothing in it is deleted), and the lock file is made
        anew. Done under an flock of the database directory, which only this takes, and
        only while ``lock`` is still a directory: two Scorekeepers starting at once move it
        once, and neither ever moves the other's lock file."""
        dfd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            deadline = time.monotonic() + max(self.wait, 1.0)
            while True:
                try:
                    fcntl.flock(dfd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise StoreLockedError(
                            f"the database {self.path} is in use by another Scorekeeper (its lock file is being "
                            "made anew); try again"
                        ) from None
                    time.sleep(LOCK_POLL)
            try:
                if not stat.S_ISDIR(os.lstat(lock).st_mode):
                    return  # made anew by another Scorekeeper meanwhile
            except FileNotFoundError:
                return
            try:
                os.rmdir(lock)
                done = "removed (it was empty)"
            except OSError as e:
                if e.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                    raise self._lock_unusable(lock, e) from e
                stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
                aside = lock.with_name(f"lock.corrupt-{stamp}")
                try:
                    os.rename(lock, aside)
                except OSError as e2:
                    raise self._lock_unusable(lock, e2) from e2
                done = f"moved aside to {aside.name}"
            try:
                fsync_dir(self.path)
            except OSError:
                pass  # a power cut may bring the directory back: it is then moved aside again
            self._note(f"the lock file {lock.name} was a directory, not a lock anybody holds; it was {done}")
        finally:
            os.close(dfd)  # lets the directory's flock go

    def _lock_unusable(self, lock: Path, e: OSError) -> StoreError:
        return StoreError(
            f"cannot open the database {self.path}: its lock file {lock} is a directory that could not be "
            f"moved aside ({_reason(e)}); no Scorekeeper holds it: remove it and start again"
        )

    @staticmethod
    def _holder(fd: int) -> str:
        """The pid the lock file names (empty if it names none)."""
        try:
            return os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        except OSError:
            return ""

    def _unlock(self) -> None:
        fd: int | None = getattr(self, "_lock_fd", None)
        self._lock_fd = None
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            except OSError:
                pass  # closing the descriptor lets the lock go all the same
            try:
                os.close(fd)
            except OSError:
                pass  # the descriptor is closed even when close reports an error (Linux, POSIX.1-2024)

    @_os_errors("close the store", "write the index", "every match is safe in its own file")
    def close(self) -> None:
        """Bring the index up to date and release the lock (a read-only store: just close).
        If the index cannot be written, the next open brings it up to date from the match files."""
        if not self._is_open:
            return
        try:
            dirty = [mid for mid, o in self._open_matches.items() if o.dirty]
            if dirty:
                self._refresh(dirty)
            elif self._index_behind:
                self._write_index()
        finally:
            self._is_open = False
            self._open_matches.clear()
            self._unlock()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if not self._is_open:
            raise StoreError("the store is closed")

    def _check_writable(self, method: str) -> None:
        """Every method that writes starts here: a read-only store refuses it (a programming error)."""
        self._check_open()
        if self.read_only:
            raise StoreError(
                f"cannot {method}: the database {self.path} was opened read-only "
                "(Store(path, read_only=True)); nothing was written"
            )

    # ------------------------------------------------------------ problems
    def _note(self, problem: str) -> None:
        """Report a problem once (a file left where it is may be met again)."""
        if problem not in self.problems:
            self.problems.append(problem)

    def _move_aside(self, path: Path, why: str) -> str:
        """Report a corrupt file and move it aside; a read-only store reports it and leaves it where
        it is (so does a store that writes when the move fails). Returns what was done."""
        name = _shown(path.name)
        if self.read_only:
            done = "left as it is (the database was opened read-only)"
        else:
            stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
            aside = path.with_name(f"{path.name}.corrupt-{stamp}")
            try:
                os.replace(path, aside)
            except FileNotFoundError:
                return "gone"
            except OSError as e:
                done = f"left as it is (it could not be moved aside: {_reason(e)})"
            else:
                done = f"moved aside to {_shown(aside.name)}"
        self._note(f"{name} could not be read ({why}); it was {done}")
        return done

    def _unreadable(self, path: Path, e: OSError) -> str:
        """Report a file the system will not let be read (its content may be fine): left where it is."""
        self._note(f"{_shown(path.name)} could not be read ({_reason(e)}); it was left as it is")
        return "left as it is"

    def _newer_schema(self, path: Path, schema: Any) -> StoreError:
        return StoreError(
            f"{path} was written by a newer Scorekeeper (schema {schema}); this version reads schema "
            f"{SCHEMA}: update Scorekeeper to open this database"
        )

    # ------------------------------------------------------------ start-up checks
    def _remove_temp_files(self) -> None:
        """Temporary files of an interrupted write are never the truth: remove them."""
        for d in (self.path, self.matches_dir):
            for entry in os.scandir(d):
                if TEMP_MARK in entry.name and entry.name.startswith("."):
                    try:
                        os.unlink(entry.path)
                    except OSError:
                        pass

    def _parse_index(self, path: Path, tables: dict[str, dict[str, Any]]) -> dict[str, Record] | None:
        """The documents of an index by match id; None when it has no schema (no index: the
        matches are read from their files). A newer schema is refused; a document of the
        wrong shape makes the whole index a CorruptFileError."""
        schema = _index_schema(path, tables)
        if schema is None:
            return None
        if type(schema) is not int or schema > SCHEMA:
            raise self._newer_schema(path, schema)
        return _index_docs(path, tables)

    def _open_index(self) -> tuple[dict[str, Record], bool, bool]:
        """The index of a store that writes: (documents, rebuilt?, to be written?). A bad index
        (not JSON, the wrong shape, not a regular file) is moved aside and rebuilt; one the disk
        will not let be read is rebuilt and replaced, never moved aside."""
        assert self._index is not None
        index_path = self._index.path
        try:
            tables = self._index.read()
            if tables is None:  # no index yet: a new database, or an index lost
                return {}, any(self._match_files(quiet=True)), True
            docs = self._parse_index(index_path, tables)
        except CorruptFileError as e:
            why = e.why
        except FileNotFoundError:
            return {}, any(self._match_files(quiet=True)), True
        except OSError as e:  # the disk's trouble, not the file's: not moved aside, replaced once rebuilt
            self._note(
                f"index.json could not be read ({_reason(e)}); it was left as it is, to be replaced by "
                "an index rebuilt from the match files"
            )
            self._index = AtomicJSONStorage(index_path)
            return {}, True, True
        else:
            if docs is None:  # an index that lost its meta: rebuild it from the records
                return {}, bool(tables.get("matches")) or any(self._match_files(quiet=True)), True
            return docs, False, False
        self._move_aside(index_path, why)
        self._index = AtomicJSONStorage(index_path)  # nothing of the bad one kept in memory
        return {}, True, True

    def _check_database_dir(self) -> None:
        """A read-only store opens only an existing directory (it creates nothing)."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise StoreError(f"no database at {self.path} (nothing has been stored there yet)") from None
        except OSError as e:
            raise StoreError(f"cannot use {self.path} as a database: {_reason(e)}") from e
        if not stat.S_ISDIR(st.st_mode):
            raise StoreError(f"cannot use {self.path} as a database: not a directory")

    def _read_index(self) -> dict[str, Record]:
        """The index's documents as a read-only store reads them: a missing index, or one
        without its schema, is no index (every match is then read from its file); a bad
        one is reported and left as it is; a newer schema is refused as in a store that writes."""
        index_path = self.path / "index.json"
        try:
            tables, _ = read_tables(index_path)
            docs = self._parse_index(index_path, tables)
        except FileNotFoundError:
            return {}
        except CorruptFileError as e:
            why = e.why
        except OSError as e:
            why = _reason(e)
        else:
            return docs or {}
        self.problems.append(
            f"index.json could not be read ({why}); the matches were read from their files "
            "(the database was opened read-only: the index was left as it is)"
        )
        return {}

    def _match_files(self, quiet: bool = False) -> Iterator[tuple[str, list[int] | None]]:
        """(id, signature) of every match file (None: it could not even be looked at). Temporary
        files of a write (``.<name>.tmp-<pid>``, perhaps in flight) and files moved aside
        (``<name>.corrupt-...``) are not match files; a ``.json`` file whose name is no match
        id is reported (unless ``quiet``) and left as it is."""
        try:
            entries = list(os.scandir(self.matches_dir))
        except FileNotFoundError:
            if self.read_only:  # a database directory without matches yet
                return
            raise
        for entry in entries:
            if not entry.name.endswith(".json") or entry.name.startswith("."):
                continue
            mid = entry.name[:-5]
            if not is_id(mid):
                if not quiet:
                    self._note(
                        f"{_shown(entry.name)} in {self.matches_dir} is not named after a match id; "
                        "it is not read and was left as it is"
                    )
                continue
            try:
                st = entry.stat()
            except FileNotFoundError:  # deleted since it was listed (only a read-only store sees this)
                continue
            except OSError:  # reading it says why
                yield mid, None
                continue
            yield mid, _signature(st)

    def _check_recent_files(self) -> bool:
        """Check every match file changed since the index last saw it (a crash happens there).
        Returns whether the index changed (in memory: the caller writes it)."""
        seen = set()
        changed = []
        for mid, sig in self._match_files():
            seen.add(mid)
            meta = self._meta.get(mid)
            if meta is None or sig is None or meta.get("sig") != sig:
                changed.append(mid)
        gone = [mid for mid in self._meta if mid not in seen]
        for mid in gone:
            self.problems.append(f"match {mid} is listed in the index but its file is missing")
            del self._meta[mid]
        if changed:
            self._refresh(changed, write=False)
        return bool(gone or changed)

    # ------------------------------------------------------------ match files
    def _match_path(self, mid: str) -> Path:
        return self.matches_dir / f"{mid}.json"

    def _read_match_file(self, path: Path) -> tuple[Record, os.stat_result]:
        """A match file's document, and the stat of the very file that was read. A file
        that is no Scorekeeper match file of this schema or an older one is a CorruptFileError."""
        tables, st = read_tables(path)
        docs = list(tables.get("match", {}).values())
        if len(docs) != 1 or not isinstance(docs[0], dict) or not isinstance(docs[0].get("record"), dict):
            raise CorruptFileError(path, "not a Scorekeeper match file")
        doc = docs[0]
        schema = doc.get("schema")
        if type(schema) is not int:
            raise CorruptFileError(path, "no schema version")
        if schema > SCHEMA:
            raise self._newer_schema(path, schema)
        game = doc["record"].get("game")
        if not isinstance(game, str):  # no game of any version: not an unknown game, a damaged record
            raise CorruptFileError(path, f"its record's game is {type_name(game)}, not a string")
        redo = doc.get("redo", [])
        if not isinstance(redo, list) or not all(isinstance(e, dict) for e in redo):
            raise CorruptFileError(path, "its redo stack is not a list of entries")
        if not _is_str_or_none(doc.get("created")):
            raise CorruptFileError(path, "its creation time is not a string")
        return dict(doc), st

    def _read_match_doc(self, path: Path) -> Record:
        return self._read_match_file(path)[0]

    def _load(self, mid: str) -> _Open:
        """The open match ``mid``, read from its file the first time."""
        self._check_open()
        if self.read_only:
            return self._load_fresh(mid)
        o = self._open_matches.get(mid)
        if o is not None:
            return o
        if not is_id(mid) or mid not in self._meta:
            raise StoreError(f"no match {mid!r} in {self.path}")
        path = self._match_path(mid)
        try:
            doc = self._read_match_doc(path)
        except FileNotFoundError:
            self._forget(mid)
            self.problems.append(f"the file of match {mid} is missing")
            raise StoreError(f"the file of match {mid} is missing") from None
        except CorruptFileError as e:
            done = self._move_aside(path, e.why)
            self._forget(mid)
            raise StoreError(f"match {mid} could not be read ({e.why}); its file was {done}") from None
        except OSError as e:  # the disk's trouble, not the file's: the match stays listed
            raise self._cannot_read(mid, path, e) from e
        record = doc["record"]
        match = registry.game_of(record).load(record)
        db = TinyDB(path, storage=AtomicJSONStorage)
        o = _Open(db, record, list(doc.get("redo", [])), match, doc.get("created") or _now(), path)
        self._open_matches[mid] = o
        return o

    def _load_fresh(self, mid: str) -> _Open:
        """A read-only store's match ``mid`` as its file holds it now: read again whenever the
        file changed (a writer replaces it whole), and found even if it is newer than the store."""
        if not is_id(mid):
            raise StoreError(f"no match {mid!r} in {self.path}")
        path = self._match_path(mid)
        o = self._open_matches.get(mid)
        if o is not None and o.stat is not None:
            try:
                if _signature(path.stat()) == _signature(o.stat):
                    return o
            except OSError:
                pass  # reading it says so
        try:
            doc, st = self._read_match_file(path)
        except FileNotFoundError:
            known = mid in self._meta
            self._forget(mid)
            if known:
                raise StoreError(f"match {mid} is no longer in {self.path} (its file is gone)") from None
            raise StoreError(f"no match {mid!r} in {self.path}") from None
        except CorruptFileError as e:
            done = self._move_aside(path, e.why)  # reported, left as it is
            self._forget(mid)
            raise StoreError(f"match {mid} could not be read ({e.why}); its file was {done}") from None
        except OSError as e:  # the disk's trouble, not the file's: the match stays listed
            raise self._cannot_read(mid, path, e) from e
        record = doc["record"]
        match = registry.game_of(record).load(record)
        db = TinyDB(path, storage=AtomicJSONStorage, read_only=True)
        created = doc.get("created")
        o = _Open(db, record, list(doc.get("redo", [])), match, created or _now(), path, stat=st)
        self._open_matches[mid] = o
        self._meta[mid] = self._meta_of(mid, record, created, path, match, st)  # in memory only
        return o

    def _cannot_read(self, mid: str, path: Path, e: OSError) -> StoreError:
        """A match file the system would not let be read (too many open files, an I/O error,
        permission denied ...): reported, left where it is, and the match stays listed with
        what the index knows of it -- its content may be fine, and the next try may work."""
        done = self._unreadable(path, e)
        return StoreError(
            f"match {mid} could not be read ({_reason(e)}); its file was {done}",
            plain=plain_line("read the match", e),
        )

    def _forget(self, mid: str, write: bool = True) -> bool:
        """Drop a match from the index (its file is gone or moved aside); read-only: from memory.
        Returns whether the index knew it (``write=False``: the caller writes the index)."""
        self._open_matches.pop(mid, None)
        known = self._meta.pop(mid, None) is not None
        if known and write:
            self._write_index()
        return known

    def _save(self, mid: str, o: _Open, take_back: Callable[[], object]) -> None:
        """Write a match's file (atomic, durable); the change is already made in memory.

        If the file could not be written, it holds the match as it was: ``take_back()``
        puts the match in memory back as it was too (the screens hold the same engine
        state), and a StoreError says nothing was changed; if that fails, the match is
        dropped from memory, to be read again from its file -- never from the listing.
        If only the directory could not be synced, the file holds the change, and so
        does the memory: the StoreError says so."""
        doc = {"schema": SCHEMA, "id": mid, "created": o.created, "record": o.record, "redo": o.redo}
        try:
            o.db.storage.write({"match": {"1": doc}})
        except NotDurableError as e:
            o.dirty = True
            raise StoreError(
                f"match {mid} was saved but the disk did not confirm it ({_reason(e)}); "
                "a power cut may take the change back",
                plain=plain_line("confirm the change", e, "it is saved, but a power cut may take it back"),
            ) from e
        except OSError as e:
            try:
                take_back()
            except Exception:  # not as it was: read again from the file, the truth
                self._open_matches.pop(mid, None)
            raise StoreError(
                f"match {mid} could not be saved ({_reason(e)}); nothing was changed", plain=plain_line("save", e)
            ) from e
        o.dirty = True

    # ------------------------------------------------------------ index
    def _meta_of(
        self,
        mid: str,
        record: Record,
        created: str | None,
        path: Path,
        match: Any = None,
        st: os.stat_result | None = None,
    ) -> Record:
        """A match's document of the index; ``st``: the stat of the file ``record`` was read from
        (else stat ``path``). When the file cannot be looked at (the disk's trouble; a missing
        file is a FileNotFoundError), the fields come from the record with :data:`UNKNOWN_SIG`:
        the match stays listed and its file is looked at again next time."""
        if match is None:
            match = registry.game_of(record).load(record)
        setup = match.setup
        if st is None:
            try:
                st = path.stat()
            except FileNotFoundError:
                raise
            except OSError:
                st = None
        when = _dt.datetime.now(_dt.UTC) if st is None else _dt.datetime.fromtimestamp(st.st_mtime, _dt.UTC)
        status = "won" if match.winner is not None else ("new" if not match.hands else "playing")
        title, started = record.get("title"), record.get("started")
        return {
            "id": mid,
            "game": record.get("game"),
            "players": list(setup.players),
            "title": title if isinstance(title, str) else None,
            "started": (started if isinstance(started, str) else None) or created,
            "created": created,
            "updated": when.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "status": status,
            "scores": dict(zip(setup.sides, match.scores, strict=True)),
            "winner": None if match.winner is None else setup.sides[match.winner],
            "hands": len(match.hands),
            "sig": list(UNKNOWN_SIG) if st is None else _signature(st),
        }

    def _write_index(self) -> None:
        """Write the index as this store knows it (``self._meta``), keeping each document's
        number. If the disk refuses, the store goes on with the index in memory (reported
        once) and writes it again at the next chance; the match files are the truth, and
        the next open brings an index that is behind up to date from them."""
        if self._index is None:  # read-only
            return
        if self._unread:  # it would be written without a match that is on the disk
            self._index_behind = True
            return
        try:
            old = self._index.read() or {}
        except (OSError, CorruptFileError):
            old = {}
        old_docs = old.get("matches", {})
        numbers: dict[str, int] = {}
        top = 0
        for key, doc in old_docs.items():
            if key.isdigit():
                top = max(top, int(key))
                mid = doc.get("id") if isinstance(doc, dict) else None
                if isinstance(mid, str) and mid in self._meta and mid not in numbers:
                    numbers[mid] = int(key)
        for mid in self._meta:
            if mid not in numbers:
                top += 1
                numbers[mid] = top
        by_number = sorted((n, mid) for mid, n in numbers.items())
        tables = {"meta": {"1": {"schema": SCHEMA}}, "matches": {str(n): self._meta[mid] for n, mid in by_number}}
        try:
            self._index.write(tables)
        except NotDurableError:
            pass  # written; a power cut may take it back, and the next open sees what the files hold
        except OSError as e:
            if not self._index_behind:
                self.problems.append(
                    f"index.json could not be written ({_reason(e)}); the store goes on with the index "
                    "in memory and writes it again later (every match is safe in its own file)"
                )
            self._index_behind = True
            return
        self._index_behind = False

    def _refresh(self, mids: Iterable[str], write: bool = True) -> None:
        """Rebuild the cached fields of these matches from their files; one index write
        (a read-only store: in memory only, always from the files as they are now). A
        damaged file is moved aside and a record no engine can play is kept where it is;
        either is reported and its match no longer listed. A file the disk will not let
        be read now (too many open files, an I/O error, permission denied) is reported
        and its match stays listed with the fields it had: the disk's trouble is not the
        match's, and it is read again next time (one the index never had is listed once
        it can be read: see ``_unread``)."""
        fresh = []
        forgot = False
        for mid in mids:
            path = self._match_path(mid)
            o = None if self.read_only else self._open_matches.get(mid)
            created: str | None
            st: os.stat_result | None = None
            try:
                if o is not None:
                    record, created, match = o.record, o.created, o.match
                else:
                    doc, st = self._read_match_file(path)
                    record, created, match = doc["record"], doc.get("created"), None
                meta = self._meta_of(mid, record, created, path, match, st)
                fresh.append(meta)
                if o is not None and tuple(meta["sig"]) != UNKNOWN_SIG:
                    o.dirty = False
            except FileNotFoundError:
                self._unread.discard(mid)
                if self.read_only:  # deleted by the writer since it was listed
                    self._forget(mid)
                continue
            except CorruptFileError as e:
                self._unread.discard(mid)
                self._move_aside(path, e.why)
                forgot |= self._forget(mid, write=False)
            except StoreError:
                raise
            except ScorekeeperError as e:  # e.g. a game this version does not know: kept, not listed
                self._unread.discard(mid)
                self._note(f"match {mid} holds an invalid record ({e}); it is kept but cannot be played")
                forgot |= self._forget(mid, write=False)
            except OSError as e:  # the disk's trouble, not the file's: never forgotten for it
                self._unreadable(path, e)
                if mid not in self._meta:
                    self._unread.add(mid)
            except MemoryError:  # the server's trouble, not the record's: read again next time
                if mid not in self._meta:
                    self._unread.add(mid)
            except Exception as e:  # a record no engine expected: still only this match is affected
                self._unread.discard(mid)
                self._note(
                    f"match {mid} holds a record that could not be read ({type(e).__name__}: {e}); "
                    "it is kept but cannot be played"
                )
                forgot |= self._forget(mid, write=False)
        if fresh:
            self._meta.update({m["id"]: m for m in fresh})
            self._unread.difference_update(m["id"] for m in fresh)
        if (fresh or forgot) and write:
            self._write_index()

    def _read_unread(self) -> None:
        """Try again the match files that could not be read (the disk's trouble) and that the
        index does not have: each is listed as soon as it can be read."""
        if self._unread:
            self._refresh(sorted(self._unread))

    # ------------------------------------------------------------ public API
    def ids(self) -> list[str]:
        self._check_open()
        self._read_unread()
        return list(self._meta)

    def count(self) -> int:
        self._check_open()
        self._read_unread()
        return len(self._meta)

    @_os_errors("create a match", "save the new match", "nothing was stored")
    def create(self, record: Record) -> str:
        """Store a new match from a record (validated through the engine); returns its id.
        When it returns, the match is on the disk; when it raises, nothing was stored."""
        self._check_writable("create a match")
        return self.bulk_import([record])[0]

    import_record = create

    @_os_errors("import records", "import", "nothing was stored")
    def bulk_import(self, records: Iterable[Record]) -> list[str]:
        """Store many records; each is validated first, and the index is written once.
        All or nothing: if a match file cannot be written, those written before it are
        taken back and a StoreError says nothing was stored. Once every match file is
        on the disk the import has succeeded, even if the index cannot be written (it
        is then kept in memory and reported in ``problems``)."""
        self._check_writable("import records")
        checked = [self._checked_copy(r) for r in records]
        ids: list[str] = []
        opened: list[_Open] = []
        for n, (record, match) in enumerate(checked, start=1):
            o: _Open | None = None
            try:
                given: Any = record.get("id")  # kept when it is a match id and free
                mid: str = given if self._free(given, ids) else _new_id()
                while not self._free(mid, ids):
                    mid = _new_id()
                path = self._match_path(mid)
                o = _Open(TinyDB(path, storage=AtomicJSONStorage), record, [], match, _now(), path, dirty=True)
                doc: Record = {"schema": SCHEMA, "id": mid, "created": o.created, "record": record, "redo": []}
                o.db.storage.write({"match": {"1": doc}})
            except OSError as e:  # a write that failed left no file, unless only the directory's sync failed
                tried = list(zip(ids, opened, strict=True))
                if o is not None and isinstance(e, NotDurableError):
                    tried.append((mid, o))
                raise self._take_back(tried, e, n, len(checked)) from e
            ids.append(mid)
            opened.append(o)
        self._open_matches.update(zip(ids, opened, strict=True))
        self._refresh(ids)  # never fails for the index: it is then kept in memory
        if len(checked) > 1:  # do not keep a whole import in memory
            for mid in ids:
                self._open_matches.pop(mid, None)
        return ids

    def _free(self, mid: Any, taken: list[str]) -> bool:
        """Whether a new match may have the id ``mid``: a match id that no match, no file
        (even one that could not be read) and no record of this import has. A file that
        cannot be looked at raises its OSError (it may be there)."""
        if not is_id(mid) or mid in self._meta or mid in self._unread or mid in taken:
            return False
        try:
            os.lstat(self._match_path(mid))
        except FileNotFoundError:
            return True
        return False

    def _take_back(self, tried: list[tuple[str, _Open]], e: OSError, n: int, total: int) -> StoreError:
        """Remove the files an import that failed at record ``n`` wrote (``tried``: the last
        one's write may have failed after putting its file in place); the error to raise. A
        file that cannot be removed is stored after all: listed, and named in the message."""
        stuck = []
        for mid, o in tried:
            try:
                os.unlink(self._match_path(mid))
            except FileNotFoundError:
                pass
            except OSError:
                try:
                    os.lstat(self._match_path(mid))
                except FileNotFoundError:
                    continue  # its own write never put it in place
                except OSError:
                    pass
                stuck.append((mid, o))
        try:
            fsync_dir(self.matches_dir)
        except OSError:
            pass
        what = "the match" if total == 1 else f"record {n} of {total}"
        if not stuck:
            return StoreError(
                f"{what} could not be stored ({_reason(e)}); nothing was stored",
                plain=plain_line("save the new match" if total == 1 else "import", e, "nothing was stored"),
            )
        for mid, o in stuck:  # on the disk after all: this store lists them too
            o.dirty = True
            self._open_matches[mid] = o
        self._refresh([mid for mid, _ in stuck])
        kept = [mid for mid, _ in stuck if mid in self._meta]
        for mid, _ in stuck:
            if mid not in self._meta:
                self._open_matches.pop(mid, None)
        if not kept:
            return StoreError(
                f"{what} could not be stored ({_reason(e)}); nothing was stored",
                plain=plain_line("save the new match" if total == 1 else "import", e, "nothing was stored"),
            )
        names = ", ".join(kept)
        return StoreError(
            f"{what} could not be stored ({_reason(e)}); {len(kept)} match(es) written before the "
            f"failure could not be taken back and are stored: {names}",
            plain=plain_line("import", e, f"{len(kept)} match(es) are stored all the same: {names}"),
        )

    def _checked_copy(self, record: Any) -> tuple[Record, Any]:
        """A private, JSON-clean copy of a record, and its engine state (every entry legal).
        The record passes the door of records from outside first (:func:`boundary.check`:
        limits, the rule for names and text), wherever it comes from."""
        if not isinstance(record, dict):
            raise StoreError(f"a record must be a JSON object, not {type_name(record)}")
        boundary.check(record)
        copied = json.loads(json.dumps(record))
        return copied, registry.game_of(copied).load(copied)  # a match may be in progress

    @_os_errors("look for the match", "look for the match", None)
    def find(self, record: Any) -> str | None:
        """The id of a stored match that is the same as ``record``, or None (the newest
        one if there are several). The same: the same game, players, teams, rules (as the
        engine reads them: a default written out or left out is the same), ``started``
        (both the same time, or both none) and the same hands, entry by entry, however a
        tile is spelled; the ``id``, ``title`` and ``notes`` do not count. ``record`` is
        checked through its engine first (its error is raised).

        Cheap: the index's cached fields (game, players, number of hands, scores, started)
        rule out every other match; only the matches that pass are read from their files."""
        self._check_open()
        copied, match = self._checked_copy(record)
        key = _sameness(copied, match)
        brief = _brief(copied, match)
        started = copied.get("started")
        found: list[tuple[str, str]] = []
        if self.read_only:  # a writer may have changed any match since the store was opened
            self._refresh_stale(list(self._meta))
        for mid, meta in list(self._meta.items()):
            o = None if self.read_only else self._open_matches.get(mid)
            if o is not None:  # its cached fields may be behind what was appended since
                if _brief(o.record, o.match) == brief and _sameness(o.record, o.match) == key:
                    found.append((o.created, mid))
                continue
            cached = (meta.get("game"), meta.get("players"), meta.get("hands"), meta.get("scores"))
            if cached != brief or (started is not None and meta.get("started") != started):
                continue
            try:
                doc = self._read_match_doc(self._match_path(mid))
                other = doc["record"]
                if _sameness(other, registry.game_of(other).load(other)) == key:
                    found.append((str(doc.get("created") or ""), mid))
            except (CorruptFileError, ScorekeeperError):
                continue  # a damaged file is not this record (opening it says why)
            # an OSError (the disk's trouble) is raised: the match may well be this record
        return max(found)[1] if found else None

    @_os_errors("read the match", "read the match", None)
    def record(self, mid: str) -> Record:
        """A copy of the stored record."""
        return copy.deepcopy(self._load(mid).record)

    @_os_errors("read the match", "read the match", None)
    def match(self, mid: str) -> Any:
        """The engine state of a match, the game's ``Match`` (do not push to it: use append)."""
        return self._load(mid).match

    @_os_errors("export the match", "export the match", None)
    def export(self, mid: str) -> str:
        """The stored record as JSON text that imports back to the same record. A control,
        direction or format character (of a record stored before the rule for text, see
        :mod:`scorekeeper.text`) is written as a JSON escape, so printing it changes
        nothing on a terminal; a record without one is written as it always was."""
        return text.json_text(self._load(mid).record, indent=2) + "\n"

    @_os_errors("append an entry", "save")
    def append(self, mid: str, entry: Record, *, _redo: bool = False) -> None:
        """Add one entry; durable when this returns. An illegal entry changes nothing; nor
        does one holding text that breaks the rule of :mod:`scorekeeper.text`."""
        self._check_writable("append an entry")
        boundary.check(entry)
        o = self._load(mid)
        codec = registry.game_of(o.record).entries
        kind, value = codec.entry_kind(entry)
        m = o.match
        codec.push(m, o.record, kind, value)  # raises the engine's error; nothing changed
        value = json.loads(json.dumps(value))
        codec.apply(o.record, kind, value)
        redo = o.redo
        if not _redo:
            o.redo = []

        def take_back() -> None:
            o.redo = redo
            codec.undo(m, o.record, codec.drop_last(o.record))

        self._save(mid, o, take_back)
        if m.winner is not None:  # listed as won at once; the index file follows at close or list
            try:
                self._meta[mid] = self._meta_of(mid, o.record, o.created, o.path, m)
            except OSError:
                pass  # the entry is stored; the listing catches up when the file is next looked at

    @_os_errors("undo an entry", "undo")
    def undo(self, mid: str) -> Record:
        """Take back the last entry (kept for redo); returns it."""
        self._check_writable("undo an entry")
        o = self._load(mid)
        codec = registry.game_of(o.record).entries
        entry = codec.drop_last(o.record)
        codec.undo(o.match, o.record, entry)
        o.redo.append(entry)

        def take_back() -> None:  # enter it again, as redo does
            o.redo.pop()
            kind, value = codec.entry_kind(entry)
            codec.push(o.match, o.record, kind, value)
            codec.apply(o.record, kind, value)

        self._save(mid, o, take_back)
        return entry

    @_os_errors("redo an entry", "redo")
    def redo(self, mid: str) -> Record:
        """Enter again the entry the last undo took back; returns it."""
        self._check_writable("redo an entry")
        o = self._load(mid)
        if not o.redo:
            raise StoreError("there is nothing to redo")
        entry = o.redo.pop()
        try:
            self.append(mid, entry, _redo=True)
        except ScorekeeperError:
            o.redo.append(entry)
            raise
        return entry

    @_os_errors("edit an entry", "save the correction")
    def edit(self, mid: str, hand: int, turn: int | str, value: Any) -> None:
        """Correct an earlier entry: turn ``turn`` of hand ``hand`` (1-based), or its
        ``"leader"`` or ``"remaining"`` (All Fours: a fact's key, e.g. ``"high"``; None removes it). The whole match is checked again through the
        engine; if a later entry becomes illegal, the engine's error is raised and
        the stored match is unchanged."""
        self._check_writable("edit an entry")
        boundary.check(value)  # the new entry's text, as for a new record
        o = self._load(mid)
        game = registry.game_of(o.record)
        record = copy.deepcopy(o.record)
        hands = record.get("hands", [])
        if type(hand) is not int or not 1 <= hand <= len(hands):
            raise StoreError(f"match {mid} has no hand {hand}")
        game.entries.edit(record, hand, turn, value)
        record = json.loads(json.dumps(record))
        match = game.load(record)  # the engine's error, naming hand and turn, if it no longer holds
        old = (o.record, o.match, o.redo)
        o.record, o.match, o.redo = record, match, []

        def take_back() -> None:
            o.record, o.match, o.redo = old

        self._save(mid, o, take_back)
        self._refresh([mid])

    @_os_errors("delete the match", "delete the match", "it is still stored")
    def delete(self, mid: str) -> None:
        self._check_writable("delete a match")
        o = self._load(mid)
        try:
            os.unlink(o.path)
        except FileNotFoundError:
            pass
        except OSError as e:
            raise StoreError(
                f"match {mid} could not be deleted ({_reason(e)}); it is still stored",
                plain=plain_line("delete the match", e, "it is still stored"),
            ) from e
        self._open_matches.pop(mid, None)
        o.db.close()
        try:
            fsync_dir(self.matches_dir)
        except OSError:
            pass  # deleted; a power cut may bring the file back, and it is then listed again
        self._forget(mid)

    @_os_errors("refresh the match", "read the match", None)
    def refresh(self, mid: str) -> None:
        """Bring the index's cached fields of one match up to date now (read-only: in memory)."""
        self._load(mid)
        self._refresh([mid])

    @_os_errors("read the match", "read the match", None)
    def summary(self, mid: str) -> Record:
        """One match's list entry, fresh from its record (the index is not written)."""
        o = self._load(mid)
        meta = self._meta_of(mid, o.record, o.created, o.path, o.match, o.stat)
        return {k: v for k, v in meta.items() if k != "sig"}

    @_os_errors("list the match files", "list the matches", None)
    def signatures(self) -> dict[str, list[int] | None]:
        """Every listed match's file signature as it is now (inode, size, mtime and ctime in
        nanoseconds; None when the file could not be looked at). Caches derived from the
        records (the statistics) compare it with the signature they were built from."""
        self._check_open()
        return {mid: sig for mid, sig in self._match_files(quiet=True) if mid in self._meta}

    @_os_errors("read the match", "read the match", None)
    def peek(self, mid: str) -> tuple[Record, str | None, list[int]]:
        """(record, created, signature) of a listed match, read from its file as it is now,
        without opening it for play (nothing is kept in memory; nothing moved aside). A file
        that cannot be used is a StoreError; the caller goes on without that match."""
        self._check_open()
        if not is_id(mid) or mid not in self._meta:
            raise StoreError(f"no match {mid!r} in {self.path}")
        o = None if self.read_only else self._open_matches.get(mid)
        if o is not None and o.stat is None:
            try:
                sig = _signature(o.path.stat())
            except OSError:
                sig = []
            return copy.deepcopy(o.record), o.created, sig
        try:
            doc, st = self._read_match_file(self._match_path(mid))
        except CorruptFileError as e:
            raise StoreError(f"match {mid} could not be read ({e.why})") from None
        return doc["record"], doc.get("created"), _signature(st)

    def kind(self, mid: str, game: Any) -> str:
        """The kind of game listed match ``mid`` (of game ``game``) is, as people name it
        (:func:`scorekeeper.registry.kind_of`: Fives and Threes apart from All Fives). Its
        record is read only for a game that has kinds; one changed or gone since it was
        listed, or unreadable: its game's id."""
        if not registry.has_kinds(game):
            return str(game)
        try:
            record, _, _ = self.peek(mid)
            return registry.kind_of(record)
        except ScorekeeperError:
            return str(game)

    @_os_errors("list the matches", "list the matches", None)
    def list(self, offset: int = 0, limit: int | None = 20) -> list[Record]:
        """Matches, newest first (by creation), paged; cached fields refreshed where stale."""
        self._check_open()
        self._read_unread()
        order = sorted(self._meta.values(), key=lambda m: (m.get("created") or "", m["id"]), reverse=True)
        page = order[offset : None if limit is None else offset + limit]
        self._refresh_stale([m["id"] for m in page])
        return [{k: v for k, v in self._meta[m["id"]].items() if k != "sig"} for m in page if m["id"] in self._meta]

    def _refresh_stale(self, mids: Iterable[str]) -> None:
        """Refresh the cached fields of these matches where they are behind their files.
        A read-only store checks every file (a writer may have changed any) and forgets
        the matches whose files are gone."""
        stale = []
        for mid in mids:
            o = None if self.read_only else self._open_matches.get(mid)
            if o is not None:
                if o.dirty:
                    stale.append(mid)
                continue
            try:
                if _signature(self._match_path(mid).stat()) != self._meta[mid].get("sig"):
                    stale.append(mid)
            except FileNotFoundError:
                if self.read_only:  # deleted by the writer since it was listed
                    self._forget(mid)
                continue
            except OSError:
                stale.append(mid)  # reading it says why
        if stale:
            self._refresh(stale)

    @_os_errors("look for a match to resume", "look for a match to resume", None)
    def latest_unfinished(self) -> str | None:
        """The id of the most recently changed match that is not won yet (to resume)."""
        self._check_open()
        if self.read_only:  # a match may have been won since the store was opened
            self._refresh_stale(list(self._meta))
        best = None
        for m in self._meta.values():
            if m.get("status") == "won":
                continue
            path = self._match_path(m["id"])
            try:
                t = path.stat().st_mtime_ns
            except OSError:
                continue
            key = (t, m.get("created") or "")
            if best is None or key > best[0]:
                best = (key, m["id"])
        return None if best is None else best[1]
