"""What the web server answers, and to whom (scorekeeper.ui.server.guard): the Host and Origin
checks, the paths that are not the app's, the security headers and the CSP's hashes, on a
small ASGI app standing in for Flet's (and on the app ``scorekeeper web`` really serves)."""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import hashlib
import json
import socket
from dataclasses import dataclass, field

import pytest

from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.server.guard import NOT_SERVED, Guard, csp, host_name, inline_script_hashes

PORT = 8550
HOST = f"127.0.0.1:{PORT}"
PAGE = (
    b"<!DOCTYPE html><html><head><script>var flet = {};</script>"
    b'<script src="python.js"></script></head>'
    b"<body><SCRIPT type='text/javascript'>\r\nstart();\r\n</SCRIPT></body></html>"
)


def run_async(coro) -> None:
    """``asyncio.run(coro)`` on a thread of its own: in the whole suite, Playwright's sync
    API (the browser tests' session browser) keeps an event loop running on this thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coro).result()


def sha(text: bytes) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text).digest()).decode() + "'"


async def inner(scope, receive, send):
    """The app behind the guard: an HTML page sent in two pieces, a script, a websocket."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            await send({"type": message["type"] + ".complete"})
            if message["type"] == "lifespan.shutdown":
                return
    if scope["type"] == "websocket":
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": 1000})
        return
    html = scope["path"] != "/python.js"
    headers = [
        (b"content-type", b"text/html; charset=utf-8" if html else b"text/javascript"),
        (b"access-control-allow-origin", b"*"),
        (b"x-frame-options", b"SAMEORIGIN"),  # the guard's own value replaces it
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    if html:
        await send({"type": "http.response.body", "body": PAGE[:40], "more_body": True})
        await send({"type": "http.response.body", "body": PAGE[40:]})
    else:
        await send({"type": "http.response.body", "body": b"console.log(1)"})


@dataclass
class Response:
    status: int
    headers: dict[str, list[str]] = field(default_factory=dict)
    body: bytes = b""

    def header(self, name: str) -> str:
        (value,) = self.headers[name]  # exactly one
        return value

    @property
    def text(self) -> str:
        return self.body.decode()


def _scope(kind: str, path: str, host: str | None, headers: dict[str, str]) -> dict:
    pairs = [(b"host", host.encode())] if host is not None else []
    pairs += [(k.encode(), v.encode()) for k, v in headers.items()]
    return {
        "type": kind,
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http" if kind == "http" else "ws",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": pairs,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", PORT),
    }


def call(app, path: str = "/", host: str | None = HOST, **headers: str) -> Response:
    """One GET request to the ASGI ``app``; the response as the client gets it."""
    sent: list[dict] = []

    async def run() -> None:
        requested = False

        async def receive() -> dict:
            nonlocal requested
            if not requested:
                requested = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await asyncio.Event().wait()  # the client stays
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        await app(_scope("http", path, host, headers), receive, send)

    run_async(run())
    start, *bodies = sent
    assert start["type"] == "http.response.start"
    out = Response(start["status"], body=b"".join(m.get("body", b"") for m in bodies))
    for k, v in start["headers"]:
        out.headers.setdefault(k.decode().lower(), []).append(v.decode())
    return out


def handshake(app, host: str | None = HOST, **headers: str) -> str:
    """A WebSocket handshake to ``app``: what it answered first (``websocket.accept``, or
    ``websocket.close`` -- before accepting: the server answers 403)."""
    sent: list[dict] = []

    async def run() -> None:
        connected = False

        async def receive() -> dict:
            nonlocal connected
            if not connected:
                connected = True
                return {"type": "websocket.connect"}
            return {"type": "websocket.disconnect", "code": 1000}

        async def send(message: dict) -> None:
            sent.append(message)

        await app(_scope("websocket", "/ws", host, headers), receive, send)

    run_async(run())
    if sent[0]["type"] == "websocket.close":
        assert sent[0]["code"] == 1008
    return sent[0]["type"]


def guard(hosts=()) -> Guard:
    return Guard(inner, hosts=hosts, port=PORT)


def get(path: str = "/", host: str | None = HOST, hosts=()) -> Response:
    return call(guard(hosts), path, host)


# ----------------------------------------------------------------------- Host
@pytest.mark.parametrize("host", [HOST, f"localhost:{PORT}", f"LOCALHOST:{PORT}", f"[::1]:{PORT}"])
def test_loopback_names_with_the_port_are_answered(host):
    r = get(host=host)
    assert r.status == 200
    assert r.body == PAGE


@pytest.mark.parametrize(
    "host",
    [
        f"evil.example:{PORT}",  # a name pointed at this machine (DNS rebinding)
        f"127.0.0.1:{PORT + 1}",  # another port
        "127.0.0.1",  # no port: 80
        f"localhost.evil.example:{PORT}",
        f"0.0.0.0:{PORT}",
        f"192.0.2.1:{PORT}",  # an address that is not this machine's (TEST-NET-1)
        f"[::1]x:{PORT}",
        f"{HOST}/x",
        "",
        None,  # no Host header at all
    ],
)
def test_another_host_gets_400_and_a_line_of_text(host):
    r = get(host=host)
    assert r.status == 400
    assert r.header("content-type").startswith("text/plain")
    assert r.text.startswith("unknown host") and r.text.count("\n") == 1
    assert r.header("x-frame-options") == "DENY"


def test_names_given_are_answered_in_any_case():
    assert get(host=f"Table.Local:{PORT}", hosts=["table.local"]).status == 200
    assert get(host=f"table.local:{PORT}").status == 400  # not given


def test_this_machines_own_addresses_are_answered():
    """An IP address cannot be rebound: any of the machine's own is accepted (a phone
    reaches the server by whichever interface it shares with it)."""
    assert get(host=f"[::ffff:127.0.0.1]:{PORT}").status == 200
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.bind(("127.0.0.2", 0))
    except OSError:
        pytest.skip("127.0.0.2 is not an address of this machine here")
    assert get(host=f"127.0.0.2:{PORT}").status == 200


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("LocalHost", "localhost"),
        ("[::1]", "::1"),
        ("::ffff:192.168.1.20", "192.168.1.20"),
        ("table.local", "table.local"),
    ],
)
def test_host_name(given, kept):
    assert host_name(given) == kept


@pytest.mark.parametrize("bad", ["", "http://table.local", "table.local:8550", "a/b", "-x.local", "a..b", "x" * 64])
def test_host_name_refuses_anything_but_a_name_or_an_address(bad):
    with pytest.raises(ScorekeeperError):
        host_name(bad)


# ---------------------------------------------------------------------- paths
@pytest.mark.parametrize("path", sorted(NOT_SERVED | {"/docs/anything"}))
def test_framework_paths_are_not_served(path):
    r = get(path)
    assert r.status == 404
    assert r.text == "not found\n"
    assert r.header("content-security-policy")


def test_the_apps_own_paths_are_served():
    assert get("/join/482913").status == 200
    assert get("/python.js").text == "console.log(1)"


# -------------------------------------------------------------------- headers
@pytest.mark.parametrize("path", ["/", "/python.js", "/docs"])
def test_every_response_has_the_security_headers_and_no_cors_wildcard(path):
    r = get(path)
    assert r.header("x-content-type-options") == "nosniff"
    assert r.header("x-frame-options") == "DENY"
    assert r.header("referrer-policy") == "no-referrer"
    assert "frame-ancestors 'none'" in r.header("content-security-policy")
    assert "access-control-allow-origin" not in r.headers


def test_the_csp_allows_the_pages_inline_scripts_by_their_hashes():
    """Hashed as the browser hashes them: the text between the tags, line ends made \\n;
    a script with ``src`` is not inline."""
    policy = get().header("content-security-policy")
    script_src = next(d for d in policy.split("; ") if d.startswith("script-src "))
    first, second = sha(b"var flet = {};"), sha(b"\nstart();\n")
    assert script_src == f"script-src 'self' 'wasm-unsafe-eval' {first} {second}"
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src


def test_the_hashes_seen_in_a_page_also_go_with_the_other_responses():
    """A page revalidated (304) takes the headers of the 304: they must be the page's."""
    g = guard()
    page = call(g, "/").header("content-security-policy")
    assert call(g, "/python.js").header("content-security-policy") == page


def test_the_csp_names_the_websocket_of_the_host_asked():
    assert f"connect-src 'self' ws://localhost:{PORT};" in get(host=f"localhost:{PORT}").header(
        "content-security-policy"
    )
    # a CSP source cannot be an IPv6 address: 'self' covers it (browsers that count ws: as 'self')
    assert "connect-src 'self';" in get(host=f"[::1]:{PORT}").header("content-security-policy")


def test_the_csp():
    assert csp(["'sha256-x'"], "127.0.0.1:8550") == (
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-x'; worker-src 'self' blob:; "
        "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self' ws://127.0.0.1:8550; "
        "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )


def test_inline_script_hashes_of_pages_without_inline_scripts():
    assert inline_script_hashes(b"") == []
    assert inline_script_hashes(b"<script src='a.js'></script><script\nsrc=b.js></script>") == []


# ------------------------------------------------------------------ websocket
@pytest.mark.parametrize("origin", [f"http://{HOST}", f"http://localhost:{PORT}", f"http://[::1]:{PORT}", None])
def test_a_websocket_from_the_apps_own_origin_or_without_one_is_accepted(origin):
    headers = {"origin": origin} if origin else {}
    assert handshake(guard(), **headers) == "websocket.accept"


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        f"http://evil.example:{PORT}",
        f"https://{HOST}",
        f"http://127.0.0.1:{PORT + 1}",
        "http://127.0.0.1",
        "null",
        f"http://{HOST}/path",
        "",
    ],
)
def test_a_websocket_from_another_origin_is_refused(origin):
    assert handshake(guard(), origin=origin) == "websocket.close"


def test_a_websocket_to_another_host_is_refused():
    assert handshake(guard(), host=f"evil.example:{PORT}", origin=f"http://evil.example:{PORT}") == "websocket.close"
    assert handshake(guard(), host=f"evil.example:{PORT}") == "websocket.close"


def test_lifespan_passes_through():
    sent = []

    async def run() -> None:
        messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

        async def receive() -> dict:
            return next(messages)

        async def send(message: dict) -> None:
            sent.append(message["type"])

        await guard()({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send)

    run_async(run())
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


# ------------------------------------------------------- the app really served
def test_the_served_app_has_no_api_docs_and_its_csp_allows_its_own_page(request):
    from flet_web.fastapi import app_manager

    from scorekeeper.ui.server.serve import web_app

    app = web_app(lambda page: None, port=PORT)
    request.addfinalizer(app_manager.delete_temp_dirs)  # Flet's copy of index.html, made on the first request
    for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
        assert call(app, path).status == 404, path
    r = call(app, "/")
    assert r.status == 200
    policy = r.header("content-security-policy")
    hashes = inline_script_hashes(r.body)
    assert len(hashes) >= 2  # Flet's index.html: its configuration, the page-show handler
    assert all(h in policy for h in hashes)
    assert "access-control-allow-origin" not in r.headers
    assert r.header("cross-origin-opener-policy") == "same-origin"  # Flet's own, kept
    assert 'canvasKitBaseUrl="/canvaskit/"' in r.text  # no_cdn
    assert call(app, "/", host=f"evil.example:{PORT}").status == 400
    # Flutter's font list: the fonts the client loads before its first frame, without the TeX ones
    fonts = call(app, "/assets/FontManifest.json")
    assert fonts.status == 200 and fonts.header("content-type") == "application/json"
    families = [f["family"] for f in json.loads(fonts.body)]
    assert "MaterialIcons" in families and "Roboto" in families
    assert not [f for f in families if "KaTeX" in f], families


def test_session_timeout(monkeypatch):
    from scorekeeper.ui.server.serve import SESSION_TIMEOUT, session_timeout

    monkeypatch.delenv("FLET_SESSION_TIMEOUT", raising=False)
    assert session_timeout() == SESSION_TIMEOUT == 300
    monkeypatch.setenv("FLET_SESSION_TIMEOUT", "3600")
    assert session_timeout() == 3600
    for bad in ("soon", "-1", "1.5"):
        monkeypatch.setenv("FLET_SESSION_TIMEOUT", bad)
        with pytest.raises(ScorekeeperError, match="FLET_SESSION_TIMEOUT"):
            session_timeout()


def test_web_allow_host_is_checked_and_passed_on(cli, monkeypatch):
    import scorekeeper.ui.server.serve as serve

    got: dict = {}
    monkeypatch.setattr(serve, "run", lambda db, **kw: got.update(kw) or 0)
    assert cli("web", "--allow-host", "Table.Local", "--allow-host", "10.0.0.5").returncode == 0
    assert got["allow_hosts"] == ["table.local", "10.0.0.5"]
    bad = cli("web", "--allow-host", "http://table.local:8550")
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("error: not a host name")
    assert cli("web").returncode == 0 and got["allow_hosts"] == []


# ------------------------------------------------------ what a client may send
def _msg(action, body):
    import msgpack

    return b"\x00" + msgpack.packb([action, body])


def _unpack(data):
    import msgpack

    return msgpack.unpackb(data[1:], strict_map_key=False)


def test_page_properties_a_client_may_not_set_are_dropped():
    from scorekeeper.ui.server.messages import filter_message

    register = _msg(
        1,
        {
            "session_id": None,
            "page_name": "",
            "page": {
                "route": "/",
                "width": 412.0,
                "client_ip": "127.0.0.1",
                "client_user_agent": "x",
                "_i": 7,
                "title": "t",
            },
        },
    )
    assert _unpack(filter_message(register))[1]["page"] == {"route": "/", "width": 412.0}
    patch = _msg(4, {"id": 1, "props": {"client_ip": "127.0.0.1", "height": 900.0}})
    assert _unpack(filter_message(patch)) == [4, {"id": 1, "props": {"height": 900.0}}]
    # a field's value passes; a private or handler property of any control does not
    typed = _msg(4, {"id": 46, "props": {"value": "Ann"}})
    assert filter_message(typed) == typed  # unchanged: passed through as sent
    sneaky = _msg(4, {"id": 46, "props": {"value": "Ann", "_i": 1, "on_change": "x"}})
    assert _unpack(filter_message(sneaky)) == [4, {"id": 46, "props": {"value": "Ann"}}]
    event = _msg(3, {"target": 16, "name": "click", "data": None})
    assert filter_message(event) == event


def test_messages_outside_the_protocol_or_too_long_are_refused():
    from scorekeeper.ui.server.messages import MAX_MESSAGE, filter_message

    assert filter_message(b"") is None
    assert filter_message(b"\x00\xc1") is None  # not msgpack
    assert filter_message(_msg(2, {"x": 1})) is None  # a server's action, from a client
    assert filter_message(_msg(4, {"id": 1, "props": {"route": "x" * MAX_MESSAGE}})) is None
    assert filter_message(b"\x01\x00\x00\x00\x00data") == b"\x01\x00\x00\x00\x00data"  # a data channel frame


def test_the_peer_is_the_sockets_and_a_refused_message_closes_the_websocket():
    from scorekeeper.ui.access.visitor import peer

    seen = {}

    async def app(scope, receive, send):
        seen["peer"] = peer()
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        seen["first"] = await receive()
        seen["second"] = await receive()

    g = Guard(app, port=PORT)
    incoming = [
        {"type": "websocket.connect"},
        {"type": "websocket.receive", "bytes": _msg(4, {"id": 1, "props": {"client_ip": "127.0.0.1"}})},
        {"type": "websocket.receive", "text": "hello"},
    ]
    sent = []

    async def receive():
        return incoming.pop(0)

    async def send(message):
        sent.append(message)

    scope = {
        "type": "websocket",
        "path": "/ws",
        "headers": [(b"host", f"127.0.0.1:{PORT}".encode())],
        "client": ("::ffff:10.0.0.9", 5000),
    }
    run_async(g(scope, receive, send))
    assert seen["peer"] == "10.0.0.9"
    assert _unpack(seen["first"]["bytes"]) == [4, {"id": 1, "props": {}}]
    assert seen["second"]["type"] == "websocket.disconnect"
    assert {"type": "websocket.close", "code": 1008} in sent


def test_a_client_opening_live_connections_too_fast_is_refused_before_the_app_sees_them():
    from scorekeeper.ui.server.bounds import Rate

    started = []

    async def app(scope, receive, send):
        started.append(scope["client"][0])
        await receive()
        await send({"type": "websocket.accept"})

    g = Guard(app, port=PORT, sockets=Rate(burst=3, per_second=0.0))

    def opens(ip):
        sent = []

        async def receive():
            return {"type": "websocket.connect"}

        async def send(message):
            sent.append(message["type"])

        scope = {"type": "websocket", "path": "/ws", "headers": [(b"host", f"127.0.0.1:{PORT}".encode())]}
        run_async(g({**scope, "client": (ip, 5000)}, receive, send))
        return sent[0]

    assert [opens("10.0.0.9") for _ in range(5)] == ["websocket.accept"] * 3 + ["websocket.close"] * 2
    assert opens("10.0.0.8") == "websocket.accept"
    assert [opens("127.0.0.1") for _ in range(5)] == ["websocket.accept"] * 5  # the host's own browsers
    assert started.count("10.0.0.9") == 3


def test_a_websocket_that_never_registers_is_closed(monkeypatch):
    from scorekeeper.ui.server import messages

    monkeypatch.setattr(messages, "REGISTER_TIMEOUT", 0.05)
    seen = {}

    async def app(scope, receive, send):
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        seen["next"] = await receive()

    sent = []
    incoming = [{"type": "websocket.connect"}]

    async def receive():
        if incoming:
            return incoming.pop(0)
        await asyncio.sleep(3600)  # the client says nothing

    async def send(message):
        sent.append(message)

    scope = {
        "type": "websocket",
        "path": "/ws",
        "headers": [(b"host", f"127.0.0.1:{PORT}".encode())],
        "client": ("10.0.0.9", 1),
    }
    run_async(asyncio.wait_for(Guard(app, port=PORT)(scope, receive, send), 5))
    assert seen["next"]["type"] == "websocket.disconnect"
    assert sent[-1] == {"type": "websocket.close", "code": 1008}
