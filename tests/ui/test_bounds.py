"""What one client may cost the server (scorekeeper.ui.server.bounds), without a server: the book of
connections, the quiet log, the open-file limit, the header timeout on a fake transport."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging

import pytest

from scorekeeper.ui.server import bounds
from scorekeeper.ui.server.bounds import ConnectionBook, Limits, OncePerMinute, http_protocol, raise_open_file_limit


class Transport:
    def __init__(self, ip: str = "10.0.0.9") -> None:
        self.ip, self.closed, self.written = ip, False, b""

    def get_extra_info(self, name, default=None):
        return (self.ip, 5000) if name == "peername" else default

    def is_closing(self):
        return self.closed

    def close(self):
        self.closed = True

    def write(self, data):
        self.written += data

    def set_protocol(self, p):
        pass

    def pause_reading(self):
        pass

    def resume_reading(self):
        pass


def test_the_total_bounds_every_client_and_closed_connections_are_counted_out():
    book = ConnectionBook(Limits(per_client=10, total=3))
    ts = [Transport(f"10.0.0.{i}") for i in range(4)]
    assert [book.admit(t) for t in ts] == [True, True, True, False]
    assert book.refused == 1
    ts[0].closed = True
    assert book.admit(ts[3]) and book.open == 3


def test_a_repeated_line_is_logged_once_a_minute_with_a_count_and_no_traceback():
    now = [0.0]
    once = OncePerMinute(60, clock=lambda: now[0])
    log = logging.getLogger("test.bounds")
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    log.addHandler(Keep())
    log.addFilter(once)
    log.propagate = False
    try:
        for _ in range(500):
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                log.error("socket.accept() out of system resource", exc_info=True)
        now[0] = 61.0
        log.error("socket.accept() out of system resource")
    finally:
        log.removeFilter(once)
    assert len(records) == 2
    assert records[0].exc_info is None
    assert "499 more like it" in records[1].getMessage()


def test_the_open_file_limit_is_raised_towards_the_hard_limit():
    resource = bounds._resource()
    if resource is None:
        pytest.skip("this system has no open-file limit (no resource module: Windows)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
        got = raise_open_file_limit(wanted=min(512, hard))
        assert got == min(512, hard) == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert Limits.for_this_process().total == max(16, got - 192)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_without_an_open_file_limit_the_bounds_are_the_wanted_ones(monkeypatch):
    """Windows has no ``resource`` module: the server starts, bounded by WANTED_FDS."""
    monkeypatch.setattr(bounds, "_resource", lambda: None)
    assert raise_open_file_limit() == bounds.WANTED_FDS
    assert Limits.for_this_process() == Limits(total=bounds.WANTED_FDS - bounds.FD_RESERVE)


def test_headers_not_complete_in_time_close_the_connection_and_complete_ones_do_not():
    async def run():
        loop = asyncio.get_running_loop()
        import uvicorn
        from uvicorn.server import ServerState

        async def app(scope, receive, send):
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
            await send({"type": "http.response.body", "body": b"ok"})

        config = uvicorn.Config(app, ws="websockets-sansio")
        config.load()
        book = ConnectionBook(Limits(header_timeout=0.05, per_client=2, total=10))
        cls = http_protocol(book)
        state = ServerState()
        slow, fast, third = Transport(), Transport(), Transport()
        p1 = cls(config=config, server_state=state, app_state={}, _loop=loop)
        p1.connection_made(slow)
        p1.data_received(b"GET / HTTP/1.1\r\nHost: x")
        p2 = cls(config=config, server_state=state, app_state={}, _loop=loop)
        p2.connection_made(fast)
        p2.data_received(b"GET / HTTP/1.1\r\nHo")
        p2.data_received(b"st: x\r\n\r")
        p2.data_received(b"\n")
        p3 = cls(config=config, server_state=state, app_state={}, _loop=loop)
        p3.connection_made(third)  # a third from the same client
        await asyncio.sleep(0.02)
        answered = fast.written.startswith(b"HTTP/1.1 200")
        await asyncio.sleep(0.2)  # past the timeout: the next request on "fast" has its time too
        return slow.closed, answered, fast.closed, third.closed, third.written

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # not on Playwright's loop (the whole suite)
        slow, answered, fast, third, written = pool.submit(asyncio.run, run()).result()
    assert slow and answered
    assert fast  # kept alive, then no new request in time
    assert third and written.startswith(b"HTTP/1.1 503")


def test_a_client_opening_connections_too_fast_is_refused_and_earns_them_back():
    from scorekeeper.ui.server.bounds import Rate

    book = ConnectionBook(Limits(per_client=1000, total=10_000, connect_burst=5, connect_per_second=2.0))
    now = [100.0]
    book.rate.clock = lambda: now[0]
    flood = [Transport("10.0.0.9") for _ in range(8)]
    assert [book.admit(t) for t in flood] == [True] * 5 + [False] * 3
    assert book.admit(Transport("10.0.0.8"))  # another phone is not held back by it
    assert all(book.admit(Transport("127.0.0.1")) for _ in range(20))  # nor is the host
    now[0] += 1.0  # two earned back
    assert [book.admit(Transport("10.0.0.9")) for _ in range(3)] == [True, True, False]
    assert book.refused == 4

    rate = Rate(burst=2, per_second=1.0, clock=lambda: now[0], max_clients=3)
    for i in range(10):  # many addresses: it remembers a few, never more
        rate.admit(f"10.1.0.{i}")
    assert len(rate._buckets) <= 3


def test_refusals_are_logged_once_a_minute_not_once_each():
    book = ConnectionBook(Limits())
    assert book.warn_due(now=1000.0)
    assert not any(book.warn_due(now=1000.0 + s) for s in range(59))
    assert book.warn_due(now=1061.0)
