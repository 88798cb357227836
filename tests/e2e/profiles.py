"""Browser profiles kept across the tests of one test process, so a page load costs less.

A page of the app costs this 2-core machine ~5 CPU-seconds to load in a new browser context,
most of it V8 compiling the app's engine (``main.dart.wasm``, 8.5 MB, and Flutter's renderer).
A context made by ``browser.new_context()`` is off the record: it keeps no compiled code, so
every test's every page compiles it all again. A Chromium profile on disk keeps V8's code
cache, keyed by the address of each file: a page of a server on the same port as one loaded
before costs ~3 CPU-seconds (measured: 2.7-3.9 against 4.2-5.7, a new server each load).

So the e2e tests' loopback pages come from a :class:`Profiles` pool: each profile is a
Chromium of its own on its own folder (``launch_persistent_context``), lent to one test (or
one module's fixture) at a time as a :class:`LentContext`, which looks like the browser
context a test asks for (``new_page``, ``on``, ``close``...). Given back (``close``), its
pages are closed, every origin it visited forgets its cookies, storage and service workers
(the compiled code stays), and its listeners go; one that was changed in a way that cannot
be undone (an init script, a route) is closed for good instead. The servers of a test
process use the same few ports (:func:`stable_port`), so the addresses repeat.

Only contexts asked for with nothing but a viewport and a motion preference (and downloads
accepted, as a profile does) come from the pool; any other option gives a fresh off-the-record
context as before. The phones in network namespaces have browsers of their own, not pooled.

Measured back to back (cgroup CPU of the test processes and their browsers): the six modules
with one host page each (score displays, history, players, layout sizes, Fives and Threes, All
Fours) 172 and 173 CPU-s without the pool, 148 and 148 with it; the modules whose phones are
mostly in namespaces (table, app, hardening, Broadway, rejoin, events) 350 and 331 without,
348 and 326 with: no change, as expected.
"""

from __future__ import annotations

import os
import socket
import tempfile
from typing import Any
from urllib.parse import urlsplit

#: The options a lent profile can take per page (anything else: a context of its own).
POOLED_OPTIONS = {"viewport", "reduced_motion"}

#: What a given-back profile's origins forget (not the HTTP cache, where the compiled code is).
FORGET = "cookies,local_storage,indexeddb,websql,service_workers,cache_storage,file_systems"

#: Context methods after which a profile cannot be given back as new.
_LASTING = {
    "add_init_script",
    "route",
    "route_from_har",
    "expose_binding",
    "expose_function",
    "grant_permissions",
    "set_extra_http_headers",
    "set_geolocation",
    "set_http_credentials",
    "add_cookies",
}

_PORTS_FIRST = 21000  # below Linux's ephemeral range (32768-60999): no client socket takes them
_PORTS_EACH = 100
_reserved: set[int] = set()


def stable_port() -> int:
    """A free loopback port from this test process's own small range (the xdist worker's),
    the lowest one not in use: a server started after another stopped gets the same port, so
    the browser profiles see the same addresses again. :func:`release_port` when stopped."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 0
    first = _PORTS_FIRST + _PORTS_EACH * (index % 100)
    for port in range(first, first + _PORTS_EACH):
        if port in _reserved:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds it
            try:
                s.bind(("0.0.0.0", port))
            except OSError:
                continue
        _reserved.add(port)
        return port
    raise RuntimeError(f"no free port in {first}-{first + _PORTS_EACH - 1}")


def reserve_port(port: int) -> None:
    """Hold ``port`` again (a server started again on the port it had)."""
    _reserved.add(port)


def release_port(port: int) -> None:
    """``port`` may be handed out again."""
    _reserved.discard(port)


class LentContext:
    """A pooled profile lent to a test: the browser context it asked for."""

    def __init__(self, pool: Profiles, slot: Slot, viewport: dict[str, int], reduced_motion: str) -> None:
        self._pool = pool
        self._slot = slot
        self._viewport = viewport
        self._motion = reduced_motion
        self._pages: list[Any] = []
        self._listeners: list[tuple[str, Any]] = []
        self._offline = False
        self.closed = False
        self.on("request", self._seen)

    def _seen(self, request: Any) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https"):
            self._slot.origins.add(f"{parts.scheme}://{parts.netloc}")

    # ------------------------------------------------------------- as a context
    @property
    def pages(self) -> list[Any]:
        return [p for p in self._pages if not p.is_closed()]

    def new_page(self) -> Any:
        page = self._slot.context.new_page()
        page.set_viewport_size(self._viewport)
        page.emulate_media(reduced_motion=self._motion)
        self._pages.append(page)
        return page

    def on(self, event: str, handler: Any) -> None:
        self._slot.context.on(event, handler)
        self._listeners.append((event, handler))

    def set_offline(self, offline: bool) -> None:
        self._offline = self._offline or offline
        self._slot.context.set_offline(offline)

    def close(self) -> None:
        """Give the profile back (see the module's docstring)."""
        if not self.closed:
            self.closed = True
            self._pool.give_back(self)

    def __getattr__(self, name: str) -> Any:
        if name in _LASTING:
            self._slot.spoilt = True
        return getattr(self._slot.context, name)

    # ------------------------------------------------------------- given back
    def _clear(self) -> None:
        slot = self._slot
        for page in slot.context.pages:  # the test's pages, and any they opened themselves
            if page is not slot.blank:
                page.close()
        for event, handler in self._listeners:
            slot.context.remove_listener(event, handler)
        if self._offline:
            slot.context.set_offline(False)
        if slot.origins:
            cdp = slot.context.new_cdp_session(slot.blank)
            try:
                for origin in sorted(slot.origins):
                    cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": FORGET})
            finally:
                cdp.detach()
            slot.origins.clear()
        slot.context.clear_cookies()


class Slot:
    """One profile: a Chromium on its own folder, and the blank page it keeps open."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.blank = context.pages[0] if context.pages else context.new_page()
        self.origins: set[str] = set()
        self.spoilt = False


class Profiles:
    """The pool of profiles of one test process (see the module's docstring)."""

    def __init__(self, playwright: Any, executable: str, args: list[str], timeout_ms: float) -> None:
        self._playwright = playwright
        self._executable = executable
        self._args = args
        self._timeout_ms = timeout_ms
        self._root = tempfile.mkdtemp(prefix="e2e-profiles-")
        self._free: list[Slot] = []
        self._made = 0
        self.lent: list[LentContext] = []

    def lend(self, viewport: dict[str, int], reduced_motion: str) -> LentContext:
        if self._free:
            slot = self._free.pop()
        else:
            self._made += 1
            context = self._playwright.chromium.launch_persistent_context(
                os.path.join(self._root, str(self._made)),
                executable_path=self._executable,
                args=self._args,
                headless=True,
                accept_downloads=True,  # as a new context (Playwright's default)
            )
            context.set_default_timeout(self._timeout_ms)
            slot = Slot(context)
        lent = LentContext(self, slot, viewport, reduced_motion)
        self.lent.append(lent)
        return lent

    def give_back(self, lent: LentContext) -> None:
        self.lent.remove(lent)
        slot = lent._slot
        if not slot.spoilt:
            try:
                lent._clear()
            except Exception:
                slot.spoilt = True  # (a profile that will not clear is not lent again)
        if slot.spoilt:
            slot.context.close()
        else:
            self._free.append(slot)

    def close(self) -> None:
        for lent in list(self.lent):
            lent.close()
        for slot in self._free:
            slot.context.close()
        self._free.clear()


__all__ = ["FORGET", "POOLED_OPTIONS", "LentContext", "Profiles", "release_port", "reserve_port", "stable_port"]
