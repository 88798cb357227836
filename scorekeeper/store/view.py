"""The read-only view: ``Store(path, read_only=True)``, a :class:`ReadOnlyStore`.

It opens a database to read it while another Scorekeeper (the app) holds it open
and writes: it takes no lock and writes nothing -- stale cached fields are refreshed
in memory only, corrupt files are reported but left where they are, and every method
that writes raises StoreError. Writers replace every file atomically, so it reads
each file whole, old or new; a match is read again from its file whenever the file
changed, and one the writer deleted is forgotten. It lists the matches whose files
were there when it was opened (and any match read since).

Each difference from a store that writes is one override here: of the match files
(:class:`ReadOnlyFiles`), of the index (:class:`ReadOnlyIndex`) and of the store
(:class:`ReadOnlyStore`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from scorekeeper.store.errors import StoreError, reason, shown
from scorekeeper.store.files import MatchFiles, OpenMatch
from scorekeeper.store.index import Index, document, parse
from scorekeeper.store.layout import is_id, signature
from scorekeeper.store.storage import AtomicJSONStorage, CorruptFileError, read_tables
from scorekeeper.store.store import Store


class ReadOnlyFiles(MatchFiles):
    """Match files read beside a writer: a bad one is reported and left where it is."""

    def storage(self, path: Path) -> AtomicJSONStorage:
        return AtomicJSONStorage(path, read_only=True)

    def _entries(self) -> list[os.DirEntry[str]]:
        try:
            return super()._entries()
        except FileNotFoundError:  # a database directory without matches yet
            return []

    def move_aside(self, path: Path, why: str) -> str:
        done = "left as it is (the database was opened read-only)"
        self.problems.note(f"{shown(path.name)} could not be read ({why}); it was {done}")
        return done


class ReadOnlyIndex(Index):
    """The index as a read-only store knows it: read once, never written; a match whose file
    the writer deleted is forgotten as soon as that is seen."""

    def open(self) -> None:
        """A missing index, or one without its schema, is no index (every match is then read
        from its file); a bad one is reported and left as it is; a newer schema is refused
        as in a store that writes."""
        try:
            tables, _ = read_tables(self.path)
            docs = parse(self.path, tables)
        except FileNotFoundError:
            docs = None
        except CorruptFileError as e:
            self._unread_index(e.why)
            docs = None
        except OSError as e:
            self._unread_index(reason(e))
            docs = None
        self.docs = docs or {}
        self.check_files()

    def _unread_index(self, why: str) -> None:
        self.problems.append(
            f"index.json could not be read ({why}); the matches were read from their files "
            "(the database was opened read-only: the index was left as it is)"
        )

    def write(self) -> None:
        """Nothing: what was refreshed is kept in memory."""

    def gone(self, mid: str) -> None:
        self.forget(mid)  # deleted by the writer since it was listed


class ReadOnlyStore(Store):
    """A store that only reads: ``Store(path, read_only=True)``. A missing database is a
    StoreError, and every method that writes raises StoreError. Each read of a match
    gives its file as it is now."""

    read_only = True

    def _make_files(self) -> MatchFiles:
        return ReadOnlyFiles(self.matches_dir, self.problems)

    def _make_index(self) -> Index:
        return ReadOnlyIndex(self.path, self._files, self.problems, self._open_matches, self._current)

    def _open(self) -> None:
        """Opens only an existing directory (it creates nothing)."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise StoreError(f"no database at {self.path} (nothing has been stored there yet)") from None
        except OSError as e:
            raise StoreError(f"cannot use {self.path} as a database: {reason(e)}") from e
        if not stat.S_ISDIR(st.st_mode):
            raise StoreError(f"cannot use {self.path} as a database: not a directory")
        self._index.open()

    def _held(self, mid: str) -> OpenMatch | None:
        return None  # a writer may have changed any match: its file is the truth

    def _catch_up(self) -> None:
        self._refresh_stale(list(self._index.docs))

    def _check_writable(self, method: str) -> None:
        self._check_open()
        raise StoreError(
            f"cannot {method}: the database {self.path} was opened read-only "
            "(Store(path, read_only=True)); nothing was written"
        )

    def _load(self, mid: str) -> OpenMatch:
        """Match ``mid`` as its file holds it now: read again whenever the file changed (a
        writer replaces it whole), and found even if it is newer than the store."""
        self._check_open()
        if not is_id(mid):
            raise self._no_match(mid)
        o = self._open_matches.get(mid)
        if o is not None and o.stat is not None:
            try:
                if signature(o.path.stat()) == signature(o.stat):
                    return o
            except OSError:
                pass  # reading it says so
        return self._read_open(mid)

    def _missing(self, mid: str, known: bool) -> StoreError:
        if known:
            return StoreError(f"match {mid} is no longer in {self.path} (its file is gone)")
        return self._no_match(mid)

    def _opened(self, mid: str, o: OpenMatch, created: str | None, st: os.stat_result) -> None:
        o.stat = st
        self._open_matches[mid] = o
        self._index.docs[mid] = document(mid, o.record, created, o.path, o.match, st)  # in memory only


Store.read_only_type = ReadOnlyStore
