"""The match store: match records in a directory, every entry durable the moment it is entered.

:class:`Store` is thin: it opens the database's parts, keeps the matches in play
in memory, and turns every OSError into a StoreError. The parts, each in a module
of its own:

- :mod:`~scorekeeper.store.layout`: what the directory holds, ids, the schema;
- :mod:`~scorekeeper.store.lock`: the lock and the pid of a Store that writes;
- :mod:`~scorekeeper.store.index`: ``index.json``, the cached listing, checked and refreshed;
- :mod:`~scorekeeper.store.files`: the match files, and a damaged one moved aside;
- :mod:`~scorekeeper.store.storage`: every write (temporary file, fsync, ``os.replace``);
- :mod:`~scorekeeper.store.play`: an entry appended, undone or edited through the engine;
- :mod:`~scorekeeper.store.imports`: a bulk import, all or nothing;
- :mod:`~scorekeeper.store.find`: the stored match that is the same as a record;
- :mod:`~scorekeeper.store.view`: :class:`~scorekeeper.store.view.ReadOnlyStore`, what
  ``Store(path, read_only=True)`` makes;
- :mod:`~scorekeeper.store.sidefile`: the files other parts of the app keep in the folder.

Appending an entry validates it through the game's engine (kept in memory for
open matches) and rewrites that match's own small file atomically; it never
touches the index, so its cost does not depend on how many matches are stored.

One bad file never takes the database down: a damaged match file is moved aside
and reported in ``Store.problems``; a bad index is moved aside and rebuilt from the
match files. Opening never needs to write: when the index cannot be written (a full
disk), the store goes on with it in memory. Every OSError the store meets reaches the
caller as a StoreError (see docs/store.md).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

from scorekeeper import boundary, registry, text
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import find as _find
from scorekeeper.store import imports as _imports
from scorekeeper.store import play as _play
from scorekeeper.store.errors import StoreError, os_errors, plain_line, reason
from scorekeeper.store.files import MatchFiles, OpenMatch
from scorekeeper.store.index import Index, document
from scorekeeper.store.layout import (
    MATCHES,
    SCHEMA,
    UNKNOWN_SIG,
    Problems,
    Record,
    default_path,
    durable_mkdir,
    is_id,
    now,
    signature,
)
from scorekeeper.store.lock import Lock
from scorekeeper.store.sidefile import SideFile
from scorekeeper.store.storage import CorruptFileError, read_tables, remove

__all__ = ["LOCK_WAIT", "SCHEMA", "Store", "default_path", "read_tables"]

#: How long (seconds) a Store that writes waits for another one to release the lock
#: (another command's import: a short writer) before it gives up; ``Store(path, wait=...)``,
#: or the environment's ``SCOREKEEPER_LOCK_WAIT`` for the commands.
LOCK_WAIT = 5.0


def _lock_wait() -> float:
    """:data:`LOCK_WAIT`, or ``SCOREKEEPER_LOCK_WAIT`` when it is a number of seconds (0 to 600)."""
    try:
        wait = float(os.environ.get("SCOREKEEPER_LOCK_WAIT", ""))
    except ValueError:
        return LOCK_WAIT
    return wait if 0 <= wait <= 600 else LOCK_WAIT


class Store:
    """A database of match records in a directory. ``with Store(path) as store: ...``

    ``Store(path)`` reads and writes: it creates the directory if need be and holds
    an exclusive lock on it while open. Another Store holding it is waited for up to
    ``wait`` seconds (:data:`LOCK_WAIT` by default: another command's import is over by
    then), then refused with StoreLockedError; a Store of this very process holding it
    is refused at once (waiting could not help). ``Store(path, read_only=True)`` makes a
    :class:`~scorekeeper.store.view.ReadOnlyStore`, which only reads (see there)."""

    #: Whether this store only reads (:class:`~scorekeeper.store.view.ReadOnlyStore`).
    read_only: ClassVar[bool] = False
    #: The type ``Store(path, read_only=True)`` makes; :mod:`scorekeeper.store.view` sets it.
    read_only_type: ClassVar[type[Store] | None] = None

    def __new__(cls, path: str | os.PathLike[str] | None = None, *, read_only: bool = False, **_: Any) -> Store:
        if read_only and not cls.read_only:
            if Store.read_only_type is None:
                raise StoreError("no read-only store: import scorekeeper.store, not scorekeeper.store.store alone")
            cls = Store.read_only_type
        return super().__new__(cls)

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False, wait: float | None = None
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.wait = _lock_wait() if wait is None else wait
        if not self.wait >= 0:  # NaN too
            raise ValueError(f"wait must be a number of seconds, 0 or more, not {wait!r}")
        self.problems = Problems()
        self.matches_dir = self.path / MATCHES
        self._open_matches: dict[str, OpenMatch] = {}
        self._files = self._make_files()
        self._index = self._make_index()
        self._lock: Lock | None = None
        self._is_open = False
        try:
            self._open()
        except OSError as e:
            self._release()
            raise StoreError(f"cannot open the database {self.path}: {reason(e)}") from e
        except BaseException:
            self._release()
            raise
        self._is_open = True

    # ------------------------------------------------------------ the parts (a read-only store's differ)
    def _make_files(self) -> MatchFiles:
        return MatchFiles(self.matches_dir, self.problems)

    def _make_index(self) -> Index:
        return Index(self.path, self._files, self.problems, self._open_matches, self._current)

    def _open(self) -> None:
        try:
            durable_mkdir(self.matches_dir)
        except OSError as e:
            raise StoreError(f"cannot use {self.path} as a database: {reason(e)}") from e
        self._lock = Lock.take(self.path, self.wait, self.problems.note)
        self._files.remove_temp_files(self.path)
        self._index.open()

    def _held(self, mid: str) -> OpenMatch | None:
        """The match kept in memory, the truth for this store (it wrote it); None: read its file."""
        return self._open_matches.get(mid)

    def _catch_up(self) -> None:
        """Before a look at every match (``find``, ``latest_unfinished``): nothing to do for the
        store that writes them (a read-only store refreshes them all: a writer may have changed any)."""

    def _check_writable(self, method: str) -> None:
        """Every method that writes starts here (a read-only store refuses it)."""
        self._check_open()

    def _release(self) -> None:
        lock, self._lock = self._lock, None
        if lock is not None:
            lock.release()

    # ------------------------------------------------------------ lifecycle
    @os_errors("close the store", "write the index", "every match is safe in its own file")
    def close(self) -> None:
        """Bring the index up to date and release the lock (a read-only store: just close).
        If the index cannot be written, the next open brings it up to date from the match files."""
        if not self._is_open:
            return
        try:
            dirty = [mid for mid, o in self._open_matches.items() if o.dirty]
            if dirty:
                self._index.refresh(dirty)
            elif self._index.behind or self._index.unsaved:
                self._index.write()
        finally:
            self._is_open = False
            self._open_matches.clear()
            self._release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if not self._is_open:
            raise StoreError("the store is closed")

    def side_file(self, name: str, *, mode: int = 0o644) -> SideFile:
        """A file another part of the app keeps in the database's folder (``stats.json``,
        ``players.json``, the web app's ``table.json`` ...): read whole and written
        atomically through the store's own durable write, with the permissions ``mode``;
        read-only in a read-only store. See :class:`SideFile`."""
        return SideFile(self.path, name, writable=not self.read_only, mode=mode)

    # ------------------------------------------------------------ match files
    def _read_match_file(self, path: Path) -> tuple[Record, os.stat_result]:
        """A match file's document, and the stat of the very file that was read (every read
        of a match file goes through here). A file that is no Scorekeeper match file of this
        schema or an older one is a CorruptFileError."""
        tables, st = read_tables(path)
        return self._files.parse(path, tables), st

    def _read_match_doc(self, path: Path) -> Record:
        return self._read_match_file(path)[0]

    def _current(self, mid: str) -> Record:
        """The index document of ``mid`` made now: from its open match, else from its file."""
        o = self._held(mid)
        if o is None:
            path = self._files.path(mid)
            doc, st = self._read_match_file(path)
            return document(mid, doc["record"], doc.get("created"), path, None, st)
        meta = document(mid, o.record, o.created, o.path, o.match)
        if tuple(meta["sig"]) != UNKNOWN_SIG:
            o.dirty = False
        return meta

    def _load(self, mid: str) -> OpenMatch:
        """The open match ``mid``, read from its file the first time."""
        self._check_open()
        o = self._open_matches.get(mid)
        if o is not None:
            return o
        if not is_id(mid) or mid not in self._index.docs:
            raise StoreError(f"no match {mid!r} in {self.path}")
        return self._read_open(mid)

    def _missing(self, mid: str, known: bool) -> StoreError:
        """The error of a match whose file is not there (``known``: the index listed it; it
        is forgotten by then)."""
        self.problems.append(f"the file of match {mid} is missing")
        return StoreError(f"the file of match {mid} is missing")

    def _read_open(self, mid: str) -> OpenMatch:
        """Read match ``mid`` from its file and keep it open. A missing file is forgotten, a
        damaged one moved aside and forgotten; a file the system would not let be read (too
        many open files, an I/O error, permission denied ...) is reported, left where it is,
        and the match stays listed with what the index knows of it -- its content may be
        fine, and the next try may work."""
        path = self._files.path(mid)
        try:
            doc, st = self._read_match_file(path)
        except FileNotFoundError:
            raise self._missing(mid, self._index.forget(mid)) from None
        except CorruptFileError as e:
            done = self._files.move_aside(path, e.why)
            self._index.forget(mid)
            raise StoreError(f"match {mid} could not be read ({e.why}); its file was {done}") from None
        except OSError as e:  # the disk's trouble, not the file's: the match stays listed
            done = self._files.unreadable(path, e)
            raise StoreError(
                f"match {mid} could not be read ({reason(e)}); its file was {done}",
                plain=plain_line("read the match", e),
            ) from e
        record = doc["record"]
        match = registry.game_of(record).load(record)
        created = doc.get("created")
        storage = self._files.storage(path)
        o = OpenMatch(storage, record, list(doc.get("redo", [])), match, created or now(), path)
        self._opened(mid, o, created, st)
        return o

    def _opened(self, mid: str, o: OpenMatch, created: str | None, st: os.stat_result) -> None:
        """Keep a match just read (a read-only store keeps the stat, and lists it as read)."""
        self._open_matches[mid] = o

    def _no_match(self, mid: str) -> StoreError:
        return StoreError(f"no match {mid!r} in {self.path}")

    # ------------------------------------------------------------ listing
    def ids(self) -> list[str]:
        self._check_open()
        self._index.read_unread()
        return list(self._index.docs)

    def count(self) -> int:
        self._check_open()
        self._index.read_unread()
        return len(self._index.docs)

    def _refresh_stale(self, mids: Iterable[str]) -> None:
        """Refresh the cached fields of these matches where they are behind their files."""
        stale = []
        for mid in mids:
            o = self._held(mid)
            if o is not None:
                if o.dirty:
                    stale.append(mid)
                continue
            try:
                if signature(self._files.path(mid).stat()) != self._index.docs[mid].get("sig"):
                    stale.append(mid)
            except FileNotFoundError:
                self._index.gone(mid)
                continue
            except OSError:
                stale.append(mid)  # reading it says why
        if stale:  # in memory: the index file follows at the next index write or at closing
            self._index.refresh(stale, write=False)

    @os_errors("list the match files", "list the matches", None)
    def signatures(self) -> dict[str, list[int] | None]:
        """Every listed match's file signature as it is now (inode, size, mtime and ctime in
        nanoseconds; None when the file could not be looked at). Caches derived from the
        records (the statistics) compare it with the signature they were built from."""
        self._check_open()
        return {mid: sig for mid, sig in self._files.scan(quiet=True) if mid in self._index.docs}

    @os_errors("look for a match to resume", "look for a match to resume", None)
    def latest_unfinished(self) -> str | None:
        """The id of the most recently changed match that is not won yet (to resume)."""
        self._check_open()
        self._catch_up()
        best = None
        for m in self._index.docs.values():
            if m.get("status") == "won":
                continue
            try:
                t = self._files.path(m["id"]).stat().st_mtime_ns
            except OSError:
                continue
            key = (t, m.get("created") or "")
            if best is None or key > best[0]:
                best = (key, m["id"])
        return None if best is None else best[1]

    # ------------------------------------------------------------ one match
    @os_errors("read the match", "read the match", None)
    def record(self, mid: str) -> Record:
        """A copy of the stored record."""
        return copy.deepcopy(self._load(mid).record)

    @os_errors("read the match", "read the match", None)
    def match(self, mid: str) -> Any:
        """The engine state of a match, the game's ``Match`` (do not push to it: use append)."""
        return self._load(mid).match

    @os_errors("export the match", "export the match", None)
    def export(self, mid: str) -> str:
        """The stored record as JSON text that imports back to the same record. A control,
        direction or format character (of a record stored before the rule for text, see
        :mod:`scorekeeper.text`) is written as a JSON escape, so printing it changes
        nothing on a terminal; a record without one is written as it always was."""
        return text.json_text(self._load(mid).record, indent=2) + "\n"

    @os_errors("refresh the match", "read the match", None)
    def refresh(self, mid: str) -> None:
        """Bring the index's cached fields of one match up to date now (read-only: in memory)."""
        self._load(mid)
        self._index.refresh([mid])

    @os_errors("read the match", "read the match", None)
    def summary(self, mid: str) -> Record:
        """One match's list entry, fresh from its record (the index is not written)."""
        o = self._load(mid)
        meta = document(mid, o.record, o.created, o.path, o.match, o.stat)
        return {k: v for k, v in meta.items() if k != "sig"}

    @os_errors("read the match", "read the match", None)
    def peek(self, mid: str) -> tuple[Record, str | None, list[int]]:
        """(record, created, signature) of a listed match, read from its file as it is now,
        without opening it for play (nothing is kept in memory; nothing moved aside). A file
        that cannot be used is a StoreError; the caller goes on without that match."""
        self._check_open()
        if not is_id(mid) or mid not in self._index.docs:
            raise self._no_match(mid)
        o = self._held(mid)
        if o is not None:
            try:
                sig = signature(o.path.stat())
            except OSError:
                sig = []
            return copy.deepcopy(o.record), o.created, sig
        try:
            doc, st = self._read_match_file(self._files.path(mid))
        except CorruptFileError as e:
            raise StoreError(f"match {mid} could not be read ({e.why})") from None
        return doc["record"], doc.get("created"), signature(st)

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

    @os_errors("look for the match", "look for the match", None)
    def find(self, record: Any) -> str | None:
        """The id of a stored match that is the same as ``record``, or None (see
        :func:`scorekeeper.store.find.find`: the id, title and notes do not count)."""
        self._check_open()
        return _find.find(record, self._listed, self._held, lambda mid: self._read_match_doc(self._files.path(mid)))

    def _listed(self) -> dict[str, Record]:
        """Every match the index lists, by id, after :meth:`_catch_up`."""
        self._catch_up()
        return self._index.docs

    # ------------------------------------------------------------ writing
    @os_errors("create a match", "save the new match", "nothing was stored")
    def create(self, record: Record) -> str:
        """Store a new match from a record (validated through the engine); returns its id.
        When it returns, the match is on the disk; when it raises, nothing was stored."""
        self._check_writable("create a match")
        return self.bulk_import([record])[0]

    import_record = create

    @os_errors("import records", "import", "nothing was stored")
    def bulk_import(self, records: Iterable[Record]) -> list[str]:
        """Store many records, all or nothing (see :func:`scorekeeper.store.imports.bulk_import`)."""
        self._check_writable("import records")
        return _imports.bulk_import(self._files, self._index, self._open_matches, records)

    @os_errors("append an entry", "save")
    def append(self, mid: str, entry: Record, *, _redo: bool = False) -> None:
        """Add one entry; durable when this returns. An illegal entry changes nothing; nor
        does one holding text that breaks the rule of :mod:`scorekeeper.text`."""
        self._check_writable("append an entry")
        boundary.check(entry)
        o = self._load(mid)
        self._files.save(mid, o, _play.append(o, entry, redo=_redo), self._open_matches)
        if o.match.winner is not None:  # listed as won at once; the index file follows at close or list
            try:
                self._index.docs[mid] = document(mid, o.record, o.created, o.path, o.match)
            except OSError:
                pass  # the entry is stored; the listing catches up when the file is next looked at

    @os_errors("undo an entry", "undo")
    def undo(self, mid: str) -> Record:
        """Take back the last entry (kept for redo); returns it."""
        self._check_writable("undo an entry")
        o = self._load(mid)
        entry, take_back = _play.undo(o)
        self._files.save(mid, o, take_back, self._open_matches)
        return entry

    @os_errors("redo an entry", "redo")
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

    @os_errors("edit an entry", "save the correction")
    def edit(self, mid: str, hand: int, turn: int | str, value: Any) -> None:
        """Correct an earlier entry: turn ``turn`` of hand ``hand`` (1-based), or its
        ``"leader"`` or ``"remaining"`` (All Fours: a fact's key, e.g. ``"high"``; None removes it);
        of a hand entered as points, its ``"points"`` or ``"first"``; of the ``hand``-th
        adjustment (an adjustment has no hand number), its ``"adjust"`` or ``"why"``. The whole
        match is checked again through the engine; if a later entry becomes illegal, the
        engine's error is raised and the stored match is unchanged."""
        self._check_writable("edit an entry")
        boundary.check(value)  # the new entry's text, as for a new record
        o = self._load(mid)
        self._files.save(mid, o, _play.edit(o, mid, hand, turn, value), self._open_matches)
        self._index.refresh([mid])

    @os_errors("delete the match", "delete the match", "it is still stored")
    def delete(self, mid: str) -> None:
        self._check_writable("delete a match")
        o = self._load(mid)
        try:
            remove(o.path)  # a power cut after it may bring the file back: it is then listed again
        except OSError as e:
            raise StoreError(
                f"match {mid} could not be deleted ({reason(e)}); it is still stored",
                plain=plain_line("delete the match", e, "it is still stored"),
            ) from e
        self._index.forget(mid)

    # ------------------------------------------------------------ listing (last: it shadows list)
    @os_errors("list the matches", "list the matches", None)
    def list(self, offset: int = 0, limit: int | None = 20) -> list[Record]:
        """Matches, newest first (by creation), paged; cached fields refreshed where stale."""
        self._check_open()
        self._index.read_unread()
        docs = self._index.docs
        order = sorted(docs.values(), key=lambda m: (m.get("created") or "", m["id"]), reverse=True)
        page = order[offset : None if limit is None else offset + limit]
        self._refresh_stale([m["id"] for m in page])
        return [{k: v for k, v in docs[m["id"]].items() if k != "sig"} for m in page if m["id"] in docs]
