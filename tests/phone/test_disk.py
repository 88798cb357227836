"""The store on a phone's browser (:mod:`scorekeeper.site.disk`), without a browser: every
durable change of the store starts a copy into IndexedDB, the screen is held until the copy
is in, a refused copy is said and loses nothing, and a second tab does not open the store.

The copy itself is a fake here (an ``asyncio`` coroutine that waits for the test); the browser
tests (``tests/e2e/test_site_browser.py``) run the real one."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path

import pytest
from aio import run

from scorekeeper.errors import StoreError
from scorekeeper.site.disk import ANOTHER_TAB, Copier, HeldScreen, IndexedDBDisk, TabLocking, refused_line
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


def test_the_screen_gets_nothing_until_indexeddb_holds_the_change() -> None:
    async def scenario() -> None:
        db = FakeIndexedDB()
        told: list[str | None] = []
        copier = Copier(db.push, told.append)
        sent: list[bytes] = []
        screen = HeldScreen(sent.append, copier)
        screen(b"before")  # nothing pending: straight through
        assert sent == [b"before"]
        copier.changed()  # the store wrote an entry
        screen(b"redraw 1")
        screen(b"redraw 2")
        await _turns()
        assert sent == [b"before"] and copier.pending and db.started == 1
        db.let_go()
        await _turns()
        assert sent == [b"before", b"redraw 1", b"redraw 2"] and not copier.pending
        assert told == [] and copier.problem is None and screen.most_held == 2

    run(scenario())


def test_a_change_made_during_a_copy_is_copied_after_it_before_the_screen_goes() -> None:
    async def scenario() -> None:
        db = FakeIndexedDB()
        copier = Copier(db.push, lambda p: None)
        sent: list[bytes] = []
        screen = HeldScreen(sent.append, copier)
        copier.changed()
        await _turns()
        copier.changed()  # a second tap while the first copy runs
        copier.changed()
        screen(b"both")
        db.let_go()  # the first copy may have missed the later changes
        await _turns()
        assert sent == [] and db.started == 2  # one more copy, for both
        db.let_go()
        await _turns()
        assert sent == [b"both"] and copier.copies == 2 and not copier.pending

    run(scenario())


def test_a_copy_starts_at_the_change_and_a_later_change_of_the_same_entry_gets_its_own() -> None:
    """The copy starts inside the store's write, before the app redraws; a second file the
    same entry writes (before the loop turns) is not in it, so a second copy is made before
    the screen goes (found by the browser test: a hand's next leader, lost on reload)."""

    async def scenario() -> None:
        db = FakeIndexedDB()
        copier = Copier(db.push, lambda p: None)
        sent: list[bytes] = []
        screen = HeldScreen(sent.append, copier)
        copier.changed()  # the entry's first write: its copy is under way at once
        assert db.started == 1 and copier.pending
        copier.changed()  # the same entry writes a second file, in the same turn of the loop
        screen(b"redraw")
        await _turns()
        db.let_go()  # the first copy is in: it does not hold the second file
        await _turns()
        assert sent == [] and db.started == 2 and copier.pending
        db.let_go()
        await _turns()
        assert sent == [b"redraw"] and copier.copies == 2 and not copier.pending

    run(scenario())


def test_a_refused_copy_lets_the_screen_go_says_why_and_the_next_change_tries_again() -> None:
    async def scenario() -> None:
        db = FakeIndexedDB()
        told: list[str | None] = []
        copier = Copier(db.push, told.append)
        sent: list[bytes] = []
        screen = HeldScreen(sent.append, copier)
        db.refuse = "QuotaExceededError"
        copier.changed()
        screen(b"redraw")
        await _turns()
        db.let_go()
        await _turns()
        assert sent == [b"redraw"]  # the page keeps the change: the screen is not frozen
        assert told == ["QuotaExceededError"] and copier.problem == "QuotaExceededError"
        db.refuse = None
        copier.changed()  # the next entry copies everything again
        await _turns()
        db.let_go()
        await _turns()
        assert told == ["QuotaExceededError", None] and copier.problem is None

    run(scenario())


def test_a_copy_that_raises_is_a_refusal_too() -> None:
    async def scenario() -> None:
        async def broken() -> str | None:
            raise RuntimeError("IDBFS is gone")

        told: list[str | None] = []
        copier = Copier(broken, told.append)
        sent: list[bytes] = []
        screen = HeldScreen(sent.append, copier)
        copier.changed()
        screen(b"x")
        await _turns()
        assert sent == [b"x"] and told == ["RuntimeError: IDBFS is gone"]

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
