"""What one client may cost the server: connections, slow requests, file descriptors.

``scorekeeper web`` serves with Uvicorn, which has no time limit on a request's headers: a
client that opens connections and never finishes a request holds a file descriptor each, and
once the process has none left every phone times out (and asyncio logs a traceback per failed
``accept()``). This module bounds that, below the HTTP parser, with no Flet:

* **Headers in time**: a request whose headers are not complete :attr:`Limits.header_timeout`
  seconds after the connection opened (or after the previous response) is dropped.
* **Connections per client**: one address (not loopback: the host's own browsers) may hold
  :attr:`Limits.per_client` connections at once; a connection past that is answered ``503``
  and closed.
* **Connections opened, per client**: one address (not loopback) may open
  :attr:`Limits.connect_burst` connections at once and then :attr:`Limits.connect_per_second`
  a second (a :class:`Rate`); one past that is answered ``503`` and closed before any request
  is read, which costs the server a few tens of microseconds rather than a request's work.
* **Connections in all**: :attr:`Limits.total` at most, set from the process's open-file limit
  (raised to its hard limit at start, :func:`raise_open_file_limit`) with
  :data:`FD_RESERVE` descriptors kept for the store: the server refuses connections before the
  process runs out, so ``accept()`` keeps working and the table recovers by itself. Windows
  has no such limit for sockets (nor the ``resource`` module): there the bound is
  :data:`WANTED_FDS`, less the reserve.
* **Live connections opened, per client**: a WebSocket is a page of the app opening (a new
  session, a reload, a reconnect). One address (not loopback) may open :data:`SOCKET_BURST` at
  once and then one every ``1 / SOCKET_PER_SECOND`` seconds (a :class:`Rate`, in :class:`~scorekeeper.ui.server.guard.Guard`); one past that
  is refused before the app sees it (``403``, which costs the server nothing), and the page's
  client tries again a moment later. A phone opens one, a few more when its network drops; a
  client opening sessions as fast as it can would otherwise cost the server a join screen
  built and sent for each (about 4 ms of its CPU).
* **A quiet log**: the same warning at most once a minute (:class:`OncePerMinute`), with a
  count of those left out.

>>> book = ConnectionBook(Limits(per_client=2, total=3))
>>> class T:  # a transport
...     def __init__(self, ip): self.ip, self.closed = ip, False
...     def get_extra_info(self, name): return (self.ip, 5000)
...     def is_closing(self): return self.closed
>>> a, b, c = T("10.0.0.9"), T("10.0.0.9"), T("10.0.0.9")
>>> book.admit(a), book.admit(b), book.admit(c)
(True, True, False)
>>> a.closed = True
>>> book.admit(c), book.open_from("10.0.0.9")
(True, 2)
>>> book.admit(T("127.0.0.1")), book.admit(T("127.0.0.1"))  # the host: only the total counts
(True, False)
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

#: connections the kernel queues for the server, which is also how many asyncio accepts in one
#: go before any of them is counted (so they are kept free too)
BACKLOG = 128
#: file descriptors kept for the store, the log, Python itself and one batch of accepts
FD_RESERVE = 64 + BACKLOG
#: the most a client address may hold at once (a phone's browser uses about 7: six for the app's
#: files, one for its live connection; a few tabs fit)
PER_CLIENT = 32
#: seconds a client has to send a request's headers (a phone's are one packet)
HEADER_TIMEOUT = 5.0
#: live connections (WebSockets) one client address may open at once, and how many a second it
#: earns afterwards (a :class:`Rate`)
SOCKET_BURST = 20
SOCKET_PER_SECOND = 0.5
#: connections one client address may open at once, and how many a second it earns afterwards:
#: a phone's browser opens about 7 to load the app (and keeps them open), so the burst is a few
#: loads of the page
CONNECT_BURST = 60
CONNECT_PER_SECOND = 3.0
#: client addresses a :class:`Rate` remembers at most (those that earned their burst back
#: are forgotten first)
RATE_CLIENTS = 4096
#: seconds between two log lines about refused connections
WARN_EVERY = 60.0
#: the open-file limit asked for at start where the hard limit allows it
WANTED_FDS = 16384

logger = logging.getLogger("scorekeeper.web")


@dataclass(frozen=True)
class Limits:
    """The bounds above; :meth:`for_this_process` fits ``total`` to the open-file limit."""

    header_timeout: float = HEADER_TIMEOUT
    per_client: int = PER_CLIENT
    total: int = 1024 - FD_RESERVE
    connect_burst: int = CONNECT_BURST
    connect_per_second: float = CONNECT_PER_SECOND

    @classmethod
    def for_this_process(cls) -> Limits:
        resource = _resource()  # None on Windows: sockets are no C file descriptors there
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0] if resource is not None else WANTED_FDS
        fds = WANTED_FDS if resource is None or soft == resource.RLIM_INFINITY else soft
        total = max(16, fds - FD_RESERVE)
        return cls(per_client=min(PER_CLIENT, max(4, total // 4)), total=total)


def _resource() -> Any:
    """The ``resource`` module where the system has one (not on Windows), else None."""
    try:
        import resource
    except ImportError:
        return None
    return resource


def raise_open_file_limit(wanted: int = WANTED_FDS) -> int:
    """Raise this process's soft open-file limit towards ``wanted`` (never past the hard
    limit; a desktop's default soft limit is often 1024); returns the limit in force
    (``wanted`` where the system has no such limit: Windows)."""
    resource = _resource()
    if resource is None:
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return wanted if soft == resource.RLIM_INFINITY else soft
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # macOS caps below its "unlimited" hard limit
            pass
    return soft


def client_of(transport: Any) -> str:
    """The peer address of ``transport`` in its short form ('' when unknown)."""
    peer = transport.get_extra_info("peername")
    return _short(str(peer[0]) if isinstance(peer, tuple) and peer else "")


@functools.lru_cache(maxsize=4096)  # a flood comes from few addresses, each parsed once
def _short(host: str) -> str:
    try:
        ip = ipaddress.ip_address(str(host).split("%")[0])
    except ValueError:
        return str(host)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip)


@functools.lru_cache(maxsize=4096)
def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class ConnectionBook:
    """The open connections (their transports) by client address, for :meth:`admit`."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.rate = Rate(burst=limits.connect_burst, per_second=limits.connect_per_second)
        self._by_client: dict[str, set[Any]] = {}
        self._count = 0
        self._lock = threading.Lock()
        self.refused = 0
        self._warned = -WARN_EVERY

    def warn_due(self, now: float | None = None) -> bool:
        """True at most once every :data:`WARN_EVERY` seconds: a flood of refusals logs one
        line a minute and costs no log record each (see :class:`OncePerMinute` for the rest)."""
        now = time.monotonic() if now is None else now
        if now - self._warned < WARN_EVERY:
            return False
        self._warned = now
        return True

    def _prune(self, address: str) -> set[Any]:
        live = self._by_client.get(address, set())
        closed = {t for t in live if t.is_closing()}
        if closed:
            live -= closed
            self._count -= len(closed)
        if not live:
            self._by_client.pop(address, None)
        return live

    def _prune_all(self) -> None:
        for address in list(self._by_client):
            self._prune(address)

    def admit(self, transport: Any) -> bool:
        """Count ``transport`` in, or False when its client or the server is full, or its
        client opened too many too fast. A
        connection is counted until its transport is closing (a WebSocket's transport outlives
        the HTTP protocol that admitted it, so closed ones are pruned here, not reported)."""
        address = client_of(transport)
        with self._lock:
            live = self._prune(address)
            if self._count >= self.limits.total:
                self._prune_all()
            full = self._count >= self.limits.total
            if not full and not _is_loopback(address) and len(live) >= self.limits.per_client:
                full = True
            if not full and not self.rate.admit(address):
                full = True
            if full:
                self.refused += 1
                return False
            self._by_client.setdefault(address, set()).add(transport)
            self._count += 1
            return True

    def open_from(self, address: str) -> int:
        with self._lock:
            return len(self._prune(address))

    @property
    def open(self) -> int:
        with self._lock:
            self._prune_all()
            return self._count


class Rate:
    """How fast each client address may open something (connections, live connections): a
    token bucket per address (``burst`` tokens, ``per_second`` earned a second); loopback (the
    host's own browsers) is not counted.

    >>> now = [0.0]
    >>> rate = Rate(burst=2, per_second=0.5, clock=lambda: now[0])
    >>> [rate.admit("10.0.0.9") for _ in range(3)], rate.admit("10.0.0.8"), rate.admit("127.0.0.1")
    ([True, True, False], True, True)
    >>> now[0] = 2.0  # one earned back
    >>> rate.admit("10.0.0.9"), rate.admit("10.0.0.9"), rate.refused
    (True, False, 2)
    """

    def __init__(
        self,
        burst: int = SOCKET_BURST,
        per_second: float = SOCKET_PER_SECOND,
        clock: Any = time.monotonic,
        max_clients: int = RATE_CLIENTS,
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when counted)
        self._lock = threading.Lock()
        self.refused = 0

    def _tokens(self, address: str, now: float) -> float:
        tokens, then = self._buckets.get(address, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - then) * self.per_second)

    def admit(self, address: str) -> bool:
        """Count one opened by ``address``; False when it has no token left."""
        if _is_loopback(address):
            return True
        with self._lock:
            now = self.clock()
            tokens = self._tokens(address, now)
            if tokens < 1.0:
                self._buckets[address] = (tokens, now)
                self.refused += 1
                return False
            self._buckets[address] = (tokens - 1.0, now)
            if len(self._buckets) > self.max_clients:
                self._forget(now)
            return True

    def _forget(self, now: float) -> None:
        """Drop the addresses whose bucket is full again (as if never seen); if that is not
        enough, those counted longest ago."""
        for address in [a for a in self._buckets if self._tokens(a, now) >= self.burst]:
            del self._buckets[address]
        if len(self._buckets) > self.max_clients:
            oldest = sorted(self._buckets, key=lambda a: self._buckets[a][1])
            for address in oldest[: len(self._buckets) - self.max_clients]:
                del self._buckets[address]


_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 37\r\nconnection: close\r\n\r\ntoo many connections: try again soon\n"
)


def _base_protocol() -> type[asyncio.Protocol]:
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        return HttpToolsProtocol
    except ImportError:  # no httptools: Uvicorn's pure-Python parser
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return H11Protocol


def http_protocol(book: ConnectionBook, base: type[asyncio.Protocol] | None = None) -> type[asyncio.Protocol]:
    """Uvicorn's HTTP protocol (``base``: httptools' where installed) with the bounds of
    ``book``: :meth:`ConnectionBook.admit` on every connection, and the header timeout."""
    parent: Any = base or _base_protocol()
    timeout = book.limits.header_timeout

    class Bounded(parent):
        _admitted = False
        _timer: asyncio.TimerHandle | None = None
        _tail = b""

        def connection_made(self, transport: Any) -> None:
            if not book.admit(transport):
                if book.warn_due():
                    logger.warning(
                        "refusing connections from %s: too many open or opened (%d refused so far)",
                        client_of(transport),
                        book.refused,
                    )
                transport.write(_BUSY)
                transport.close()
                return
            self._admitted = True
            super().connection_made(transport)
            self._await_headers()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_timer()
            if self._admitted:
                super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if not self._admitted:
                return
            if self._timer is not None:
                seen = self._tail + data
                if b"\r\n\r\n" in seen:
                    self._stop_timer()
                else:
                    self._tail = seen[-3:]
            super().data_received(data)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._await_headers()  # the next request on this connection has its time too

        def _await_headers(self) -> None:
            self._stop_timer()
            self._tail = b""
            self._timer = self.loop.call_later(timeout, self._too_slow)

        def _stop_timer(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            if not self.transport.is_closing():
                logger.warning(
                    "dropped a request from %s: headers not complete in %g s", client_of(self.transport), timeout
                )
                self.transport.close()

    Bounded.__name__ = Bounded.__qualname__ = f"Bounded{parent.__name__}"
    return Bounded


class OncePerMinute(logging.Filter):
    """Lets a log message through at most once per ``every`` seconds (by its template), and
    says on the next one how many were left out: a flood of failed connections writes a line a
    minute, not a traceback each (tracebacks of those are dropped: the line says it all)."""

    def __init__(self, every: float = 60.0, clock: Any = time.monotonic) -> None:
        super().__init__()
        self.every = every
        self._clock = clock
        self._last: dict[tuple[str, str], tuple[float, int]] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = self._clock()
        with self._lock:
            last, skipped = self._last.get(key, (float("-inf"), 0))
            if now - last < self.every:
                self._last[key] = (last, skipped + 1)
                return False
            self._last[key] = (now, 0)
        if record.exc_info and record.levelno < logging.CRITICAL:
            record.exc_info = None  # a line, not a traceback per connection
            record.exc_text = None
        if skipped:
            record.msg = f"{record.msg} (and {skipped} more like it in the last {self.every:g} s)"
        return True


#: loggers whose repeated lines a flood of connections would write: asyncio's failed accept(),
#: Uvicorn's invalid requests and this module's refusals
NOISY_LOGGERS = ("asyncio", "uvicorn.error", "scorekeeper.web", "flet_web.fastapi", "flet")


def quiet_floods(every: float = 60.0) -> OncePerMinute:
    """Put one :class:`OncePerMinute` on each of :data:`NOISY_LOGGERS` (and their handlers'
    records); returns it."""
    once = OncePerMinute(every)
    for name in NOISY_LOGGERS:
        log = logging.getLogger(name)
        if not any(isinstance(f, OncePerMinute) for f in log.filters):
            log.addFilter(once)
    return once
