"""The store on a phone's browser (:mod:`scorekeeper.site.disk`), without a browser: every
durable change of the store starts a copy into IndexedDB at once, a refused copy is said and
loses nothing, and a second tab does not open the store.

The copy itself is a fake here (an ``asyncio`` coroutine that waits for the test); the browser
tests (``tests/e2e/test_site_browser.py``) run the real one, made by the page, which holds the
screen until it is in (a tap that showed survives the browser killed right after it)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path

import pytest
from aio import run

from scorekeeper.errors import StoreError
from scorekeeper.site.disk import ANOTHER_TAB, Copier, IndexedDBDisk, TabLocking, refused_line
from scorekeeper.store import Store, StoreLockedError
from scorekeeper.store.lock import use_locking
from scorekeeper.store.storage import use_disk


class FakeIndexedDB:
    """A copy into IndexedDB that takes as long as the test says (``let_go``), and may be refused."""

    def __init__(self) -> None:
        self.started = 0
        self.refuse: str | None = None
        self._gates: list[asyncio.Future[None]] = []

    def push(self) -> Awaitable[str | None]:
        """Start a copy now (as the browser's does: the transaction is under way when this
        returns); awaited, it ends when the test lets it go."""
        self.started += 1
        gate: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._gates.append(gate)

        async def copied() -> str | None:
            await gate
            return self.refuse

        return copied()

    def let_go(self) -> None:
        """The copy under way finishes."""
        self._gates.pop(0).set_result(None)


async def _turns(n: int = 3) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_a_copy_is_sent_inside_the_stores_write_and_each_change_gets_its_own() -> None:
    """The copy starts inside the store's write, before the app redraws (the page writes it into
    IndexedDB meanwhile); a second file the same entry writes is a copy of its own, and the
    change is pending until the page answers for each."""

    async def scenario() -> None:
        db = FakeIndexedDB()
        told: list[str | None] = []
        copier = Copier(db.push, told.append)
        assert not copier.pending
        copier.changed()  # the entry's first write: its copy is on its way at once
        assert db.started == 1 and copier.pending
        copier.changed()  # the same entry writes a second file, in the same turn of the loop
        assert db.started == 2 and copier.copies == 2
        await _turns()
        db.let_go()  # the page has the first one in
        await _turns()
        assert copier.pending  # not the second
        db.let_go()
        await _turns()
        assert not copier.pending and told == [] and copier.problem is None

    run(scenario())


def test_a_refused_copy_says_why_and_a_later_one_that_gets_in_clears_it() -> None:
    async def scenario() -> None:
        db = FakeIndexedDB()
        told: list[str | None] = []
        copier = Copier(db.push, told.append)
        db.refuse = "QuotaExceededError"
        copier.changed()
        await _turns()
        db.let_go()
        await _turns()
        assert not copier.pending  # answered: the page let the screen go, the change is in memory
        assert told == ["QuotaExceededError"] and copier.problem == "QuotaExceededError"
        copier.changed()  # refused again: said once
        await _turns()
        db.let_go()
        await _turns()
        assert told == ["QuotaExceededError"]
        db.refuse = None
        copier.changed()  # the next entry copies everything again, and gets in
        await _turns()
        db.let_go()
        await _turns()
        assert told == ["QuotaExceededError", None] and copier.problem is None

    run(scenario())


def test_a_copy_that_raises_is_a_refusal_too() -> None:
    async def scenario() -> None:
        async def broken() -> str | None:
            raise RuntimeError("IDBFS is gone")

        def unsent() -> Awaitable[str | None]:
            raise RuntimeError("no page to send it to")

        told: list[str | None] = []
        copier = Copier(broken, told.append)
        copier.changed()
        await _turns()
        assert told == ["RuntimeError: IDBFS is gone"] and not copier.pending
        copier = Copier(unsent, told.append)
        copier.changed()
        assert told[-1] == "RuntimeError: no page to send it to" and not copier.pending

    run(scenario())


def test_the_line_says_what_happened_and_what_to_do() -> None:
    line = refused_line("QuotaExceededError")
    assert "refused the last change (QuotaExceededError)" in line and "export the match" in line
    assert "\n" not in line


def test_every_entry_of_the_store_starts_a_copy(tmp_path: Path) -> None:
    """The store's every durable change ends with the sync of its directory: each new match,
    entry and undo starts a copy (the real store, on the browser's Disk)."""
    changes: list[int] = []

    class Counting(Copier):
        def changed(self) -> None:
            changes.append(1)

    previous = use_disk(IndexedDBDisk(Counting(FakeIndexedDB().push, lambda p: None)))
    try:
        with Store(tmp_path / "db") as store:
            changes.clear()  # what opening made (the folder, the index)
            mid = store.create({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"]})
            after_new = len(changes)
            store.append(mid, {"hand": {"leader": "Ann"}})
            after_hand = len(changes)
            store.append(mid, {"turn": {"play": "6-6"}})
            after_play = len(changes)
            store.undo(mid)
            after_undo = len(changes)
    finally:
        use_disk(previous)
    assert 0 < after_new < after_hand < after_play < after_undo


def test_a_second_tab_does_not_open_the_store_and_says_why(tmp_path: Path) -> None:
    previous = use_locking(TabLocking(held=False))
    try:
        with pytest.raises(StoreLockedError) as refused:
            Store(tmp_path / "db", wait=0)
    finally:
        use_locking(previous)
    assert str(refused.value) == ANOTHER_TAB and isinstance(refused.value, StoreError)


def test_the_tab_holding_the_lock_opens_the_store(tmp_path: Path) -> None:
    previous = use_locking(TabLocking(held=True))
    try:
        with Store(tmp_path / "db", wait=0) as store:
            assert store.count() == 0
    finally:
        use_locking(previous)
