"""The audit's reproduction in the app's view-models (issue 26): a phone tapped Undo while
the server had run out of file descriptors, was told "Too many open files", and the
match was gone from History (36 matches shown, 37 stored) until a restart.

Now the phone is told in one plain line that nothing was changed, the screen still
shows the match as it is stored, History lists every match, and the index written
at shutdown holds every match. The disk's trouble is played by making ``os.open``
fail (lasting, as an exhaustion of file descriptors does) until ``monkeypatch.undo()``.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from support import RECORDS, full_record, run_cli

from scorekeeper.store import StoreError
from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.history.model import HistoryModel
from scorekeeper.ui.server.shared import open_shared
from scorekeeper.ui.shell.base import Shared

WORKED = json.loads((RECORDS / "worked-example.json").read_text(encoding="utf-8"))


def refuse_open(monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    """From now on, opening any file fails with ``code``."""

    def refused(path: object, *args: object, **kwargs: object) -> int:
        raise OSError(code, os.strerror(code), os.fsdecode(path) if isinstance(path, (str, bytes, Path)) else None)

    monkeypatch.setattr(os, "open", refused)


def indexed(db: Path) -> list[str]:
    index = json.loads((db / "index.json").read_bytes())
    return sorted(doc["id"] for doc in index["matches"].values())


def half_played(shared: Shared) -> str:
    """A match of the worked example, three turns in (stored, with three others)."""
    first = WORKED["hands"][0]
    record = dict(WORKED, hands=[dict(first, turns=first["turns"][:3])])
    for i in range(3):
        shared.store.create(full_record(i))
    return shared.store.create(record)


def test_undo_when_the_server_runs_out_of_files_says_so_and_hides_no_match(tmp_path, monkeypatch):
    db = tmp_path / "db"
    shared = open_shared(str(db))
    try:
        mid = half_played(shared)
        stored = sorted(shared.store.ids())
        table = TableModel(shared, mid)
        before = table.match.to_record()
        refuse_open(monkeypatch, errno.EMFILE)
        table.undo()
        assert table.error == "could not save: too many open files (the server is overloaded); nothing was changed"
        assert table.match.to_record() == before  # the screen shows the match as it is stored
        hist = HistoryModel(shared)  # still out of files: History lists every match all the same
        assert hist.total == len(stored) and sorted(m["id"] for m in hist.items) == stored, hist.error
        monkeypatch.undo()
        table.undo()
        assert table.error is None and len(table.match.to_record()["hands"][0]["turns"]) == 2
        hist.load()
        assert hist.total == len(stored) and hist.error is None
    finally:
        shared.close()
    assert indexed(db) == stored
    ran = run_cli("--db", db, "list", "--json")
    assert ran.returncode == 0 and sorted(m["id"] for m in json.loads(ran.stdout)) == stored


def test_a_table_opened_when_its_match_cannot_be_read_leaves_it_listed(tmp_path, monkeypatch):
    db = tmp_path / "db"
    first = open_shared(str(db))
    try:
        mid = half_played(first)
        stored = sorted(first.store.ids())
    finally:
        first.close()
    shared = open_shared(str(db))  # the app started again: no match in memory
    try:
        refuse_open(monkeypatch, errno.EIO)
        with pytest.raises(StoreError) as e:
            TableModel(shared, mid)
        assert e.value.plain == (
            "could not read the match: the disk failed to read or write (an input/output error); nothing was changed"
        )
        assert HistoryModel(shared).total == len(stored)
        assert shared.resume() is None  # Home does not offer it now (it raised: no Home at all)
        monkeypatch.undo()
        assert (shared.resume() or {}).get("id") == mid
        table = TableModel(shared, mid)
        assert table.error is None and len(table.match.to_record()["hands"][0]["turns"]) == 3
    finally:
        shared.close()
    assert indexed(db) == stored


def test_a_new_match_or_an_import_on_a_full_disk_says_nothing_was_stored(tmp_path, monkeypatch):
    db = tmp_path / "db"
    shared = open_shared(str(db))
    try:
        half_played(shared)
        stored = sorted(shared.store.ids())
        refuse_open(monkeypatch, errno.ENOSPC)
        form = NewMatchForm(shared, names=["Ann", "Ben"])
        assert form.start() is None
        assert form.error == "could not save the new match: the disk is full; nothing was stored"
        hist = HistoryModel(shared)
        assert hist.import_text(json.dumps(full_record(9))) is None
        assert hist.error == "not imported: could not save the new match: the disk is full; nothing was stored"
        assert hist.total == len(stored)
        monkeypatch.undo()
        assert sorted(shared.store.ids()) == stored
    finally:
        shared.close()
    assert indexed(db) == stored
