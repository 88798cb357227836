"""A failed write never hides a match (issue 26).

The audit: under file-descriptor exhaustion a phone tapped Undo, was told "Too many
open files", and the store's error path dropped that match from the running app
(History showed 36 matches, ``scorekeeper list`` 37); the index was then written
without it at shutdown, and it came back only after a restart.

:class:`Faults` counts every call the store makes to the ``os`` functions that touch
the disk (open, read, write, fsync, close, replace, stat ...: ``pathlib`` and
``os.path`` go through them too) and makes the Nth one fail with an ``OSError``
(EMFILE, ENOSPC or EIO) -- once, or from the Nth call on until healed, as an
exhaustion of file descriptors lasts. Each operation is first run with every call
let through to count them; then N runs over every one of them. After each failure:
the operation raised a StoreError (or succeeded); the running store lists every
match whose file is on the disk; the match holds its entries from before or from
after, nothing between; a fresh store opened on the directory agrees with the
running one; the index file was never written without a match it had; and closing
the store (which writes the index) then opening it again lists every match.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import build_db, full_record, rebuild

import scorekeeper.store.storage as storage_module
import scorekeeper.store.store as store_module
from scorekeeper import registry
from scorekeeper.store import Store, StoreError, entries_of
from scorekeeper.store.errors import plain_words

#: The os functions by which the store touches the disk.
CALLS = (
    "open",
    "read",
    "write",
    "pwrite",
    "fsync",
    "close",
    "replace",
    "rename",
    "unlink",
    "stat",
    "lstat",
    "fstat",
    "scandir",
    "ftruncate",
    "mkdir",
    "rmdir",
)
CODES = (errno.EMFILE, errno.ENOSPC, errno.EIO)
#: How the line for the table ends: what the failure means for the match.
PLAIN_ENDINGS = (
    "nothing was changed",
    "nothing was stored",
    "it is still stored",
    "it is saved, but a power cut may take it back",
    "every match is safe in its own file",
)


class Faults:
    """While armed, every call of :data:`CALLS` is counted; the ``at``-th one raises
    ``OSError(code)`` and, when ``lasting``, so does every later one until :meth:`heal`.
    A failing ``close`` still closes the descriptor (as the system does)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        self.at = 0  # 0: let every call through
        self.code = errno.EMFILE
        self.lasting = False
        self.armed = False
        self.failed: list[str] = []
        for name in CALLS:
            monkeypatch.setattr(os, name, self._wrap(name, getattr(os, name)))

    def _wrap(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if self.armed:
                self.count += 1
                if self.at and (self.count == self.at or (self.lasting and self.count > self.at)):
                    self.failed.append(name)
                    if name == "close":
                        real(*args, **kwargs)
                    raise OSError(self.code, os.strerror(self.code))
            return real(*args, **kwargs)

        return call

    def arm(self, at: int = 0, code: int = errno.EMFILE, lasting: bool = False) -> None:
        self.count, self.at, self.code, self.lasting, self.armed = 0, at, code, lasting, True
        self.failed = []

    def heal(self) -> None:
        self.armed = False


@pytest.fixture
def faults(monkeypatch: pytest.MonkeyPatch) -> Faults:
    return Faults(monkeypatch)


# ---------------------------------------------------------------- the database
@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict]]:
    """Three matches (the last half entered), copied afresh for every run."""
    db = tmp_path_factory.mktemp("template") / "db"
    return db, build_db(db, n=3)


def on_disk(db: Path) -> list[str]:
    """The ids of the match files in the database."""
    return sorted(p.name[:-5] for p in (db / "matches").iterdir() if p.suffix == ".json" and not p.name.startswith("."))


def indexed(db: Path) -> list[str]:
    index = json.loads((db / "index.json").read_bytes())
    return sorted(doc["id"] for doc in index["matches"].values())


def rows(store: Store) -> dict[str, dict]:
    return {r["id"]: r for r in store.list(limit=None)}


# ---------------------------------------------------------------- the operations
NEW = [dict(full_record(7), id="new-1"), dict(full_record(8), id="new-2")]


class Case:
    """One operation on the half-entered match ``mid`` of a fresh copy of the database;
    ``outcomes``: what each match it may touch may hold afterwards (None: no match)."""

    def __init__(self, db: Path, recs: dict[str, dict], operation: str) -> None:
        self.db, self.recs, self.operation = db, recs, operation
        self.mid = list(recs)[-1]
        done = entries_of(recs[self.mid])
        full = full_record(len(recs) - 1)
        entry = entries_of(full)[len(done)]
        before = recs[self.mid]
        self.outcomes: dict[str, list[Any]] = {self.mid: [before]}
        if operation == "append":
            self.outcomes[self.mid].append(rebuild(full, [*done, entry]))
        elif operation == "redo":  # undone first (see prepare), entered again
            self.outcomes[self.mid].append(rebuild(full, done[:-1]))
        elif operation == "undo":
            self.outcomes[self.mid].append(rebuild(full, done[:-1]))
        elif operation == "close":
            self.outcomes[self.mid] = [rebuild(full, [*done, entry])]
        elif operation == "delete":
            self.outcomes[self.mid].append(None)
        elif operation in ("create", "import"):
            for rec in NEW[: 1 if operation == "create" else 2]:
                self.outcomes[rec["id"]] = [None, rec]
        self.entry = entry

    def prepare(self, store: Store) -> None:
        """What the operation needs done before it (not counted, nothing fails)."""
        if self.operation == "redo":
            store.undo(self.mid)
        elif self.operation == "close":  # entries the index does not have yet
            store.append(self.mid, self.entry)

    def run(self, store: Store) -> None:
        op = self.operation
        if op == "append":
            store.append(self.mid, self.entry)
        elif op == "redo":
            store.redo(self.mid)
        elif op == "undo":
            store.undo(self.mid)
        elif op == "edit":  # the same leader again: the whole match replayed and written
            store.edit(self.mid, 1, "leader", self.recs[self.mid]["hands"][0]["leader"])
        elif op == "delete":
            store.delete(self.mid)
        elif op == "create":
            store.create(NEW[0])
        elif op == "import":
            store.bulk_import(NEW)
        elif op == "close":
            store.close()


OPERATIONS = ["append", "undo", "redo", "edit", "delete", "create", "import", "close"]


def fresh_copy(template: tuple[Path, dict[str, dict]], tmp_path: Path) -> tuple[Path, dict[str, dict]]:
    db = tmp_path / "db"
    if db.exists():
        shutil.rmtree(db)
    shutil.copytree(template[0], db)
    return db, template[1]


def stored(db: Path, mid: str) -> Any:
    """A match's record as its file holds it (None: no file)."""
    path = db / "matches" / f"{mid}.json"
    if not path.exists():
        return None
    return json.loads(path.read_bytes())["match"]["1"]["record"]


def check_one(
    faults: Faults,
    template: tuple[Path, dict[str, dict]],
    tmp_path: Path,
    operation: str,
    warm: bool,
    at: int,
    code: int,
    lasting: bool,
) -> str | None:
    """Run ``operation`` with the ``at``-th call failing and check that nothing is hidden.
    Returns the error's message (None: it succeeded)."""
    db, recs = fresh_copy(template, tmp_path)
    case = Case(db, recs, operation)
    index_before = indexed(db)
    store = Store(db)
    try:
        case.prepare(store)
        held = store.match(case.mid) if warm else None  # the engine state a table screen holds
        error: str | None = None
        faults.arm(at, code, lasting)
        try:
            case.run(store)
        except StoreError as e:
            error = str(e)
            assert "\n" not in error and isinstance(e.__cause__, OSError), error
            # the line for the table: plain words, no path, and what it means for the match
            assert e.plain.startswith("could not ") and str(db) not in e.plain, e.plain
            assert e.plain.endswith(PLAIN_ENDINGS) or "stored all the same" in e.plain, e.plain
            assert plain_words(e.__cause__) in e.plain, e.plain
        finally:
            if lasting:  # what the screen does next while the disk still refuses
                for after in (lambda: store.match(case.mid), lambda: store.list(limit=None)):
                    try:
                        after()
                    except StoreError:
                        pass
            faults.heal()
        where = f"{operation}, call {at} ({faults.failed[:1]}), {errno.errorcode[code]}, lasting={lasting}"
        if at:
            assert faults.failed, f"{where}: nothing failed"
        files = on_disk(db)
        for mid, outcomes in case.outcomes.items():
            assert stored(db, mid) in outcomes, f"{where}: {mid} is half changed"
        before = case.outcomes[case.mid][0]
        if held is not None and error is not None and stored(db, case.mid) == before:
            # a screen that could not read the match again still shows it as it is stored
            assert held.to_record() == registry.game_of(before).load(before).to_record(), where
        # the index file never lost a match that is on the disk
        assert set(index_before) & set(files) <= set(indexed(db)), where
        if operation != "close":
            # the running store lists every match on the disk, as the disk holds it
            assert sorted(store.ids()) == files, where
            listed = rows(store)
            assert sorted(listed) == files, where
            for mid in case.outcomes:
                if mid in files:
                    assert store.record(mid) == stored(db, mid), where
            # a fresh store agrees with the running one
            with Store(db, read_only=True) as ro:
                # (a match deleted while the index could not be written is still in the index file)
                gone = [f"match {case.mid} is listed in the index but its file is missing"]
                assert ro.problems == ([] if case.mid in files or case.mid not in indexed(db) else gone), where
                assert rows(ro) == listed, where
        # closing writes the index with every match; opening again lists every match
        store.close()
        assert indexed(db) == files, where
        with Store(db) as again:
            assert again.problems == [], where
            assert sorted(again.ids()) == files, where
        return error
    finally:
        faults.heal()
        store.close()


#: (operation, whether the match is open in memory first, as a table screen has it)
KINDS = [(op, warm) for op in OPERATIONS for warm in (True, False) if warm or op not in ("create", "import")]


@pytest.mark.parametrize("lasting", [False, True], ids=["once", "lasting"])
@pytest.mark.parametrize("operation,warm", KINDS, ids=[f"{op}-{'open' if w else 'cold'}" for op, w in KINDS])
def test_a_failed_write_at_any_step_hides_no_match(faults, template, tmp_path, operation, warm, lasting):
    """Each call the operation makes to the disk fails in turn (once, or from then on):
    no match is ever hidden, nothing is half changed, the message is one plain line."""
    # count the calls the operation makes, every one let through
    db, recs = fresh_copy(template, tmp_path)
    case = Case(db, recs, operation)
    with Store(db) as store:
        case.prepare(store)
        if warm:
            store.record(case.mid)
        faults.arm()
        case.run(store)
        faults.heal()
        total = faults.count
    assert total > 0
    errors = 0
    for at in range(1, total + 1):
        code = CODES[(at + lasting) % len(CODES)]  # each step fails with two of them
        if check_one(faults, template, tmp_path, operation, warm, at, code, lasting) is not None:
            errors += 1
    if operation != "close":  # closing reports an index it could not write in problems
        assert errors > 0, "no failure reached the caller: the faults were not injected"


# ---------------------------------------------------------------- opening while the disk refuses
def test_an_index_and_match_files_the_disk_will_not_let_be_read_are_left_and_read_again(tmp_path, monkeypatch):
    """Too many open files at opening: the index is not moved aside (it is not damaged), it
    is not written without the matches whose files could not be read, and every match is
    listed as soon as the files can be read -- in the same running store, no restart."""
    db = tmp_path / "db"
    recs = build_db(db)
    index = (db / "index.json").read_bytes()
    for path in (db / "matches").iterdir():
        os.utime(path, ns=(1, 1))  # changed since the index saw them: read at opening

    def exhausted(path: Any, *args: Any) -> Any:
        raise OSError(errno.EMFILE, os.strerror(errno.EMFILE), str(path))

    monkeypatch.setattr(storage_module, "read_json_file", exhausted)
    monkeypatch.setattr(store_module, "read_tables", exhausted)
    with Store(db) as store:
        assert store.problems[0].startswith("index.json could not be read (") and "left as it is" in store.problems[0]
        unread = [f"{mid}.json could not be read (" for mid in recs]
        assert sorted(p[: len(unread[0])] for p in store.problems[1:-1]) == sorted(unread), store.problems
        assert all("Too many open files (EMFILE)" in p for p in store.problems[:-1]), store.problems
        assert store.problems[-1] == (
            f"the index was rebuilt from 0 match files ({len(recs)} more could not be read; "
            "each is listed as soon as it can be)"
        )
        assert not list(db.glob("index.json.corrupt-*")) and (db / "index.json").read_bytes() == index
        monkeypatch.undo()
        assert sorted(r["id"] for r in store.list(limit=None)) == sorted(recs)
        for mid, rec in recs.items():
            assert store.record(mid) == rec
    assert indexed(db) == sorted(recs)
    with Store(db) as store:
        assert store.problems == [] and sorted(store.ids()) == sorted(recs)


def test_a_match_that_could_not_be_read_for_want_of_memory_stays_listed(tmp_path, monkeypatch):
    """Out of memory while a listing reads a match again: the server's trouble, not the
    record's -- the match is not taken for one no engine can play, and not forgotten."""
    db = tmp_path / "db"
    recs = build_db(db)
    victim = list(recs)[0]
    with Store(db) as store:
        os.utime(db / "matches" / f"{victim}.json", ns=(1, 1))  # changed: the listing reads it again
        real = store_module.registry.game_of

        def game_of(record: Any) -> Any:
            game = real(record)

            class Starved:
                def __getattr__(self, name: str) -> Any:
                    if name == "load":
                        raise MemoryError
                    return getattr(game, name)

            return Starved()

        monkeypatch.setattr(store_module.registry, "game_of", game_of)
        assert sorted(r["id"] for r in store.list(limit=None)) == sorted(recs)
        assert store.problems == []
        monkeypatch.undo()
        assert store.record(victim) == recs[victim]
    assert indexed(db) == sorted(recs)


def test_looking_for_a_stored_match_the_disk_will_not_let_be_read_says_so(tmp_path, monkeypatch):
    """``find`` (asked before an import) took a match file it could not read for another
    record, and the app imported the same match again without asking."""
    db = tmp_path / "db"
    recs = build_db(db)
    victim, record = next(iter(recs.items()))
    path = db / "matches" / f"{victim}.json"
    real = store_module.read_tables

    def read_tables(p: Any) -> Any:
        if Path(p) == path:
            raise OSError(errno.EMFILE, os.strerror(errno.EMFILE), str(p))
        return real(p)

    with Store(db) as store:
        monkeypatch.setattr(store_module, "read_tables", read_tables)
        with pytest.raises(StoreError) as e:
            store.find(record)
        assert e.value.plain == "could not look for the match: too many open files (the server is overloaded)"
        monkeypatch.undo()
        assert store.find(record) == victim
