"""The real ``scorekeeper web`` server: it answers only the app's own paths, with the
security headers, to its own Host and Origin, and frees closed sessions; the app still
runs in Chromium under its Content-Security-Policy (on this machine and from a phone on
the network). Every request goes to loopback, or to the test's own network namespace.

The tests that only ask share one server (``module_server``); those that stop it, count its
sessions or serve another address start their own."""

from __future__ import annotations

import base64
import hashlib
import http.client
import os
import re
import socket
import time

import msgpack
import pytest
from websockets.sync.client import connect

from e2e import harness, netns
from e2e.conftest import LanServer, Server

tap, wait_text = harness.tap, harness.wait_text

#: the matches of ``module_server`` (made before it starts)
MATCHES = {"csp": {"names": ["Ann", "Ben"], "leader": "Ann"}}

HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}

#: collects the page's CSP violations in ``window.__csp`` (a context's init script)
_COLLECT_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
  {directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile + ':' + e.lineNumber}));
"""


def fetch(port: int, path: str = "/", host: str | None = None) -> tuple[int, http.client.HTTPMessage, bytes]:
    """GET ``path`` from 127.0.0.1:``port`` with the ``Host`` header ``host``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", host or f"127.0.0.1:{port}")
        conn.endheaders()
        r = conn.getresponse()
        return r.status, r.headers, r.read()
    finally:
        conn.close()


def handshake_status(port: int, origin: str | None, host: str | None = None) -> int:
    """The HTTP status the server answers a WebSocket handshake for the app's ``/ws`` with."""
    return handshake(port, origin, host)[0]


def handshake(port: int, origin: str | None, host: str | None = None, extra: tuple[str, ...] = ()) -> tuple[int, bytes]:
    """The HTTP status and head the server answers a WebSocket handshake for the app's ``/ws``
    with (``extra``: more header lines)."""
    lines = [
        "GET /ws HTTP/1.1",
        f"Host: {host or f'127.0.0.1:{port}'}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}",
        "Sec-WebSocket-Version: 13",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    lines += extra
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(1024)
            if not chunk:
                break
            head += chunk
    found = re.match(rb"HTTP/1\.1 (\d{3}) ", head)
    assert found, head
    return int(found.group(1)), head.split(b"\r\n\r\n")[0]


def inline_hashes(html: bytes) -> set[str]:
    """The CSP hashes of the inline scripts of ``html`` (worked out here, not by the app)."""
    return {
        "'sha256-" + base64.b64encode(hashlib.sha256(m.group(2).replace(b"\r\n", b"\n")).digest()).decode() + "'"
        for m in re.finditer(rb"<script(\s[^>]*)?>(.*?)</script>", html, re.S)
        if b"src=" not in (m.group(1) or b"")
    }


# ------------------------------------------------------------------ HTTP only
def test_the_frameworks_paths_are_not_served(module_server):
    server = module_server
    for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect", "/oauth_callback"):
        status, headers, body = fetch(server.port, path)
        assert status == 404, path
        assert b"swagger" not in body.lower() and b"openapi" not in body.lower()


def test_every_response_carries_the_security_headers(module_server):
    server = module_server
    status, headers, page = fetch(server.port, "/")
    assert status == 200
    policy = headers["content-security-policy"]
    script_src = next(d for d in policy.split("; ") if d.startswith("script-src "))
    assert inline_hashes(page) and inline_hashes(page) <= set(script_src.split())
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
    assert "frame-ancestors 'none'" in policy
    assert f"ws://127.0.0.1:{server.port}" in policy
    for path, want in [
        ("/join/123456", 200),
        ("/flutter_bootstrap.js", 200),
        ("/main.dart.wasm", 200),
        ("/canvaskit/skwasm.wasm", 200),
        ("/no-such-file.js", 404),
        ("/docs", 404),
    ]:
        status, headers, _ = fetch(server.port, path)
        assert status == want, path
        for name, value in HEADERS.items():
            assert headers.get_all(name) == [value], (path, name)
        assert headers["content-security-policy"] == policy, path
        assert headers["access-control-allow-origin"] is None, path


def test_only_the_servers_own_host_is_answered(module_server):
    port = module_server.port
    for host in (f"evil.example:{port}", f"127.0.0.1:{port + 1}", "localhost", f"[::1]x:{port}"):
        status, headers, body = fetch(port, "/", host)
        assert status == 400, host
        assert headers["content-type"].startswith("text/plain")
        assert body.startswith(b"unknown host") and len(body) < 200
        assert headers["x-frame-options"] == "DENY"
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}"):
        status, headers, body = fetch(port, "/", host)
        assert status == 200, host
        assert b"flutter_bootstrap.js" in body


def test_a_websocket_from_another_origin_is_refused_and_the_apps_own_is_served(server):
    port = server.port
    for origin in ("http://evil.example", f"http://evil.example:{port}", f"https://127.0.0.1:{port}", "null"):
        assert handshake_status(port, origin) == 403, origin
    assert handshake_status(port, f"http://127.0.0.1:{port}", host=f"evil.example:{port}") == 403
    # the app's own origin: the handshake is accepted and the app answers as it answers its client
    for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
        with connect(f"ws://127.0.0.1:{port}/ws", origin=origin, open_timeout=30) as ws:
            register = [1, {"session_id": None, "page_name": "", "page": {"route": "/"}}]  # Flet's REGISTER_CLIENT
            ws.send(b"\x00" + msgpack.packb(register))
            reply = ws.recv(timeout=30)
            assert isinstance(reply, bytes) and reply[0] == 0
            action, body = msgpack.unpackb(reply[1:])
            assert action == 1 and body["session_id"] and not body["error"]
    proc = server.proc
    server.stop()
    assert "Traceback" not in harness.server_log(proc), harness.server_log(proc)  # it stopped quietly


def test_messages_are_sent_uncompressed_though_the_browser_offers_compression(module_server):
    """Chromium offers every WebSocket per-message compression; the server declines it: a
    redraw is a few kilobytes on the club's own network, and compressing each one for every
    phone cost the server a few per cent of its CPU (docs/benchmarks.md, the ninth round)."""
    port = module_server.port
    offer = ("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits",)
    status, head = handshake(port, f"http://127.0.0.1:{port}", extra=offer)
    assert status == 101 and b"upgrade: websocket" in head.lower()
    assert b"sec-websocket-extensions" not in head.lower(), head


# ----------------------------------------------------------------- sessions
@pytest.mark.browser
def test_closed_sessions_are_freed_within_the_timeout(browser, tmp_path):
    s = Server(str(tmp_path / "db"))
    s.env = {"FLET_SESSION_TIMEOUT": "2", "FLET_LOG_LEVEL": "info"}
    s.start()
    try:
        ctx = harness.new_context(browser)
        page = harness.open_app(ctx, s.url)
        harness.reload(page, new_session=True)  # the first session closed, a second one opened
        ctx.close()  # the second closed
        deadline = time.monotonic() + 60  # 2 s, then Flet's sweep every 10 s
        # both deleted (on a slow reload the sweep frees the first before the second starts:
        # then both deletions leave 0)
        while len(re.findall(r"Delete session", harness.server_log(s.proc))) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
        log = harness.server_log(s.proc)
        assert len(re.findall(r"New session created", log)) == 2, log
        left = re.findall(r"Delete session \((\d+) left\)", log)
        assert len(left) == 2 and left[-1] == "0", log
    finally:
        s.stop()


# --------------------------------------------------------------- in Chromium
def violations(page) -> list[dict]:
    """The page's CSP violations other than scripts from another origin refused: Flet's wasm
    build asks a CDN for rive_native.js (the app does not use Rive); the policy refusing
    that is what it is for."""
    found = page.evaluate("window.__csp")
    return [v for v in found if not (v["directive"] == "script-src-elem" and v["blocked"].startswith("https://"))]


def other_errors(page) -> list[str]:
    """Console errors other than that refused CDN script's, and (at an address of the LAN,
    which is not a secure context) Chromium saying it ignores Flet's Cross-Origin-Opener-Policy,
    and loads Chromium cancelled and made again because the machine's network changed (another
    test, at the same time, made a network namespace and its veth pair: ``net::ERR_NETWORK_CHANGED``)."""
    return [
        e
        for e in page.console_errors
        if "rive_native" not in e
        and not e.startswith("The Cross-Origin-Opener-Policy header has been ignored")
        and "net::ERR_NETWORK_CHANGED" not in e
    ]


@pytest.mark.browser
def test_the_app_runs_under_its_csp(browser, module_server):
    server = module_server
    ctx = harness.new_context(browser)
    ctx.add_init_script(_COLLECT_VIOLATIONS)
    try:
        page = harness.open_app(ctx, server.url)
        tap(page, "Phones at this table")  # the QR codes
        wait_text(page, re.compile(r"^QR code: http://"))
        tap(page, "Back")
        wait_text(page, "New match")
        # a match made before the server started (the New match form is driven by taps in
        # test_app_browser.py; the policy is the same on every screen)
        harness.go_to(page, f"/table/{server.mids['csp']}", re.compile(r"^Hand 1, Ann to play"))
        tap(page, "tile 3-2")
        wait_text(page, "Score Ann 5")
        tap(page, "Score")
        wait_text(page, "Score over the turns")
        harness.reload(page)  # the same session, reconnected
        wait_text(page, "Score over the turns")
        assert violations(page) == []
        assert other_errors(page) == []
        assert [u for u in harness.external_requests(ctx) if "rive_native" not in u] == []
    finally:
        ctx.close()


@pytest.mark.browser
def test_a_phone_on_the_network_gets_the_app_under_its_csp(browser, tmp_path):
    s = LanServer(str(tmp_path / "db")).start()
    try:
        with netns.remote_browser(browser.playwright) as (ns, remote):
            status, _, _ = fetch(s.port, "/", f"{ns.host_ip}:{s.port}")
            assert status == 200  # an address of this machine: answered
            ctx = harness.new_context(remote)
            ctx.add_init_script(_COLLECT_VIOLATIONS)
            page = harness.open_app(ctx, ns.url(s.port, "/"))  # the page's Host and Origin: that address
            wait_text(page, "Join the table")
            harness.enter(page, "Table code", "123")
            tap(page, "Join")
            wait_text(page, "that is not this table's code: check it on the host's screen")
            assert violations(page) == []
            assert other_errors(page) == []
            ctx.close()
    finally:
        s.stop()
