"""The store on a phone's browser: its files in Pyodide's file system, copied into IndexedDB.

Pyodide's files live in the page's memory. The store's folder is mounted on Emscripten's
IDBFS, which keeps a copy of it in the browser's IndexedDB and copies it back when the page
starts again; but only when told to (``FS.syncfs``), and asynchronously. So the store's
two platform seams get a browser's version here (pure Python: the JavaScript side is
:mod:`scorekeeper.site.browser`):

* :class:`IndexedDBDisk` (the store's :class:`~scorekeeper.store.storage.Disk`): every
  durable change of the store (it always ends with the sync of a directory) starts a copy
  into IndexedDB through its :class:`Copier`, one copy at a time, another one after it when
  a change came in meanwhile;
* :class:`HeldScreen`: what the app sends the browser's screen is held while a copy is
  under way and let go, in order, once IndexedDB has the change. So the screen never shows
  an entry IndexedDB does not hold yet: a tab closed or a browser killed right after the
  screen showed a tap keeps the tap. A copy IndexedDB refuses (its quota used up, storage
  switched off) lets the screen go too, with the reason in :attr:`Copier.problem` for a
  line on the screen; the change is kept in the page (nothing is lost while it stays open)
  and the next change copies everything again;
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

__all__ = ["ANOTHER_TAB", "Copier", "HeldScreen", "IndexedDBDisk", "TabLocking", "refused_line"]

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
    """Copies the store's folder into IndexedDB after a change, one copy at a time.

    ``push``: one copy, started when it is called (the store's change is then on its way to
    IndexedDB while the app redraws); awaited, it gives None when IndexedDB has everything,
    else the browser's reason. ``told``: called with the problem (or None once a copy succeeds again) whenever it
    changes. :meth:`after` registers what to run each time the copying stops."""

    def __init__(self, push: Callable[[], Awaitable[str | None]], told: Callable[[str | None], None]) -> None:
        self._push = push
        self._told = told
        self._changes = 0  # changes made
        self._done = 0  # changes copied (or given up on: see ``problem``)
        self._task: asyncio.Task[None] | None = None
        self._after: list[Callable[[], None]] = []
        self.problem: str | None = None
        self.copies = 0  # copies made (for the tests and the benchmark)

    @property
    def pending(self) -> bool:
        """A change is not in IndexedDB yet, and is being copied."""
        return self._done < self._changes

    def after(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` each time the copying stops (every change in, or refused)."""
        self._after.append(fn)

    def changed(self) -> None:
        """The store made a change durable in its folder: copy it into IndexedDB."""
        self._changes += 1
        if self._task is None:  # the copy starts now, not when the loop comes to the task
            self._task = asyncio.get_event_loop().create_task(self._run(self._start()))

    def _start(self) -> tuple[int, Awaitable[str | None] | Exception]:
        """Start a copy: (the changes it holds, the copy under way, or what it raised)."""
        self.copies += 1
        upto = self._changes  # a change made after this line is not in this copy
        try:
            return upto, self._push()
        except Exception as e:  # the bridge itself failed: said as the browser's refusal
            return upto, e

    async def _run(self, first: tuple[int, Awaitable[str | None] | Exception]) -> None:
        upto, copy = first
        try:
            while self._done < self._changes:
                try:
                    if isinstance(copy, Exception):
                        raise copy
                    why = await copy
                except Exception as e:  # the bridge itself failed: said as the browser's refusal
                    why = f"{type(e).__name__}: {e}"
                if why is not None:
                    self._done = self._changes  # let the screen go: the change is in the page
                    self._tell(why)
                    break
                self._done = upto
                self._tell(None)
                if self._done < self._changes:  # changes made since it started
                    upto, copy = self._start()
        finally:
            self._task = None
            for fn in list(self._after):
                fn()

    def _tell(self, problem: str | None) -> None:
        if problem != self.problem:
            self.problem = problem
            self._told(problem)


class IndexedDBDisk(Disk):
    """The store's :class:`~scorekeeper.store.storage.Disk` in the browser: a directory made
    durable (every write of the store ends so) is copied into IndexedDB by ``copier``."""

    def __init__(self, copier: Copier) -> None:
        self.copier = copier

    def sync_dir(self, path: Path) -> None:
        self.copier.changed()


class HeldScreen:
    """What the app sends the browser (``send``: Flet's channel to the page), held while
    ``copier`` has a change that IndexedDB does not hold yet, then let go in order."""

    def __init__(self, send: Callable[[bytes], object], copier: Copier) -> None:
        self._send = send
        self._copier = copier
        self._held: list[bytes] = []
        self.most_held = 0  # the most messages held at once (for the tests)
        copier.after(self.release)

    def __call__(self, data: bytes) -> None:
        if self._copier.pending or self._held:
            self._held.append(data)
            self.most_held = max(self.most_held, len(self._held))
            if not self._copier.pending:
                self.release()
        else:
            self._send(data)

    def release(self) -> None:
        """Send what was held, unless a change is still being copied."""
        while self._held and not self._copier.pending:
            self._send(self._held.pop(0))


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
