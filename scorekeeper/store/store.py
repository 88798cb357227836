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
"""

from __future__ import annotations

import copy
import datetime as _dt
import fcntl
import json
import os
import re
import secrets
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB
from tinydb.table import Table

from scorekeeper import registry
from scorekeeper.envelope import type_name
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store.errors import StoreError, StoreLockedError
from scorekeeper.store.storage import TEMP_MARK, AtomicJSONStorage, CorruptFileError, fsync_dir, read_tables

Record = dict[str, Any]  # a match record, or another JSON object (an entry, a document of the index)

SCHEMA = 1
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


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
    an exclusive lock on it while open (a second one is refused with
    StoreLockedError). ``Store(path, read_only=True)`` only reads: no lock, nothing
    written, so it opens while another Scorekeeper holds the database; a missing
    database is a StoreError, and every method that writes raises StoreError.
    It lists the matches whose files were there when it was opened (and any match
    read since); each read of a match gives its file as it is now."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.read_only = read_only
        self.problems: list[str] = []
        self.matches_dir = self.path / "matches"
        self._open_matches: dict[str, _Open] = {}
        self._lock_fd: int | None = None
        self._index: Table | None = None  # None in a read-only store: the index is never written
        if read_only:
            self._check_database_dir()
            self._meta = self._read_index()
            self._is_open = True
            self._check_recent_files()
            return
        try:
            _durable_mkdir(self.matches_dir)
        except OSError as e:
            raise StoreError(f"cannot use {self.path} as a database: {e.strerror or e}") from None
        self._lock_fd = self._lock()
        self._is_open = True
        try:
            self._index_db = self._open_index()
            self._remove_temp_files()
            self._index = self._index_db.table("matches")
            self._meta = {doc["id"]: dict(doc) for doc in self._index.all()}
            self._check_recent_files()
        except BaseException:
            self._is_open = False
            self._unlock()
            raise

    # ------------------------------------------------------------ lifecycle
    def _lock(self) -> int:
        lock_path = self.path / "lock"
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                pid = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
            except OSError:
                pid = "unknown"
            os.close(fd)
            raise StoreLockedError(
                f"the database {self.path} is in use by another Scorekeeper (pid {pid}); close that one first"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        return fd

    def _unlock(self) -> None:
        fd: int | None = getattr(self, "_lock_fd", None)
        self._lock_fd = None
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def close(self) -> None:
        """Bring the index up to date and release the lock (a read-only store: just close)."""
        if not self._is_open:
            return
        try:
            dirty = [mid for mid, o in self._open_matches.items() if o.dirty]
            if dirty:
                self._refresh(dirty)
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

    def _move_aside(self, path: Path, why: str) -> None:
        """Report a corrupt file and move it aside; a read-only store reports it and leaves it where it is."""
        if self.read_only:
            problem = f"{path.name} could not be read ({why}); it was left as it is (the database was opened read-only)"
            if problem not in self.problems:  # it is still there, and may be read again
                self.problems.append(problem)
            return
        stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
        aside = path.with_name(f"{path.name}.corrupt-{stamp}")
        os.replace(path, aside)
        self.problems.append(f"{path.name} could not be read ({why}); it was moved aside to {aside.name}")

    def _newer_schema(self, path: Path, schema: Any) -> StoreError:
        return StoreError(
            f"{path} was written by a newer Scorekeeper (schema {schema}); this version reads schema "
            f"{SCHEMA}: update Scorekeeper to open this database"
        )

    def _open_index(self) -> TinyDB:
        index_path = self.path / "index.json"
        db = TinyDB(index_path, storage=AtomicJSONStorage)
        try:
            meta = db.table("meta").all()
            db.table("matches").all()
        except CorruptFileError as e:
            db.close()
            self._move_aside(index_path, e.why)
            db = TinyDB(index_path, storage=AtomicJSONStorage)
            self._rebuild_index(db)
            return db
        schema = meta[0].get("schema") if meta else None
        if schema is None:
            if len(db.table("matches")) or any(self.matches_dir.iterdir()):
                self._rebuild_index(db)  # an index lost its meta: rebuild from the records
            else:
                db.table("meta").insert({"schema": SCHEMA})
        elif type(schema) is not int or schema > SCHEMA:
            db.close()
            raise self._newer_schema(index_path, schema)
        return db

    def _check_database_dir(self) -> None:
        """A read-only store opens only an existing directory (it creates nothing)."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise StoreError(f"no database at {self.path} (nothing has been stored there yet)") from None
        except OSError as e:
            raise StoreError(f"cannot use {self.path} as a database: {e.strerror or e}") from None
        if not stat.S_ISDIR(st.st_mode):
            raise StoreError(f"cannot use {self.path} as a database: not a directory")

    def _read_index(self) -> dict[str, Record]:
        """The index's documents as a read-only store reads them: a missing index, or one
        without its schema, is no index (every match is then read from its file); a corrupt
        one is reported and left as it is; a newer schema is refused as in a store that writes."""
        index_path = self.path / "index.json"
        try:
            tables, _ = read_tables(index_path)
        except FileNotFoundError:
            return {}
        except CorruptFileError as e:
            self.problems.append(
                f"index.json could not be read ({e.why}); the matches were read from their files "
                "(the database was opened read-only: the index was left as it is)"
            )
            return {}
        meta = list(tables.get("meta", {}).values())
        schema = meta[0].get("schema") if meta and isinstance(meta[0], dict) else None
        if schema is None:
            return {}
        if type(schema) is not int or schema > SCHEMA:
            raise self._newer_schema(index_path, schema)
        docs = tables.get("matches", {}).values()
        return {doc["id"]: dict(doc) for doc in docs if isinstance(doc, dict) and isinstance(doc.get("id"), str)}

    def _rebuild_index(self, db: TinyDB) -> None:
        metas = []
        for path in sorted(self.matches_dir.glob("*.json")):
            mid = path.stem
            try:
                doc = self._read_match_doc(path)
                metas.append(self._meta_of(mid, doc["record"], doc.get("created"), path))
            except CorruptFileError as e:
                self._move_aside(path, e.why)
            except ScorekeeperError as e:
                self.problems.append(f"{path.name}: {e}")
        db.drop_tables()
        db.table("meta").insert({"schema": SCHEMA})
        if metas:
            db.table("matches").insert_multiple(metas)
        self.problems.append(f"the index was rebuilt from {len(metas)} match files")

    def _match_files(self) -> Iterator[tuple[str, list[int]]]:
        """(id, signature) of every match file. Temporary files of a write (``.<name>.tmp-<pid>``,
        perhaps in flight) and files moved aside (``<name>.corrupt-...``) are not match files."""
        try:
            entries = list(os.scandir(self.matches_dir))
        except FileNotFoundError:
            if self.read_only:  # a database directory without matches yet
                return
            raise
        for entry in entries:
            if not entry.name.endswith(".json") or entry.name.startswith("."):
                continue
            try:
                st = entry.stat()
            except FileNotFoundError:  # deleted since it was listed (only a read-only store sees this)
                continue
            yield entry.name[:-5], _signature(st)

    def _check_recent_files(self) -> None:
        """Check every match file changed since the index last saw it (a crash happens there)."""
        seen = set()
        changed = []
        for mid, sig in self._match_files():
            seen.add(mid)
            meta = self._meta.get(mid)
            if meta is None or meta.get("sig") != sig:
                changed.append(mid)
        gone = [mid for mid in self._meta if mid not in seen]
        for mid in gone:
            self.problems.append(f"match {mid} is listed in the index but its file is missing")
            del self._meta[mid]
        if gone and self._index is not None:
            self._index.remove(Query().id.one_of(gone))
        if changed:
            self._refresh(changed, report=True)

    # ------------------------------------------------------------ match files
    def _match_path(self, mid: str) -> Path:
        return self.matches_dir / f"{mid}.json"

    def _read_match_file(self, path: Path) -> tuple[Record, os.stat_result]:
        """A match file's document, and the stat of the very file that was read."""
        tables, st = read_tables(path)
        docs = list(tables.get("match", {}).values())
        if len(docs) != 1 or not isinstance(docs[0], dict) or not isinstance(docs[0].get("record"), dict):
            raise CorruptFileError(path, "not a Scorekeeper match file")
        schema = docs[0].get("schema")
        if type(schema) is not int:
            raise CorruptFileError(path, "no schema version")
        if schema > SCHEMA:
            raise self._newer_schema(path, schema)
        return dict(docs[0]), st

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
        if not isinstance(mid, str) or not ID_RE.match(mid) or mid not in self._meta:
            raise StoreError(f"no match {mid!r} in {self.path}")
        path = self._match_path(mid)
        try:
            doc = self._read_match_doc(path)
        except FileNotFoundError:
            self._forget(mid)
            self.problems.append(f"the file of match {mid} is missing")
            raise StoreError(f"the file of match {mid} is missing") from None
        except CorruptFileError as e:
            self._move_aside(path, e.why)
            self._forget(mid)
            raise StoreError(f"match {mid} could not be read ({e.why}); its file was moved aside") from None
        record = doc["record"]
        match = registry.game_of(record).load(record)
        db = TinyDB(path, storage=AtomicJSONStorage)
        o = _Open(db, record, list(doc.get("redo", [])), match, doc.get("created") or _now(), path)
        self._open_matches[mid] = o
        return o

    def _load_fresh(self, mid: str) -> _Open:
        """A read-only store's match ``mid`` as its file holds it now: read again whenever the
        file changed (a writer replaces it whole), and found even if it is newer than the store."""
        if not isinstance(mid, str) or not ID_RE.match(mid):
            raise StoreError(f"no match {mid!r} in {self.path}")
        path = self._match_path(mid)
        o = self._open_matches.get(mid)
        if o is not None and o.stat is not None:
            try:
                if _signature(path.stat()) == _signature(o.stat):
                    return o
            except FileNotFoundError:
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
            self._move_aside(path, e.why)  # reported, left as it is
            self._forget(mid)
            raise StoreError(f"match {mid} could not be read ({e.why}); its file was left as it is") from None
        record = doc["record"]
        match = registry.game_of(record).load(record)
        db = TinyDB(path, storage=AtomicJSONStorage, read_only=True)
        created = doc.get("created")
        o = _Open(db, record, list(doc.get("redo", [])), match, created or _now(), path, stat=st)
        self._open_matches[mid] = o
        self._meta[mid] = self._meta_of(mid, record, created, path, match, st)  # in memory only
        return o

    def _forget(self, mid: str) -> None:
        """Drop a match from the index (its file is gone or moved aside); read-only: from memory."""
        self._open_matches.pop(mid, None)
        if self._meta.pop(mid, None) is not None and self._index is not None:
            self._index.remove(Query().id == mid)

    def _save(self, mid: str, o: _Open) -> None:
        doc = {"schema": SCHEMA, "id": mid, "created": o.created, "record": o.record, "redo": o.redo}
        try:
            table = o.db.table("match")
            if len(table):
                table.update(doc, doc_ids=[1])
            else:
                table.insert(doc)
        except OSError as e:
            # the file on disk is unchanged; forget what is in memory
            self._open_matches.pop(mid, None)
            raise StoreError(f"match {mid} could not be saved ({e.strerror or e}); nothing was changed") from None
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
        """A match's document of the index; ``st``: the stat of the file ``record`` was read from (else stat ``path``)."""
        if match is None:
            match = registry.game_of(record).load(record)
        setup = match.setup
        if st is None:
            st = path.stat()
        status = "won" if match.winner is not None else ("new" if not match.hands else "playing")
        return {
            "id": mid,
            "game": record.get("game"),
            "players": list(setup.players),
            "title": record.get("title"),
            "started": record.get("started") or created,
            "created": created,
            "updated": _dt.datetime.fromtimestamp(st.st_mtime, _dt.UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "status": status,
            "scores": dict(zip(setup.sides, match.scores, strict=True)),
            "winner": None if match.winner is None else setup.sides[match.winner],
            "hands": len(match.hands),
            "sig": _signature(st),
        }

    def _refresh(self, mids: Iterable[str], report: bool = False) -> None:
        """Rebuild the cached fields of these matches from their files; one index write
        (a read-only store: in memory only, always from the files as they are now)."""
        fresh = []
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
                fresh.append(self._meta_of(mid, record, created, path, match, st))
                if o is not None:
                    o.dirty = False
            except FileNotFoundError:
                if self.read_only:  # deleted by the writer since it was listed
                    self._forget(mid)
                continue
            except CorruptFileError as e:
                self._move_aside(path, e.why)
                self._forget(mid)
            except StoreError:
                raise
            except ScorekeeperError as e:
                if report:
                    self.problems.append(f"match {mid} holds an invalid record ({e}); it is kept but cannot be played")
        if fresh:
            q = Query()
            by_id = {m["id"]: m for m in fresh}
            self._meta.update(by_id)
            if self._index is None:  # read-only
                return
            known = {d["id"] for d in self._index.search(q.id.one_of(list(by_id)))}
            if known:
                self._index.update_multiple([(m, q.id == m["id"]) for m in fresh if m["id"] in known])
            new = [m for m in fresh if m["id"] not in known]
            if new:
                self._index.insert_multiple(new)

    # ------------------------------------------------------------ public API
    def ids(self) -> list[str]:
        self._check_open()
        return list(self._meta)

    def count(self) -> int:
        self._check_open()
        return len(self._meta)

    def create(self, record: Record) -> str:
        """Store a new match from a record (validated through the engine); returns its id."""
        self._check_writable("create a match")
        return self.bulk_import([record])[0]

    import_record = create

    def bulk_import(self, records: Iterable[Record]) -> list[str]:
        """Store many records; each is validated first, and the index is written once."""
        self._check_writable("import records")
        checked = [self._checked_copy(r) for r in records]
        ids = []
        for record, match in checked:
            mid = record.get("id")
            if not isinstance(mid, str) or not ID_RE.match(mid) or mid in self._meta or mid in ids:
                mid = _new_id()
                while mid in self._meta or mid in ids:
                    mid = _new_id()
            path = self._match_path(mid)
            o = _Open(TinyDB(path, storage=AtomicJSONStorage), record, [], match, _now(), path)
            self._open_matches[mid] = o
            self._save(mid, o)
            ids.append(mid)
        self._refresh(ids)
        if len(checked) > 1:  # do not keep a whole import in memory
            for mid in ids:
                self._open_matches.pop(mid, None)
        return ids

    def _checked_copy(self, record: Any) -> tuple[Record, Any]:
        """A private, JSON-clean copy of a record, and its engine state (every entry legal)."""
        if not isinstance(record, dict):
            raise StoreError(f"a record must be a JSON object, not {type_name(record)}")
        copied = json.loads(json.dumps(record))
        return copied, registry.game_of(copied).load(copied)  # a match may be in progress

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
            except (OSError, CorruptFileError, ScorekeeperError):
                continue  # a file that cannot be read is not this record (opening it says why)
        return max(found)[1] if found else None

    def record(self, mid: str) -> Record:
        """A copy of the stored record."""
        return copy.deepcopy(self._load(mid).record)

    def match(self, mid: str) -> Any:
        """The engine state of a match, the game's ``Match`` (do not push to it: use append)."""
        return self._load(mid).match

    def export(self, mid: str) -> str:
        """The stored record as JSON text that imports back to the same record."""
        return json.dumps(self._load(mid).record, ensure_ascii=False, indent=2) + "\n"

    def append(self, mid: str, entry: Record, *, _redo: bool = False) -> None:
        """Add one entry; durable when this returns. An illegal entry changes nothing."""
        self._check_writable("append an entry")
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
        try:
            self._save(mid, o)
        except StoreError:
            o.redo = redo
            raise
        if m.winner is not None:  # listed as won at once; the index file follows at close or list
            self._meta[mid] = self._meta_of(mid, o.record, o.created, o.path, m)

    def undo(self, mid: str) -> Record:
        """Take back the last entry (kept for redo); returns it."""
        self._check_writable("undo an entry")
        o = self._load(mid)
        codec = registry.game_of(o.record).entries
        entry = codec.drop_last(o.record)
        codec.undo(o.match, o.record, entry)
        o.redo.append(entry)
        self._save(mid, o)
        return entry

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

    def edit(self, mid: str, hand: int, turn: int | str, value: Any) -> None:
        """Correct an earlier entry: turn ``turn`` of hand ``hand`` (1-based), or its
        ``"leader"`` or ``"remaining"`` (All Fours: a fact's key, e.g. ``"high"``; None removes it). The whole match is checked again through the
        engine; if a later entry becomes illegal, the engine's error is raised and
        the stored match is unchanged."""
        self._check_writable("edit an entry")
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
        try:
            self._save(mid, o)
        except StoreError:
            o.record, o.match, o.redo = old
            raise
        self._refresh([mid])

    def delete(self, mid: str) -> None:
        self._check_writable("delete a match")
        self._load(mid)
        o = self._open_matches.pop(mid)
        o.db.close()
        os.unlink(o.path)
        self._forget(mid)

    def refresh(self, mid: str) -> None:
        """Bring the index's cached fields of one match up to date now (read-only: in memory)."""
        self._load(mid)
        self._refresh([mid])

    def summary(self, mid: str) -> Record:
        """One match's list entry, fresh from its record (the index is not written)."""
        o = self._load(mid)
        meta = self._meta_of(mid, o.record, o.created, o.path, o.match, o.stat)
        return {k: v for k, v in meta.items() if k != "sig"}

    def list(self, offset: int = 0, limit: int | None = 20) -> list[Record]:
        """Matches, newest first (by creation), paged; cached fields refreshed where stale."""
        self._check_open()
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
        if stale:
            self._refresh(stale)

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
            except FileNotFoundError:
                continue
            key = (t, m.get("created") or "")
            if best is None or key > best[0]:
                best = (key, m["id"])
        return None if best is None else best[1]
