"""The store's parts (issue 28): the read-only view is a type of its own, and the files the
statistics keep in the database's folder go through the store (side files)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from support import build_db, make_fifo

from scorekeeper.stats import names as _names
from scorekeeper.stats import table as _table
from scorekeeper.store import ReadOnlyStore, SideFile, Store, StoreError
from scorekeeper.store.storage import TEMP_MARK


def test_a_read_only_store_is_a_type_of_its_own(tmp_path: Path) -> None:
    build_db(tmp_path / "db", n=1)
    with Store(tmp_path / "db") as rw:
        assert type(rw) is Store and not rw.read_only
    with Store(tmp_path / "db", read_only=True) as ro:
        assert type(ro) is ReadOnlyStore and isinstance(ro, Store) and ro.read_only
    with ReadOnlyStore(tmp_path / "db") as ro:
        assert ro.read_only and len(ro.ids()) == 1


def test_a_side_file_is_written_whole_and_read_back(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        side = store.side_file("stats.json")
        assert side.path == tmp_path / "stats.json" and side.load() is None
        side.save(b'{"a": [1, 2]}')
        assert side.load() == {"a": [1, 2]}
        assert not [p for p in os.listdir(tmp_path) if TEMP_MARK in p]  # the temporary file was renamed
        (tmp_path / "stats.json").write_bytes(b"{torn")
        assert side.load() is None  # a bad side file is no side file: the caller makes it again


def test_a_read_only_store_writes_no_side_file(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        store.side_file("players.json").save(b'{"schema": 1, "names": {}}')
    before = (tmp_path / "players.json").read_bytes()
    with Store(tmp_path, read_only=True) as ro:
        side = ro.side_file("players.json")
        assert side.load() == {"schema": 1, "names": {}}
        with pytest.raises(StoreError, match="read-only"):
            side.save(b"{}")
    assert (tmp_path / "players.json").read_bytes() == before


@pytest.mark.parametrize("name", ["index.json", "lock", "matches", "lock.corrupt-1", "../x.json", ".hidden", "a/b", ""])
def test_the_stores_own_files_are_no_side_files(tmp_path: Path, name: str) -> None:
    with Store(tmp_path) as store:
        with pytest.raises(ValueError):
            store.side_file(name)


def test_a_fifo_where_a_side_file_should_be_is_no_side_file_and_no_wait(tmp_path: Path) -> None:
    make_fifo(tmp_path / "stats.json")
    got: list[object] = []
    reader = threading.Thread(target=lambda: got.append(SideFile(tmp_path, "stats.json").load()), daemon=True)
    reader.start()
    reader.join(5)
    assert got == [None]


def test_the_statistics_write_their_files_through_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_db(tmp_path, n=2)
    saved: list[str] = []
    real = SideFile.save

    def spy(self: SideFile, data: bytes) -> None:
        saved.append(self.path.name)
        real(self, data)

    monkeypatch.setattr(SideFile, "save", spy)
    with Store(tmp_path) as store:
        _table.table(store)
        _names.save(store, _names.load(store).rename("P1", "Pat"))
    assert sorted(saved) == ["players.json", "stats-table.json", "stats.json"]
    assert json.loads((tmp_path / "players.json").read_bytes())["names"] == {"p1": "Pat"}


def test_a_side_file_of_its_owner_only_read_as_bytes_and_set_aside(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        side = store.side_file("table.json", mode=0o600)
        assert side.read() is None  # none yet
        side.save(b'{"codes": 1}')
        assert (os.stat(side.path).st_mode & 0o777) == 0o600
        assert side.read() == b'{"codes": 1}'
        with pytest.raises(OSError, match="too large"):
            side.read(limit=4)
        side.set_aside("unreadable")
        assert side.read() is None and (tmp_path / "table.json.unreadable").read_bytes() == b'{"codes": 1}'
        make_fifo(side.path)
        with pytest.raises(OSError, match="not a regular file"):
            side.read()  # a FIFO: no wait
    with Store(tmp_path, read_only=True) as ro:
        ro.side_file("table.json").set_aside()  # a read-only store moves nothing
    assert os.path.exists(tmp_path / "table.json")
