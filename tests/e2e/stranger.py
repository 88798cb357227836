"""A stranger's client for the server's hardening tests: the app's WebSocket protocol spoken
by hand, so a test can send what no browser would (a page patch of ``client_ip`` in the same
TCP write as the registration, a flood of connections or sessions).

Run inside a test's network namespace (``ns.run(sys.executable, stranger.__file__, ...)``),
so the server sees it coming from an address that is not the host's. Every loop is bounded
in count and in time. Prints one JSON object.

    python stranger.py host-probe HOST PORT N      # N sessions, each claiming client_ip 127.0.0.1
    python stranger.py codes HOST PORT N SECONDS   # wrong codes, a fake client_ip on each try
    python stranger.py sessions HOST PORT N SECONDS  # open and drop code-less sessions
    python stranger.py half-open HOST PORT N SECONDS # connections that never finish their headers
    python stranger.py oversized HOST PORT BYTES     # a page patch of that size
    python stranger.py hold HOST PORT N SECONDS      # N code-less sessions kept open
    python stranger.py join HOST PORT ROUTE          # a session opened at ROUTE (a join link)
    python stranger.py flood-bodies HOST PORT CONNS SECONDS BYTES  # POST /matches bodies, no code
    python stranger.py half-bodies HOST PORT N SECONDS CODE  # bodies with the code, half sent
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import sys
import threading
import time
from typing import Any

import msgpack

REGISTER, PATCH = 1, 4
HOST_WORDS = "Phones at this table"  # on the host's Home only
JOIN_WORDS = "Join the table"  # a browser without a code
WRONG = "that is not this table's code"
WAIT = "too many wrong codes"
SCORER_WORDS = "New match"  # a scorer's Home (and the host's)
WATCHER_WORDS = "Watching: you see the table"  # a watcher's Home


def frame(payload: bytes) -> bytes:
    """One masked binary WebSocket frame (a client's frames are masked)."""
    head = bytearray([0x82])
    n = len(payload)
    if n < 126:
        head.append(0x80 | n)
    elif n < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    mask = os.urandom(4)
    return bytes(head) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def message(action: int, body: dict[str, Any]) -> bytes:
    return frame(b"\x00" + msgpack.packb([action, body]))


def register(route: str = "/", **page: Any) -> bytes:
    return message(REGISTER, {"session_id": None, "page_name": "", "page": {"route": route, "web": True, **page}})


def patch_page(**props: Any) -> bytes:
    return message(PATCH, {"id": 1, "props": props})


class Conn:
    """A WebSocket's socket and what was read past the handshake."""

    def __init__(self, sock: socket.socket, rest: bytes) -> None:
        self.sock, self.rest = sock, rest

    def sendall(self, data: bytes) -> None:
        self.sock.sendall(data)

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> Conn:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_ws(host: str, port: int, timeout: float = 10.0) -> Conn:
    """A WebSocket to the app's ``/ws``, its handshake done (as the app's own page: Origin)."""
    s = socket.create_connection((host, port), timeout=timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://{host}:{port}\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace"))
    return Conn(s, head.split(b"\r\n\r\n", 1)[1])


def _strings(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out)


def read_until(conn: Conn, words: tuple[str, ...], timeout: float) -> str | None:
    """Read the server's messages until one of ``words`` appears in their texts (returns it),
    the socket closes or ``timeout`` passes (None)."""
    s = conn.sock
    buf = conn.rest
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        while len(buf) >= 2:
            n = buf[1] & 0x7F
            off = 2
            if n == 126:
                if len(buf) < 4:
                    break
                n, off = struct.unpack("!H", buf[2:4])[0], 4
            elif n == 127:
                if len(buf) < 10:
                    break
                n, off = struct.unpack("!Q", buf[2:10])[0], 10
            if len(buf) < off + n:
                break
            opcode, payload, buf = buf[0] & 0x0F, buf[off : off + n], buf[off + n :]
            if opcode == 8:
                return None
            if opcode == 2 and payload[:1] == b"\x00":
                texts: list[str] = []
                _strings(msgpack.unpackb(payload[1:], strict_map_key=False), texts)
                for w in words:
                    if any(w in t for t in texts):
                        return w
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = s.recv(65536)
        except TimeoutError:
            return None
        except OSError:
            return None
        if not chunk:
            return None
        buf += chunk
    return None


def host_probe(host: str, port: int, n: int) -> dict[str, Any]:
    """``n`` sessions, each sending its registration and ``client_ip: 127.0.0.1`` in one write."""
    seen: dict[str, int] = {"host": 0, "stranger": 0, "other": 0}
    for _ in range(n):
        with open_ws(host, port) as s:
            s.sendall(register() + patch_page(client_ip="127.0.0.1", client_user_agent="x"))
            got = read_until(s, (HOST_WORDS, JOIN_WORDS), 15)
        seen["host" if got == HOST_WORDS else "stranger" if got == JOIN_WORDS else "other"] += 1
    return seen


def codes(host: str, port: int, n: int, seconds: float) -> dict[str, Any]:
    """Up to ``n`` wrong codes in ``seconds``, each from a new session claiming a new address
    (``refused``: sessions the server would not open)."""
    seen = {"checked": 0, "slowed": 0, "other": 0, "refused": 0}
    deadline = time.monotonic() + seconds
    for i in range(n):
        if time.monotonic() > deadline:
            break
        fake = f"10.{(i >> 16) & 255}.{(i >> 8) & 255}.{i & 255}"
        try:
            s = open_ws(host, port)
        except OSError:
            seen["refused"] += 1
            continue
        with s:
            s.sendall(register(route=f"/join/{i % 1000:06d}") + patch_page(client_ip=fake))
            got = read_until(s, (WRONG, WAIT), 15)
        seen["checked" if got == WRONG else "slowed" if got == WAIT else "other"] += 1
    return seen


def sessions(host: str, port: int, n: int, seconds: float) -> dict[str, Any]:
    """Open up to ``n`` code-less sessions in ``seconds`` (each: connect, register, see the join
    screen, drop), the last 8 of them kept open; returns how many came up."""
    up = refused = 0
    kept: list[Conn] = []
    deadline = time.monotonic() + seconds
    for _ in range(n):
        if time.monotonic() > deadline:
            break
        try:
            s = open_ws(host, port, timeout=5)
            s.sendall(register())
            if read_until(s, (JOIN_WORDS,), 5) == JOIN_WORDS:
                up += 1
            else:
                refused += 1
        except OSError:
            refused += 1
            continue
        kept.append(s)
        if len(kept) > 8:
            kept.pop(0).close()
    for s in kept:
        s.close()
    return {"up": up, "refused": refused}


def hold(host: str, port: int, n: int, seconds: float) -> dict[str, Any]:
    """Open ``n`` code-less sessions and keep them ``seconds`` (to weigh them)."""
    kept = []
    for _ in range(n):
        try:
            s = open_ws(host, port, timeout=5)
        except OSError:
            break
        s.sendall(register())
        if read_until(s, (JOIN_WORDS,), 5) == JOIN_WORDS:
            kept.append(s)
    print(json.dumps({"up": len(kept)}), flush=True)
    time.sleep(seconds)
    for s in kept:
        s.close()
    return {"up": len(kept)}


def half_open(host: str, port: int, n: int, seconds: float) -> dict[str, Any]:
    """Open up to ``n`` connections that send part of a request's headers and then nothing;
    hold them ``seconds``; count how many the server closed by then."""
    socks = []
    failed = 0
    t0 = time.monotonic()
    for _ in range(n):
        try:
            s = socket.create_connection((host, port), timeout=2)
            s.sendall(b"GET / HTTP/1.1\r\nHost: " + host.encode())
            socks.append(s)
        except OSError:
            failed += 1
    opened = time.monotonic() - t0
    time.sleep(max(0.0, seconds - opened))
    # closed by the server: at once with a 503, or when their time was up. On a loaded machine
    # the last ones opened (and the server's timers) run late: those still open are looked at
    # again for up to 10 s more (a server that never closes them still fails).
    closed = busy = 0
    waiting = list(socks)
    late = time.monotonic() + 10.0
    for s in socks:
        s.setblocking(False)
    while waiting:
        still = []
        for s in waiting:
            try:
                got = s.recv(4096)
                closed += 1  # an answer (then the server closes) or the end
                busy += got.startswith(b"HTTP/1.1 503")
                s.close()
            except BlockingIOError:
                still.append(s)
            except OSError:
                closed += 1
                s.close()
        waiting = still
        if waiting and time.monotonic() > late:
            break
        if waiting:
            time.sleep(0.2)
    for s in waiting:
        s.close()
    return {
        "opened": len(socks),
        "failed": failed,
        "closed_by_server": closed,
        "refused_503": busy,
        "opening_s": round(opened, 2),
    }


def oversized(host: str, port: int, size: int) -> dict[str, Any]:
    """A session, then a page patch of ``size`` bytes: is the connection closed, and is a
    small message still answered afterwards on it?"""
    with open_ws(host, port) as s:
        s.sendall(register())
        joined = read_until(s, (JOIN_WORDS,), 10) == JOIN_WORDS
        try:
            s.sendall(patch_page(width=412.0, title="x" * size))
            s.sendall(patch_page(width=413.0))
        except OSError:
            return {"joined": joined, "closed": True}
        closed = _closed(s)
    return {"joined": joined, "closed": closed}


def _closed(conn: Conn) -> bool:
    conn.sock.settimeout(2)
    try:
        while True:
            chunk = conn.sock.recv(65536)
            if not chunk:
                return True
            if chunk[:1] == b"\x88":  # a close frame
                return True
    except TimeoutError:
        return False
    except OSError:
        return True


def join(host: str, port: int, route: str) -> dict[str, Any]:
    """A session opened at ``route`` (``/join/<secret or code>``): what it is let see."""
    with open_ws(host, port) as s:
        s.sendall(register(route=route))
        got = read_until(s, (WATCHER_WORDS, SCORER_WORDS, JOIN_WORDS), 15)
    return {"sees": {WATCHER_WORDS: "watcher", SCORER_WORDS: "scorer", JOIN_WORDS: "join screen"}.get(got or "", "?")}


def _post_head(host: str, port: int, size: int, code: str | None = None) -> bytes:
    extra = f"X-Scorekeeper-Code: {code}\r\n" if code else ""
    return (
        f"POST /matches HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {size}\r\n{extra}\r\n"
    ).encode()


def _status(s: socket.socket) -> int | None:
    """The status of the answer on ``s`` (None: closed or reset without one)."""
    try:
        head = s.recv(64)
    except OSError:
        return None
    parts = head.split(b" ", 2)
    return int(parts[1]) if head.startswith(b"HTTP/1.1 ") and len(parts) > 1 and parts[1].isdigit() else None


def _closed_after(s: socket.socket, seconds: float = 3.0) -> bool:
    """True when the server closes ``s`` (its end, or a reset) within ``seconds``."""
    s.settimeout(seconds)
    try:
        while s.recv(65536):
            pass
    except TimeoutError:
        return False
    except OSError:
        pass
    return True


def flood_bodies(host: str, port: int, conns: int, seconds: float, size: int) -> dict[str, Any]:
    """``conns`` connections at once, for ``seconds``, each posting a body of ``size`` bytes to
    /matches with no code as fast as it can, and again on a new connection once the server
    refuses (the most a client without the code can make the server read); ``kept_open``:
    refused connections the server did not close."""
    stop = time.monotonic() + seconds
    seen: dict[str, int] = {"requests": 0, "bytes_sent": 0, "no_answer": 0, "kept_open": 0}
    lock = threading.Lock()
    item = b'{"a": [1, 2, 3]},'  # valid JSON, slow to parse: what a server that parses first pays most for
    n = (size - 4) // len(item)
    body = b"[" + item * n + b"{}" + b" " * (size - 4 - len(item) * n) + b"]"
    assert len(body) == size and json.loads(body)

    def worker() -> None:
        while time.monotonic() < stop:
            sent = 0
            status = None
            try:
                with socket.create_connection((host, port), timeout=5) as s:
                    s.sendall(_post_head(host, port, size))
                    try:
                        while sent < size and time.monotonic() < stop:
                            s.sendall(body[sent : sent + 65_536])
                            sent += min(65_536, size - sent)
                    except OSError:
                        pass  # the server closed it: what answer came is read below
                    status = _status(s)
                    kept = status is not None and not _closed_after(s)  # the rest of its body read?
            except OSError:
                kept = False
            with lock:
                seen["kept_open"] += kept
                seen["requests"] += 1
                seen["bytes_sent"] += sent
                key = str(status) if status is not None else "no_answer"
                seen[key] = seen.get(key, 0) + 1

    threads = [threading.Thread(target=worker) for _ in range(conns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 30)
    return seen


def half_bodies(host: str, port: int, n: int, seconds: float, code: str) -> dict[str, Any]:
    """``n`` connections that give the right code and then half a body (of 100 KB) and
    nothing more; each watched for up to ``seconds``: when the server closed it, and with
    what status."""
    size, half = 100_000, 50_000
    socks: list[tuple[socket.socket, float]] = []
    failed = 0
    for _ in range(n):
        try:
            s = socket.create_connection((host, port), timeout=2)
            s.sendall(_post_head(host, port, size, code) + b"[" * half)
            socks.append((s, time.monotonic()))
        except OSError:
            failed += 1
    statuses: dict[str, int] = {}
    took: list[float] = []
    waiting = list(socks)
    late = time.monotonic() + seconds
    for s, _ in socks:
        s.setblocking(False)
    buffers: dict[socket.socket, bytes] = {}
    while waiting and time.monotonic() < late:
        still = []
        for s, opened in waiting:
            try:
                got = s.recv(4096)
            except BlockingIOError:
                still.append((s, opened))
                continue
            except OSError:
                got = b""
            if got:
                buffers[s] = buffers.get(s, b"") + got
                still.append((s, opened))  # an answer: the end of the connection comes next
                continue
            took.append(time.monotonic() - opened)
            head = buffers.get(s, b"")
            status = head.split(b" ", 2)[1].decode() if head.startswith(b"HTTP/1.1 ") else "none"
            statuses[status] = statuses.get(status, 0) + 1
            s.close()
        waiting = still
        if waiting:
            time.sleep(0.05)
    for s, _ in waiting:
        s.close()
    took.sort()
    return {
        "opened": len(socks),
        "failed": failed,
        "closed_by_server": len(took),
        "still_open": len(waiting),
        "statuses": statuses,
        "max_s": round(took[-1], 2) if took else None,
        "median_s": round(took[len(took) // 2], 2) if took else None,
    }


def main(argv: list[str]) -> int:
    cmd, host, port = argv[0], argv[1], int(argv[2])
    if cmd == "join":
        print(json.dumps(join(host, port, argv[3])), flush=True)
        return 0
    if cmd == "half-bodies":
        print(json.dumps(half_bodies(host, port, int(argv[3]), float(argv[4]), argv[5])), flush=True)
        return 0
    nums = [float(a) for a in argv[3:]]
    if cmd == "flood-bodies":
        out = flood_bodies(host, port, int(nums[0]), nums[1], int(nums[2]))
    elif cmd == "host-probe":
        out = host_probe(host, port, int(nums[0]))
    elif cmd == "codes":
        out = codes(host, port, int(nums[0]), nums[1])
    elif cmd == "sessions":
        out = sessions(host, port, int(nums[0]), nums[1])
    elif cmd == "hold":
        out = hold(host, port, int(nums[0]), nums[1])
    elif cmd == "oversized":
        out = oversized(host, port, int(nums[0]))
    elif cmd == "half-open":
        out = half_open(host, port, int(nums[0]), nums[1])
    else:
        raise SystemExit(f"unknown command {cmd!r}")
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
