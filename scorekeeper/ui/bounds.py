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
* **Connections in all**: :attr:`Limits.total` at most, set from the process's open-file limit
  (raised to its hard limit at start, :func:`raise_open_file_limit`) with
  :data:`FD_RESERVE` descriptors kept for the store: the server refuses connections before the
  process runs out, so ``accept()`` keeps working and the table recovers by itself.
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
import ipaddress
import logging
import resource
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
#: the open-file limit asked for at start where the hard limit allows it
WANTED_FDS = 16384

logger = logging.getLogger("scorekeeper.web")


@dataclass(frozen=True)
class Limits:
    """The bounds above; :meth:`for_this_process` fits ``total`` to the open-file limit."""

    header_timeout: float = HEADER_TIMEOUT
    per_client: int = PER_CLIENT
    total: int = 1024 - FD_RESERVE

    @classmethod
    def for_this_process(cls) -> Limits:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        fds = WANTED_FDS if soft == resource.RLIM_INFINITY else soft
        total = max(16, fds - FD_RESERVE)
        return cls(per_client=min(PER_CLIENT, max(4, total // 4)), total=total)


def raise_open_file_limit(wanted: int = WANTED_FDS) -> int:
    """Raise this process's soft open-file limit towards ``wanted`` (never past the hard
    limit; a desktop's default soft limit is often 1024); returns the limit in force."""
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
    host = peer[0] if isinstance(peer, tuple) and peer else ""
    try:
        ip = ipaddress.ip_address(str(host).split("%")[0])
    except ValueError:
        return str(host)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip)


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class ConnectionBook:
    """The open connections (their transports) by client address, for :meth:`admit`."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._by_client: dict[str, set[Any]] = {}
        self._count = 0
        self._lock = threading.Lock()
        self.refused = 0

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
        """Count ``transport`` in, or False when its client or the server is full. A
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
                logger.warning("refusing connections from %s: too many open", client_of(transport))
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
