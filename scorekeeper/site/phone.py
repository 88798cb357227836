"""Scorekeeper in a phone's browser, with no server: what Pyodide runs (the site's ``main.py``).

The same app as ``scorekeeper web`` (the shell of :mod:`scorekeeper.ui.app.main`, every game
and screen), with the phone as the host of its own table: no codes, no seats, no watchers, no
"Phones at this table" (nothing here is served to other phones); linked to a league (Events ->
League), it sends a fixture's confirmed sheet itself (:func:`scorekeeper.league.club.keep_pushing`,
through the browser's fetch). Its store is kept in the
browser (:mod:`scorekeeper.site.disk`): the folder :data:`STORE` on IDBFS, copied into
IndexedDB after every change, before the screen shows it.

Starting: the page's tab lock and the store's folder (filled from IndexedDB) are asked for
at once, while Flet's client connects; then the store opens as on a laptop (its schema
checked, damaged files moved aside). What stops it is said on the screen in one line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import flet as ft

from scorekeeper.errors import ScorekeeperError
from scorekeeper.league.club import keep_pushing
from scorekeeper.site import browser
from scorekeeper.site.disk import ANOTHER_TAB, Copier, IndexedDBDisk, TabLocking, refused_line
from scorekeeper.store import message_of
from scorekeeper.store.lock import use_locking
from scorekeeper.store.storage import use_disk
from scorekeeper.ui.app.main import make_main
from scorekeeper.ui.history.send import INBOX
from scorekeeper.ui.server.shared import open_shared
from scorekeeper.ui.shell.base import Model, Shared
from scorekeeper.ui.shell.widgets import PAD, error_box, heading

__all__ = ["MOUNT", "STORE", "run"]

#: Where IDBFS is mounted (also the name of its IndexedDB database), and the store in it.
MOUNT = "/scorekeeper"
STORE = f"{MOUNT}/matches-db"

#: The name of the tab lock (one tab of a browser holds the store).
TAB_LOCK = "scorekeeper-store"

#: The page's own tasks (the league's pushes).
_TASKS: set[asyncio.Task[None]] = set()


@ft.observable
class Storage(Model):
    """What the screen says of the phone's storage: None while IndexedDB holds every change."""

    def __init__(self) -> None:
        self.line: str | None = None

    def say(self, line: str | None) -> None:
        if line != self.line:
            self.line = line
            self._changed()


@dataclass
class Opened:
    """The phone's store, opened (``shared``), or why not (``refusal``)."""

    shared: Shared | None = None
    refusal: str | None = None


async def _open(storage: Storage, copier: Copier) -> Opened:
    mounted, held, table = await asyncio.gather(
        browser.mount(MOUNT), browser.take_tab_lock(TAB_LOCK), browser.table_here(INBOX)
    )
    if not held:
        return Opened(refusal=ANOTHER_TAB)
    use_locking(TabLocking(held))
    if mounted is not None:  # no IndexedDB: the store in the page's memory, and a line that says so
        storage.say(
            f"This browser does not let Scorekeeper keep matches ({mounted}): they last while this page is open. "
            "Export them from History before closing it."
        )
    else:
        use_disk(IndexedDBDisk(copier))
    try:
        shared = open_shared(STORE)
    except ScorekeeperError as e:
        return Opened(refusal=message_of(e))
    if table:  # a site from a table's laptop: History sends the finished matches to it (none elsewhere)
        shared.post = browser.post_json
    # the phone alone sends a league fixture's confirmed sheet itself: the outbox in its store's
    # folder, sent by the browser's fetch with the laptop's backoff (a task of the page's loop)
    shared.league_send = browser.league_request
    pushing = asyncio.ensure_future(keep_pushing(Path(shared.store.path), browser.league_request))
    _TASKS.add(pushing)  # kept for the page's life (the loop keeps only a weak reference)
    shared.font_only = True  # a name typed only in the letters its font has (ui/shell/glyphs.py)
    for problem in shared.store.problems:  # a damaged file moved aside, as on a laptop
        print(f"warning: {problem}")
    return Opened(shared=shared)


@ft.component
def StorageLine(storage: Storage) -> ft.Control:
    """The line above every screen while the phone's storage does not hold every change."""
    return error_box(storage.line)


@ft.component
def Refused(line: str) -> ft.Control:
    """The one screen of a page that cannot open the store."""
    return ft.SafeArea(
        content=ft.Container(
            padding=PAD,
            content=ft.Column([heading("Scorekeeper", 28), error_box(line)], spacing=16),
        ),
        expand=True,
    )


def _main(opening: asyncio.Future[Opened], storage: Storage) -> Callable[[ft.Page], Any]:
    async def main(page: ft.Page) -> None:
        opened = await opening
        if opened.shared is None:
            page.title = "Scorekeeper"
            page.render(Refused, opened.refusal or "the store cannot be opened")
            return
        await make_main(opened.shared, lambda: StorageLine(storage))(page)

    return main


def run() -> None:
    """Start the app in this page (Pyodide only): open the store (each change of it copied into
    IndexedDB by the page, which holds the screen meanwhile: see :mod:`scorekeeper.site.disk`),
    run Flet."""
    storage = Storage()
    pages: list[ft.Page] = []

    def told(problem: str | None) -> None:  # from the copier's task: redrawn in the page's session
        line = refused_line(problem) if problem is not None else None
        for page in pages:
            page.run_task(_say, storage, line)

    copier = Copier(browser.push, told)
    opening = asyncio.ensure_future(_open(storage, copier))
    main = _main(opening, storage)

    async def session(page: ft.Page) -> None:
        pages[:] = [page]
        await main(page)

    ft.run(session)


async def _say(storage: Storage, line: str | None) -> None:
    storage.say(line)
