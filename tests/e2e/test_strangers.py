"""A stranger on the network against the real ``scorekeeper web``: no message makes it the host,
fake addresses do not speed up its guessing, and its floods of half-sent requests, sessions and
oversized messages cost the table nothing visible.

The stranger is ``tests/e2e/stranger.py`` run in a network namespace of the test's own (its
connections come from an address that is not the host's); the host's own checks come from
loopback. One server for the module (its open-file limit 1024, a desktop's default), listening
on 0.0.0.0 for the namespaces. Every loop is bounded in count and time."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

import pytest

from e2e import harness, netns, stranger
from e2e.conftest import Server
from scorekeeper.ui.server.bounds import HEADER_TIMEOUT, PER_CLIENT, SOCKET_BURST, SOCKET_PER_SECOND

pytestmark = [
    pytest.mark.slow,  # a server of its own and network namespaces (root): about 55 s
    pytest.mark.skipif(
        not sys.platform.startswith("linux"), reason="prlimit, /proc and network namespaces are Linux's"
    ),
]

STRANGER = str(Path(stranger.__file__).resolve())
FD_LIMIT = 1024


class FloodServer(Server):
    """``scorekeeper web --host 0.0.0.0`` under ``prlimit --nofile=1024:1024``, logging Flet's
    session lines (``New session created (N total)``, ``Delete session (N left)``)."""

    @property
    def cmd(self) -> list[str]:
        prlimit = shutil.which("prlimit") or "/usr/bin/prlimit"
        return [
            prlimit,
            f"--nofile={FD_LIMIT}:{FD_LIMIT}",
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "--db",
            self.db,
            "web",
            "--no-browser",
            "--host",
            "0.0.0.0",
            "--port",
            str(self.port),
        ]


@pytest.fixture(scope="module")
def lan(tmp_path_factory):
    s = FloodServer(str(tmp_path_factory.mktemp("strangers") / "db"))
    s.env = {"FLET_LOG_LEVEL": "info"}
    s.start()
    yield s
    s.stop()


def run_stranger(ns: netns.NetNS, *args: str, timeout: float = 120) -> dict:
    r = ns.run(sys.executable, STRANGER, args[0], ns.host_ip, *args[1:], timeout=timeout)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def host_sees(port: int, timeout: float = 10) -> str | None:
    """What a browser on the host machine gets: the host's Home, or (None) nothing in time."""
    with stranger.open_ws("127.0.0.1", port, timeout=timeout) as s:
        s.sendall(stranger.register())
        return stranger.read_until(s, (stranger.HOST_WORDS, stranger.JOIN_WORDS), timeout)


def get_root(port: int, timeout: float = 5) -> float:
    """Seconds a GET / from the host takes (raises when it fails)."""
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        head = s.recv(64)
    assert head.startswith(b"HTTP/1.1 200"), head
    return time.monotonic() - t0


def log_of(s: Server) -> str:
    return harness.server_log(s.proc)


# ----------------------------------------------------------------- who is the host
def test_no_message_makes_a_stranger_the_host(lan):
    """The registration and a patch ``client_ip: 127.0.0.1`` in one TCP write, ten times."""
    with netns.remote_namespace() as ns:
        seen = run_stranger(ns, "host-probe", str(lan.port), "10")
    assert seen == {"host": 0, "stranger": 10, "other": 0}
    assert host_sees(lan.port) == stranger.HOST_WORDS  # the host itself still is


# ----------------------------------------------------------------------- floods
def test_half_sent_requests_cost_the_table_nothing(lan):
    """1,100 connections that never finish their headers (more than the 1024 files the server
    may open), held 8 s: the host and a phone on the network are answered at once all along,
    the stranger's connections are dropped, the log says so in a few lines, and the stranger
    is served again afterwards."""
    before = len(log_of(lan))
    result: dict = {}
    with netns.remote_namespace() as flood, netns.remote_namespace() as phone:
        t = threading.Thread(target=lambda: result.update(run_stranger(flood, "half-open", str(lan.port), "1100", "8")))
        t.start()
        time.sleep(1.5)  # the flood is on
        waits = []
        for _ in range(4):
            waits.append(get_root(lan.port))
            assert host_sees(lan.port, timeout=5) == stranger.HOST_WORDS
            with stranger.open_ws(phone.host_ip, lan.port, timeout=5) as s:
                s.sendall(stranger.register())
                assert stranger.read_until(s, (stranger.JOIN_WORDS,), 5) == stranger.JOIN_WORDS
            time.sleep(0.5)
        t.join(60)
        assert not t.is_alive()
        # the stranger held at most a client's share; the server closed every one it kept
        assert result["opened"] + result["failed"] == 1100
        assert result["closed_by_server"] == result["opened"], result
        # a client's share at once (PER_CLIENT); a held one is closed when its headers' time is
        # up, and its place taken again: on a slow machine the 1,100 take longer than that to open
        turns = 1 + int(result["opening_s"] // HEADER_TIMEOUT)
        assert result["opened"] - result["refused_503"] <= PER_CLIENT * turns, result
        assert max(waits) < 2.0, waits
        # and afterwards it is served as anyone
        after = run_stranger(flood, "sessions", str(lan.port), "1", "10")
        assert after == {"up": 1, "refused": 0}
    log = log_of(lan)[before:]
    # (the host's and the phone's own sessions log a few lines each: not the flood's)
    lines = [
        ln
        for ln in log.splitlines()
        if "session" not in ln.lower() and "FletApp" not in ln and "garbage collected" not in ln
    ]
    assert "Traceback" not in log
    assert len("\n".join(lines)) < 2000, lines[:20]  # a line a minute per kind, not a line per connection
    assert any("too many open" in ln or "headers not complete" in ln for ln in lines), lines


def live_sessions(log: str) -> int:
    """Flet's count of live sessions, as its last session line says."""
    found = re.findall(r"(?:New session created \((\d+) total\)|Delete session \((\d+) left\))", log)
    return int(found[-1][0] or found[-1][1]) if found else 0


def test_code_less_sessions_are_few_and_short_lived(lan):
    """A stranger opens and drops sessions as fast as it can for 8 s: it gets its burst and one
    every two seconds (the rest refused before a session is made), the server keeps a handful
    of them, and none a few seconds after it stops."""
    log = log_of(lan)
    before, at_start = len(log), live_sessions(log)
    with netns.remote_namespace() as ns:
        seen = run_stranger(ns, "sessions", str(lan.port), "2000", "8", timeout=60)
    assert 10 <= seen["up"] <= SOCKET_BURST + SOCKET_PER_SECOND * 8 + 1, seen  # the join screen shown each time
    assert seen["refused"] >= 100, seen
    totals = [int(n) for n in re.findall(r"New session created \((\d+) total\)", log_of(lan)[before:])]
    assert totals and max(totals) - at_start <= 40, (max(totals), at_start)
    deadline = time.monotonic() + 30  # LINGER 10 s after the last drop
    while live_sessions(log_of(lan)) > at_start and time.monotonic() < deadline:
        time.sleep(0.5)
    assert live_sessions(log_of(lan)) <= at_start


def test_an_oversized_message_closes_its_connection(lan):
    with netns.remote_namespace() as ns:
        small = run_stranger(ns, "oversized", str(lan.port), "1000")
        big = run_stranger(ns, "oversized", str(lan.port), str(2 * 1024 * 1024))
    assert small == {"joined": True, "closed": False}
    assert big == {"joined": True, "closed": True}


# -------------------------------------------------------------------- guessing
def test_a_fake_address_per_try_is_slowed_like_one_address(lan):
    """Every try a new session claiming a new ``client_ip``: after the three free tries the
    stranger waits 1, 2, 4 ... s like any one address, so in 6 s it gets a handful of codes
    looked at, not thousands."""
    with netns.remote_namespace() as ns:
        seen = run_stranger(ns, "codes", str(lan.port), "400", "6")
    assert seen["checked"] <= 3 + 4, seen  # 3 free, then at 1, 2, 4 s (+ 1 for timing)
    assert seen["slowed"] >= 10, seen  # of the sessions it was let open (SOCKET_BURST at once)


# ------------------------------------------------------------------- bodies (issue 43)
RECORD = {
    "format": "scorekeeper/1",
    "game": "all-fives",
    "players": ["Ann", "Ben"],
    "rules": {"target": 5},
    "hands": [{"leader": "Ann", "turns": [{"play": "5-0"}]}],
}


def host_requests(port: int, until: float) -> list[float]:
    """The host's own requests from loopback until ``until`` (``time.monotonic``), one after
    another, each on a new connection as a browser's often are: GET / and a small POST
    /matches in turn. The seconds each took (to its whole answer)."""
    body = json.dumps(RECORD).encode()
    post = (
        f"POST /matches HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    get = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
    took = []
    n = 0
    while time.monotonic() < until:
        request = post if n % 2 else get
        n += 1
        t0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(request)
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        took.append(time.monotonic() - t0)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
        time.sleep(0.02)
    return took


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` (Linux: /proc), in MB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return kb / 1024


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used, user and system (Linux: /proc), in seconds."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_bodies_without_a_code_cost_the_table_nothing(lan):
    """8 connections posting 2 MB bodies to /matches with no code, as fast as they can for
    15 s: each is refused (403 or 503) before its body is read and its connection closed, at
    less than half a millisecond of the server's CPU each; and the host's own requests (GET /
    and a small POST /matches from loopback) keep a p95 under 300 ms, or under five times what
    the same requests take on the same machine without the flood (2 s before it and 2 s
    after), whichever is more. Before the door the host's p95 was 1,665 ms.

    The bound guards against a door that reads the bodies again; it is not the figure (a quiet
    machine: 3-8 ms quiet, 9-37 ms during the flood; docs/benchmarks.md). In the suite, the
    other processes drive browsers on the same cores: a CI run measured 56 ms quiet and 190
    ms during the flood, and a run here 7 ms quiet and 66 ms during it, the browsers busier
    during the flood than before it."""
    before = len(log_of(lan))
    pid = lan.proc.pid
    quiet = host_requests(lan.port, time.monotonic() + 2)
    cpu_before = cpu_seconds(pid)
    result: dict = {}
    with netns.remote_namespace() as ns:
        t = threading.Thread(
            target=lambda: result.update(run_stranger(ns, "flood-bodies", str(lan.port), "8", "15", "2000000"))
        )
        t.start()
        time.sleep(1.0)  # the flood is on
        during = host_requests(lan.port, time.monotonic() + 13.5)
        t.join(60)
        assert not t.is_alive()
    cpu = cpu_seconds(pid) - cpu_before
    quiet += host_requests(lan.port, time.monotonic() + 2)
    bound = max(0.300, 5 * p95(quiet))
    print(
        f"host p95: {p95(quiet) * 1000:.0f} ms quiet, {p95(during) * 1000:.0f} ms during the flood "
        f"(bound {bound * 1000:.0f} ms); server CPU {cpu:.2f} s, "
        f"{cpu / max(result['requests'], 1) * 1e6:.0f} us a stranger's request; stranger {result}"
    )
    assert p95(during) < bound, (sorted(during)[-10:], p95(quiet), result)
    assert cpu < 0.0005 * result["requests"], (cpu, result)  # a refusal costs tens of microseconds
    assert result["requests"] >= 8 and result.get("200", 0) == 0, result
    refused = result.get("403", 0) + result.get("503", 0) + result["no_answer"]
    assert refused == result["requests"], result
    assert result["kept_open"] == 0, result  # every refused connection closed by the server, its body unread
    log = log_of(lan)[before:]
    lines = [ln for ln in log.splitlines() if "session" not in ln.lower() and "FletApp" not in ln]
    assert "Traceback" not in log and len("\n".join(lines)) < 2000, lines[:20]  # a line a minute, not one each


def test_half_sent_bodies_are_closed_in_time_and_cost_little_memory(lan):
    """40 connections from one address give the right code and then half a body, and nothing
    more: every one is closed within 30 s (the deadline is 10 s: 408 for the one being read,
    503 for those waiting their turn, 503 at once past the address's 32 connections), and the
    server's memory grows by less than 40 MB."""
    code = re.search(r"\(table code (\d{3}) (\d{3})", log_of(lan))
    assert code, log_of(lan)
    pid = lan.proc.pid
    start = rss_mb(pid)
    peak = start
    result: dict = {}
    with netns.remote_namespace() as ns:
        t = threading.Thread(
            target=lambda: result.update(
                run_stranger(ns, "half-bodies", str(lan.port), "40", "30", code.group(1) + code.group(2))
            )
        )
        t.start()
        while t.is_alive():
            peak = max(peak, rss_mb(pid))
            time.sleep(0.2)
    print(f"half-sent bodies: {result}; server memory {start:.0f} MB -> peak {peak:.0f} MB")
    assert result["opened"] + result["failed"] == 40, result
    assert result["still_open"] == 0 and result["closed_by_server"] == result["opened"], result
    assert result["max_s"] < 30, result
    assert result["statuses"].get("408", 0) >= 1 and set(result["statuses"]) <= {"408", "503"}, result
    assert peak - start < 40, (start, peak)


class TinyServer(FloodServer):
    """The same with so few open files (160) that a flood does run the process out of them."""

    @property
    def cmd(self) -> list[str]:
        return [c.replace(f"--nofile={FD_LIMIT}:{FD_LIMIT}", "--nofile=160:160") for c in super().cmd]


def test_out_of_files_the_server_refuses_quietly_and_recovers(tmp_path):
    """600 half-sent requests from this machine (loopback is not capped per client) against a
    server that may open 160 files: it runs out while they last, says so in a line or two (not
    a traceback per failed accept), drops them in 5 s and then answers as before."""
    s = TinyServer(str(tmp_path / "db")).start()
    try:
        socks = []
        for _ in range(600):
            try:
                c = socket.create_connection(("127.0.0.1", s.port), timeout=2)
                c.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1")
                socks.append(c)
            except OSError:
                pass
        time.sleep(8)  # the header timeout (5 s) and asyncio's retry of accept() (1 s)
        for c in socks:
            c.close()
        deadline = time.monotonic() + 20
        while True:
            try:
                get_root(s.port)
                break
            except (OSError, AssertionError):
                assert time.monotonic() < deadline, "the server did not recover"
                time.sleep(0.5)
        assert host_sees(s.port) == stranger.HOST_WORDS
        log = log_of(s)
        assert "Traceback" not in log
        assert len(log) < 6000, log[-3000:]
    finally:
        s.stop()
