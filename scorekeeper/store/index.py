"""The index: ``index.json``, what listing needs of every match, cached.

The index is a cache; the match files are the truth. Its documents (one per match:
id, game, players, title, started, created, updated, status, scores, winner, number
of hands, and the signature of the file they were made from) are checked field by
field when it is read: a document of the wrong shape makes the whole index a bad
file, moved aside and rebuilt from the match files. A match's cached fields are
refreshed when it is created, imported, edited or closed, and otherwise whenever
its file differs from its cached signature (inode, size, mtime, ctime).

A failed write never hides a match: an OSError that is not corruption (too many
open files, a full disk, an I/O error) is the disk's trouble, not the file's: it
never moves a file aside nor drops a match from the index, the match keeps what
the index knew of it and its file is read again at the next chance, and the index
is never written without a match that is on the disk (docs/store.md).
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from scorekeeper import registry
from scorekeeper.errors import ScorekeeperError, type_name
from scorekeeper.store.errors import StoreError, reason, shown
from scorekeeper.store.files import MatchFiles, OpenMatch
from scorekeeper.store.layout import INDEX, SCHEMA, UNKNOWN_SIG, Problems, Record, is_id, newer_schema, signature
from scorekeeper.store.storage import AtomicJSONStorage, CorruptFileError, NotDurableError

Tables = dict[str, dict[str, Any]]

_STATUSES = ("new", "playing", "won")


def _is_str_or_none(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


#: Each field of an index document and what its value must be (what :func:`document` writes).
FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
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


def doc_fault(doc: Any) -> str | None:
    """What is wrong with a document of the index's ``matches`` table, or None.

    >>> print(doc_fault([]), doc_fault({"id": "x"}), sep="; ")
    is a list, not a match's entry; has no 'game'
    """
    if not isinstance(doc, dict):
        return f"is {type_name(doc)}, not a match's entry"
    for field, (ok, what) in FIELDS.items():
        if field not in doc:
            return f"has no {field!r}"
        if not ok(doc[field]):
            return f"has a {field!r} that is not {what}"
    return None


def parse(path: Path, tables: Tables) -> dict[str, Record] | None:
    """The documents of an index by match id; None when it has no schema (no index: the
    matches are read from their files). A newer schema is refused; a document of the
    wrong shape makes the whole index a CorruptFileError."""
    meta = list(tables.get("meta", {}).values())
    if not all(isinstance(m, dict) for m in meta):
        raise CorruptFileError(path, "its meta table holds something other than documents")
    schema = meta[0].get("schema") if meta else None
    if schema is None:
        return None
    if type(schema) is not int or schema > SCHEMA:
        raise newer_schema(path, schema)
    docs: dict[str, Record] = {}
    for key, doc in tables.get("matches", {}).items():
        fault = doc_fault(doc)
        if fault is None and not key.isdigit():
            fault = "is not kept under a document number"
        if fault is None and doc["id"] in docs:
            fault = f"lists match {doc['id']} a second time"
        if fault is not None:
            raise CorruptFileError(path, f"the entry {shown(key)} of its matches table {fault}")
        docs[doc["id"]] = dict(doc)
    return docs


def document(
    mid: str, record: Record, created: str | None, path: Path, match: Any = None, st: os.stat_result | None = None
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
        "sig": list(UNKNOWN_SIG) if st is None else signature(st),
    }


class Index:
    """The index of a store that writes (see :class:`~scorekeeper.store.view.ReadOnlyIndex`).

    ``docs``: the index as this store knows it, the truth for listing. ``current(mid)``:
    the document of a match made now from what the store holds of it (its open match, else
    its file), raising what reading the file raises."""

    def __init__(
        self,
        path: Path,
        files: MatchFiles,
        problems: Problems,
        opened: dict[str, OpenMatch],
        current: Callable[[str], Record],
    ) -> None:
        self.path = path / INDEX
        self.files = files
        self.problems = problems
        self.opened = opened
        self.current = current
        self.docs: dict[str, Record] = {}
        self.behind = False  # the last write of the index failed: it is behind self.docs
        #: Listing refreshed cached fields in memory that the file does not have yet: written
        #: at the next index write or at closing (the files are the truth: a crash loses nothing).
        self.unsaved = False
        #: Match files the disk would not let be read (too many open files, an I/O error ...)
        #: whose matches the index does not have: tried again when the store lists.
        self.unread: set[str] = set()
        self._storage = AtomicJSONStorage(self.path)

    def open(self) -> None:
        """Read the index, check every match file changed since it last saw them (a crash
        happens there), and write it if that changed anything (if it cannot be written, the
        store goes on with it in memory). A bad index (not JSON, the wrong shape, not a
        regular file) is moved aside and rebuilt; one the disk will not let be read is
        rebuilt and replaced, never moved aside."""
        rebuild, write = self._read()
        changed = self.check_files()
        if rebuild:
            line = f"the index was rebuilt from {len(self.docs)} match files"
            if self.unread:
                line += f" ({len(self.unread)} more could not be read; each is listed as soon as it can be)"
            self.problems.append(line)
        if rebuild or write or changed:
            self.write()

    def _read(self) -> tuple[bool, bool]:
        """Read the documents: (rebuilt?, to be written?)."""
        try:
            tables = self._storage.read()
            if tables is None:  # no index yet: a new database, or an index lost
                return any(self.files.scan(quiet=True)), True
            docs = parse(self.path, tables)
        except CorruptFileError as e:
            why = e.why
        except FileNotFoundError:
            return any(self.files.scan(quiet=True)), True
        except OSError as e:  # the disk's trouble, not the file's: not moved aside, replaced once rebuilt
            self.problems.note(
                f"index.json could not be read ({reason(e)}); it was left as it is, to be replaced by "
                "an index rebuilt from the match files"
            )
            self._storage = AtomicJSONStorage(self.path)
            return True, True
        else:
            if docs is None:  # an index that lost its meta: rebuild it from the records
                return bool(tables.get("matches")) or any(self.files.scan(quiet=True)), True
            self.docs = docs
            return False, False
        self.files.move_aside(self.path, why)
        self._storage = AtomicJSONStorage(self.path)  # nothing of the bad one kept in memory
        return True, True

    def check_files(self) -> bool:
        """Check every match file changed since the index last saw it. Returns whether the
        index changed (in memory: the caller writes it)."""
        seen = set()
        changed = []
        for mid, sig in self.files.scan():
            seen.add(mid)
            doc = self.docs.get(mid)
            if doc is None or sig is None or doc.get("sig") != sig:
                changed.append(mid)
        gone = [mid for mid in self.docs if mid not in seen]
        for mid in gone:
            self.problems.append(f"match {mid} is listed in the index but its file is missing")
            del self.docs[mid]
        if changed:
            self.refresh(changed, write=False)
        return bool(gone or changed)

    def write(self) -> None:
        """Write the index as this store knows it (``docs``), keeping each document's
        number. If the disk refuses, the store goes on with the index in memory (reported
        once) and writes it again at the next chance; the match files are the truth, and
        the next open brings an index that is behind up to date from them."""
        if self.unread:  # it would be written without a match that is on the disk
            self.behind = True
            return
        try:
            old = self._storage.read() or {}
        except (OSError, CorruptFileError):
            old = {}
        numbers: dict[str, int] = {}
        top = 0
        for key, doc in old.get("matches", {}).items():
            if key.isdigit():
                top = max(top, int(key))
                mid = doc.get("id") if isinstance(doc, dict) else None
                if isinstance(mid, str) and mid in self.docs and mid not in numbers:
                    numbers[mid] = int(key)
        for mid in self.docs:
            if mid not in numbers:
                top += 1
                numbers[mid] = top
        by_number = sorted((n, mid) for mid, n in numbers.items())
        tables = {"meta": {"1": {"schema": SCHEMA}}, "matches": {str(n): self.docs[mid] for n, mid in by_number}}
        try:
            self._storage.write(tables)
        except NotDurableError:
            pass  # written; a power cut may take it back, and the next open sees what the files hold
        except OSError as e:
            if not self.behind:
                self.problems.append(
                    f"index.json could not be written ({reason(e)}); the store goes on with the index "
                    "in memory and writes it again later (every match is safe in its own file)"
                )
            self.behind = True
            return
        self.behind = False
        self.unsaved = False

    def forget(self, mid: str, write: bool = True) -> bool:
        """Drop a match from the index and from memory (its file is gone or moved aside).
        Returns whether the index knew it (``write=False``: the caller writes the index)."""
        self.opened.pop(mid, None)
        known = self.docs.pop(mid, None) is not None
        if known and write:
            self.write()
        return known

    def gone(self, mid: str) -> None:
        """A listed match's file was not found where it was looked for: the store that writes
        finds that out at the next open (a read-only store forgets it now)."""

    def refresh(self, mids: Iterable[str], write: bool = True) -> None:
        """Rebuild the cached fields of these matches (:attr:`current`); one index write. A
        damaged file is moved aside and a record no engine can play is kept where it is;
        either is reported and its match no longer listed. A file the disk will not let be
        read now (too many open files, an I/O error, permission denied) is reported and its
        match stays listed with the fields it had: the disk's trouble is not the match's,
        and it is read again next time (one the index never had is listed once it can be
        read: see :attr:`unread`)."""
        fresh = []
        forgot = False
        for mid in mids:
            path = self.files.path(mid)
            try:
                fresh.append(self.current(mid))
            except FileNotFoundError:
                self.unread.discard(mid)
                self.gone(mid)
                continue
            except CorruptFileError as e:
                self.unread.discard(mid)
                self.files.move_aside(path, e.why)
                forgot |= self.forget(mid, write=False)
            except StoreError:
                raise
            except ScorekeeperError as e:  # e.g. a game this version does not know: kept, not listed
                self.unread.discard(mid)
                self.problems.note(f"match {mid} holds an invalid record ({e}); it is kept but cannot be played")
                forgot |= self.forget(mid, write=False)
            except OSError as e:  # the disk's trouble, not the file's: never forgotten for it
                self.files.unreadable(path, e)
                if mid not in self.docs:
                    self.unread.add(mid)
            except MemoryError:  # the server's trouble, not the record's: read again next time
                if mid not in self.docs:
                    self.unread.add(mid)
            except Exception as e:  # a record no engine expected: still only this match is affected
                self.unread.discard(mid)
                self.problems.note(
                    f"match {mid} holds a record that could not be read ({type(e).__name__}: {e}); "
                    "it is kept but cannot be played"
                )
                forgot |= self.forget(mid, write=False)
        if fresh:
            self.docs.update({m["id"]: m for m in fresh})
            self.unread.difference_update(m["id"] for m in fresh)
        if fresh or forgot:
            if write:
                self.write()
            else:
                self.unsaved = True

    def read_unread(self) -> None:
        """Try again the match files that could not be read (the disk's trouble) and that the
        index does not have: each is listed as soon as it can be read."""
        if self.unread:
            self.refresh(sorted(self.unread))
