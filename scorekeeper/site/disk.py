"""The store on a phone's browser: its files in Pyodide's file system, copied into IndexedDB.

Pyodide's files live in the page's memory. The store's folder is mounted on Emscripten's
IDBFS, which fills it from the browser's IndexedDB when the page starts; the copies the
other way are the site's own (in IDBFS's format, only the files that changed), made when
the store writes. So the store's two platform seams get a browser's version here (pure
Python: the JavaScript side is :mod:`scorekeeper.site.browser` and the page's
``python.js``):

* :class:`IndexedDBDisk` (the store's :class:`~scorekeeper.store.storage.Disk`): every
  durable change of the store (it always ends with the sync of a directory) sends the files
  that changed to the page at once, through its :class:`Copier`; the page writes them into
  IndexedDB (in one transaction) while Python goes on with the redraw in its worker, and
  what the app sends the screen waits in the page until every copy before it is in
  (``scorekeeper/site/web/python.js``). So the screen never shows an entry IndexedDB does
  not hold yet: a tab closed or a browser killed right after the screen showed a tap keeps
  the tap. A copy IndexedDB refuses (its quota used up, storage switched off) lets the
  screen go too, with the reason in :attr:`Copier.problem` for a line on the screen; the
  change is kept in the page (nothing is lost while it stays open) and the next change
  copies everything again;
* :class:`TabLocking` (the store's :class:`~scorekeeper.store.lock.Locking`): ``flock`` is a
  no-op in Pyodide and every tab is pid 42, while two tabs copying their own folders into
  the same IndexedDB would each delete the other's new files. One tab at a time holds the
  store: the page asks the browser for a Web Lock when it starts (see
  :func:`scorekeeper.site.browser.take_tab_lock`), and the store's lock is taken only by a
  page holding it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from scorekeeper.store.lock import Locking
from scorekeeper.store.storage import Disk

__all__ = ["ANOTHER_TAB", "Copier", "IndexedDBDisk", "TabLocking", "refused_line"]

#: Why a second tab of the same browser does not open the store.
ANOTHER_TAB = (
    "Scorekeeper is open in another tab or window of this browser: use that one (or close it and reload this page)"
)


def refused_line(why: str) -> str:
    """The line on the screen while IndexedDB refuses the changes (``why``: the browser's words)."""
    return (
        f"This phone's storage refused the last change ({why}): it is kept only while this page stays open. "
        "Free some space, or export the match from History; the next change tries again."
    )


class Copier:
    """Sends the store's changes to be copied into IndexedDB, each as it is made.

    ``push``: one copy, sent when it is called (the change is on its way to IndexedDB while
    the app redraws); awaited, it gives None once IndexedDB has it, else the browser's
    reason. ``told``: called with the problem (or None once a copy succeeds again) whenever
    it changes. Copies are answered in the order they were sent (the page makes them one
    after the other)."""

    def __init__(self, push: Callable[[], Awaitable[str | None]], told: Callable[[str | None], None]) -> None:
        self._push = push
        self._told = told
        self._tasks: set[asyncio.Task[None]] = set()  # the copies not answered yet
        self.problem: str | None = None
        self.copies = 0  # copies sent (for the tests)

    @property
    def pending(self) -> bool:
        """A change is not in IndexedDB yet, and is being copied."""
        return bool(self._tasks)

    def changed(self) -> None:
        """The store made a change durable in its folder: copy it into IndexedDB, starting now."""
        self.copies += 1
        try:
            answer = self._push()
        except Exception as e:  # the bridge itself failed: said as the browser's refusal
            self._answered(f"{type(e).__name__}: {e}")
            return
        task = asyncio.get_event_loop().create_task(self._wait(answer))
        self._tasks.add(task)  # kept until it ends (the loop keeps only a weak reference)
        task.add_done_callback(self._tasks.discard)

    async def _wait(self, answer: Awaitable[str | None]) -> None:
        try:
            why = await answer
        except Exception as e:  # the bridge itself failed: said as the browser's refusal
            why = f"{type(e).__name__}: {e}"
        self._answered(why)

    def _answered(self, why: str | None) -> None:
        if why != self.problem:
            self.problem = why
            self._told(why)


class IndexedDBDisk(Disk):
    """The store's :class:`~scorekeeper.store.storage.Disk` in the browser: a directory made
    durable (every write of the store ends so) is copied into IndexedDB by ``copier``."""

    def __init__(self, copier: Copier) -> None:
        self.copier = copier

    def sync_dir(self, path: Path) -> None:
        self.copier.changed()


class TabLocking(Locking):
    """The store's :class:`~scorekeeper.store.lock.Locking` in the browser: the lock is this
    page's when the page holds the tab lock (``held``, asked of the browser as it started)."""

    def __init__(self, held: bool) -> None:
        self.held = held

    def try_lock(self, fd: int) -> bool:
        return self.held

    def unlock(self, fd: int) -> None:
        """The tab lock is let go when the page goes."""

    def busy(self, path: Path, holder: str) -> str:
        return ANOTHER_TAB
