"""The match files: ``matches/<id>.json``, one per match, and what is done with a bad one.

A match file is read whole (:func:`~scorekeeper.store.storage.read_tables`: the bytes and
the stat of the very file read) and checked before anything of it is used: a file that is
no Scorekeeper match file of this schema or an older one is a CorruptFileError, and is
moved aside to ``<name>.corrupt-<UTC time>`` (a read-only store leaves it where it is: see
:mod:`scorekeeper.store.view`) and reported in ``Store.problems``. A file the system will
not let be read (too many open files, an I/O error ...) is not corrupt: it is reported and
left where it is, its content may be fine. Every write of a match file goes through its
:class:`~scorekeeper.store.storage.AtomicJSONStorage`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper.errors import type_name
from scorekeeper.store import storage
from scorekeeper.store.errors import StoreError, plain_line, reason, shown
from scorekeeper.store.layout import SCHEMA, Problems, Record, is_id, newer_schema, signature
from scorekeeper.store.storage import TEMP_MARK, AtomicJSONStorage, CorruptFileError, NotDurableError


@dataclass
class OpenMatch:
    """A match the store has in memory: its file's storage, record, redo stack and engine state."""

    storage: AtomicJSONStorage
    record: Record
    redo: list[Record]  # entries taken back by undo, the last one first to come back
    match: Any  # the game's engine state: its Match, whose type depends on the game (see registry.Game.load)
    created: str
    path: Path
    dirty: bool = False  # the index's cached fields are behind the file
    stat: os.stat_result | None = None  # read-only stores: the file read (a newer one is read again)


class MatchFiles:
    """The directory of match files of a store that writes (see :class:`~scorekeeper.store.view.ReadOnlyFiles`)."""

    def __init__(self, directory: Path, problems: Problems) -> None:
        self.directory = directory
        self.problems = problems

    def path(self, mid: str) -> Path:
        return self.directory / f"{mid}.json"

    def storage(self, path: Path) -> AtomicJSONStorage:
        """The storage every write of the match file ``path`` goes through."""
        return AtomicJSONStorage(path)

    @staticmethod
    def parse(path: Path, tables: dict[str, dict[str, Any]]) -> Record:
        """A match file's document from its tables; a file that is no Scorekeeper match file
        of this schema or an older one is a CorruptFileError (a newer one: a StoreError)."""
        docs = list(tables.get("match", {}).values())
        if len(docs) != 1 or not isinstance(docs[0], dict) or not isinstance(docs[0].get("record"), dict):
            raise CorruptFileError(path, "not a Scorekeeper match file")
        doc = docs[0]
        schema = doc.get("schema")
        if type(schema) is not int:
            raise CorruptFileError(path, "no schema version")
        if schema > SCHEMA:
            raise newer_schema(path, schema)
        game = doc["record"].get("game")
        if not isinstance(game, str):  # no game of any version: not an unknown game, a damaged record
            raise CorruptFileError(path, f"its record's game is {type_name(game)}, not a string")
        redo = doc.get("redo", [])
        if not isinstance(redo, list) or not all(isinstance(e, dict) for e in redo):
            raise CorruptFileError(path, "its redo stack is not a list of entries")
        created = doc.get("created")
        if created is not None and not isinstance(created, str):
            raise CorruptFileError(path, "its creation time is not a string")
        return dict(doc)

    @staticmethod
    def write(mid: str, o: OpenMatch) -> None:
        """Write the match's file as ``o`` holds it (atomic, durable; see storage.atomic_write)."""
        doc = {"schema": SCHEMA, "id": mid, "created": o.created, "record": o.record, "redo": o.redo}
        o.storage.write({"match": {"1": doc}})

    def save(self, mid: str, o: OpenMatch, take_back: Callable[[], object], opened: dict[str, OpenMatch]) -> None:
        """Write a match's file (atomic, durable); the change is already made in memory.

        If the file could not be written, it holds the match as it was: ``take_back()``
        puts the match in memory back as it was too (the screens hold the same engine
        state), and a StoreError says nothing was changed; if that fails, the match is
        dropped from ``opened``, to be read again from its file -- never from the listing.
        If only the directory could not be synced, the file holds the change, and so
        does the memory: the StoreError says so."""
        try:
            self.write(mid, o)
        except NotDurableError as e:
            o.dirty = True
            raise StoreError(
                f"match {mid} was saved but the disk did not confirm it ({reason(e)}); "
                "a power cut may take the change back",
                plain=plain_line("confirm the change", e, "it is saved, but a power cut may take it back"),
            ) from e
        except OSError as e:
            try:
                take_back()
            except Exception:  # not as it was: read again from the file, the truth
                opened.pop(mid, None)
            raise StoreError(
                f"match {mid} could not be saved ({reason(e)}); nothing was changed", plain=plain_line("save", e)
            ) from e
        o.dirty = True

    def scan(self, quiet: bool = False) -> Iterator[tuple[str, list[int] | None]]:
        """(id, signature) of every match file (None: it could not even be looked at). Temporary
        files of a write (``.<name>.tmp-<pid>``, perhaps in flight) and files moved aside
        (``<name>.corrupt-...``) are not match files; a ``.json`` file whose name is no match
        id is reported (unless ``quiet``) and left as it is."""
        for entry in self._entries():
            if not entry.name.endswith(".json") or entry.name.startswith("."):
                continue
            mid = entry.name[:-5]
            if not is_id(mid):
                if not quiet:
                    self.problems.note(
                        f"{shown(entry.name)} in {self.directory} is not named after a match id; "
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
            yield mid, signature(st)

    def _entries(self) -> list[os.DirEntry[str]]:
        return list(os.scandir(self.directory))

    def remove_temp_files(self, *directories: Path) -> None:
        """Temporary files of an interrupted write are never the truth: remove them (from
        these directories and the matches' own)."""
        for d in (*directories, self.directory):
            for entry in os.scandir(d):
                if TEMP_MARK in entry.name and entry.name.startswith("."):
                    try:
                        os.unlink(entry.path)
                    except OSError:
                        pass

    def taken(self, mid: str) -> bool:
        """Whether a file (even one that could not be read) has this match id's name. A file
        that cannot be looked at raises its OSError (it may be there)."""
        try:
            os.lstat(self.path(mid))
        except FileNotFoundError:
            return False
        return True

    # ------------------------------------------------------------ bad files
    def move_aside(self, path: Path, why: str) -> str:
        """Report a corrupt file and move it aside (left where it is when the move fails).
        Returns what was done."""
        try:
            aside = storage.move_aside(path)
        except FileNotFoundError:
            return "gone"
        except OSError as e:
            done = f"left as it is (it could not be moved aside: {reason(e)})"
        else:
            done = f"moved aside to {shown(aside.name)}"
        self.problems.note(f"{shown(path.name)} could not be read ({why}); it was {done}")
        return done

    def unreadable(self, path: Path, e: OSError) -> str:
        """Report a file the system will not let be read (its content may be fine): left where it is."""
        self.problems.note(f"{shown(path.name)} could not be read ({reason(e)}); it was left as it is")
        return "left as it is"
