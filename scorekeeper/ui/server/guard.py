"""What the web server answers, and to whom: an ASGI middleware around Flet's app.

* **Host**: a request is answered only when its ``Host`` header names this server: ``localhost``,
  ``127.0.0.1``, ``::1``, an IP address of this machine (the LAN address ``scorekeeper web``
  prints among them), the ``--host`` it listens on and the names given with ``--allow-host`` --
  with the port it listens on. Anything else gets ``400`` and a line of text: a web page whose
  name an attacker points at this machine (DNS rebinding) cannot talk to the app. An IP address
  cannot be rebound, so every address of the machine is accepted (a phone reaches it by
  whichever interface it shares with it).
* **Origin**: a WebSocket handshake (the app's live connection) whose ``Origin`` is present and
  is not ``http://<one of those hosts>:<port>`` is refused (``403``): another site's page, open
  in a browser at the table, cannot drive the app.
* **Paths**: FastAPI's ``/docs``, ``/redoc`` and ``/openapi.json`` (and Flet's unused OAuth
  callback) answer ``404``.
* **Bodies**: a request with a body, to any path, is asked who sends before a byte of it is
  read, and is read in a slot and in time, or refused and its connection closed (see
  :mod:`scorekeeper.ui.server.door`); only the paths given as ``bodies`` take one.
* **Who is connected** comes from the socket: the peer address of the WebSocket (the ASGI
  scope's ``client``, fixed when the socket opens) is put in :data:`~scorekeeper.ui.access.visitor.PEER` for the app's session
  to read (:func:`peer`); nothing the browser sends can change it.
* **How fast a client opens live connections**: a WebSocket from an address that has used up
  its :class:`~scorekeeper.ui.server.bounds.Rate` (:data:`~scorekeeper.ui.server.bounds.SOCKET_BURST`,
  :data:`~scorekeeper.ui.server.bounds.SOCKET_PER_SECOND`) is refused (``403``) before Flet starts a
  session for it.
* **What the browser may set**: the app's client sends its page's properties (size, route,
  platform ...) and the values typed into fields. A message whose page properties are not in
  :data:`~scorekeeper.ui.server.messages.PAGE_PROPS` (``client_ip``, ``client_user_agent`` among them) has those dropped; a
  property starting with ``_`` or ``on_`` is dropped from any control; a message longer than
  :data:`~scorekeeper.ui.server.messages.MAX_MESSAGE` bytes, or one that is not the app's protocol, closes the connection; so
  does a WebSocket that sends nothing for a few seconds after it opened (:mod:`scorekeeper.ui.server.messages`).
* **Headers** on every HTTP response: ``Content-Security-Policy`` (see :func:`csp`),
  ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``, ``Referrer-Policy:
  no-referrer``; Flet's ``Access-Control-Allow-Origin: *`` is taken off (the app reads only
  its own origin).
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.access.visitor import AGENT, PEER
from scorekeeper.ui.server.door import (
    DEADLINE,
    SENDER,
    WATCHING,
    Refused,
    Slots,
    answer,
    has_body,
    read_body,
    replay,
    sender,
)
from scorekeeper.ui.server.messages import filtered
from scorekeeper.ui.shell.policy import Act, check

if TYPE_CHECKING:
    from scorekeeper.ui.access.gate import Gate
    from scorekeeper.ui.server.bounds import Rate

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the names every server answers to (it is always reachable from this machine)
LOOPBACK = ("localhost", "127.0.0.1", "::1")

#: paths of the framework, not of the app: FastAPI's API docs (their pages load scripts from a
#: CDN) and Flet's OAuth callback (the app signs nobody in)
NOT_SERVED = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json", "/oauth_callback"})

FIXED_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
_DROPPED = {b"access-control-allow-origin", b"content-security-policy", *(name for name, _ in FIXED_HEADERS)}

_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
_HOST_PORT = re.compile(r"(?:\[(?P<v6>[0-9a-f:.]+)\]|(?P<name>[^:\[\]]+))(?::(?P<port>[0-9]{1,5}))?")
_SCRIPT = re.compile(rb"<script\b(?P<attrs>[^>]*)>(?P<body>.*?)</script\s*>", re.I | re.S)
_SRC = re.compile(rb"\ssrc\s*=", re.I)


def host_name(value: str) -> str:
    """``value`` (a host name or an IP address, as given to ``--allow-host`` or ``--host``) in
    the form requests are compared with: lower case, an IP address in its short form.
    Raises ScorekeeperError for anything else (a port, a scheme, a path ...)."""
    text = value.strip().lower()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    ip = _ip(text)
    if ip is not None:
        return ip
    if len(text) <= 253 and _NAME.fullmatch(text):
        return text
    raise ScorekeeperError(f"not a host name or an IP address: {value!r} (give the name alone, e.g. table.local)")


def _ip(text: str) -> str | None:
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip)


def _own_address(ip: str) -> bool:
    """True where ``ip`` is an address of one of this machine's interfaces (a socket can be
    bound to it); never for the wildcard, multicast or broadcast addresses."""
    addr = ipaddress.ip_address(ip)
    if addr.is_unspecified or addr.is_multicast or ip == "255.255.255.255":
        return False
    family = socket.AF_INET6 if addr.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.bind((ip, 0))
    except OSError:
        return False
    return True


def inline_script_hashes(html: bytes) -> list[str]:
    """CSP sources (``'sha256-...'``) of the inline ``<script>`` elements of ``html``, hashed
    as the browser hashes them (the text as parsed: line ends made ``\\n``)."""
    out = []
    for m in _SCRIPT.finditer(html):
        if _SRC.search(m["attrs"]):
            continue
        text = m["body"].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        out.append("'sha256-" + base64.b64encode(hashlib.sha256(text).digest()).decode() + "'")
    return out


#: where the server serves the phone's site (:mod:`scorekeeper.ui.server.phone_site`)
SITE = "/app"


def csp(script_hashes: Iterable[str], ws_host: str | None, site: bool = False) -> str:
    """The Content-Security-Policy of every response (the reasons are in docs/security.md):
    everything from the app's own origin, nothing from anywhere else. ``script_hashes``: the
    inline scripts of Flet's ``index.html``; ``ws_host``: ``host:port`` of the request, for
    the app's WebSocket (browsers that do not count ``ws:`` as ``'self'``); ``site``: a file of
    the phone's site, whose Python (Pyodide) evaluates the JavaScript it builds."""
    connect = "'self'" + (f" ws://{ws_host}" if ws_host else "")
    scripts = "script-src 'self' 'wasm-unsafe-eval'" + (" 'unsafe-eval'" if site else "")
    return "; ".join(
        [
            "default-src 'self'",
            " ".join([scripts, *script_hashes]),
            "worker-src 'self' blob:",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            f"connect-src {connect}",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


class Guard:
    """ASGI middleware: see the module's docstring. ``hosts``: the names and addresses the
    server answers to besides :data:`LOOPBACK` and the machine's own addresses; ``port``:
    the port it listens on; ``gate``: who may send a body (None: the host only); ``bodies``:
    the paths that take one, each with its largest size in bytes and the words of its refusal
    past it (no other path takes a body); ``slots``, ``deadline``: see
    :mod:`scorekeeper.ui.server.door`."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: Iterable[str] = (),
        port: int,
        sockets: Rate | None = None,
        gate: Gate | None = None,
        bodies: Mapping[str, tuple[int, str]] | None = None,
        slots: Slots | None = None,
        deadline: float = DEADLINE,
    ) -> None:
        self.app = app
        self.gate = gate
        self.bodies = dict(bodies or {})
        self.slots = slots or Slots()
        self.deadline = deadline
        if sockets is None:
            from scorekeeper.ui.server.bounds import SOCKET_BURST, SOCKET_PER_SECOND, Rate

            sockets = Rate(burst=SOCKET_BURST, per_second=SOCKET_PER_SECOND)
        self.sockets = sockets
        self.port = port
        self.names = frozenset(host_name(h) for h in (*LOOPBACK, *hosts) if h not in ("0.0.0.0", "::", ""))
        self._own: set[str] = set()  # addresses found to be this machine's
        self._hashes: list[str] = []  # of the inline scripts of the HTML pages served so far

    # ------------------------------------------------------------------ checks
    def _known(self, name: str) -> bool:
        if name in self.names or name in self._own:
            return True
        if _ip(name) is not None and _own_address(name):
            if len(self._own) < 64:  # a machine has a few (but on Linux all of 127/8 binds)
                self._own.add(name)
            return True
        return False

    def host_ok(self, value: str | None, default_port: int = 80) -> bool:
        """True where ``value`` (a ``Host`` header, or the host part of an origin) names this
        server and its port."""
        m = _HOST_PORT.fullmatch((value or "").strip().lower())
        if m is None:
            return False
        port = int(m["port"]) if m["port"] else default_port
        if port != self.port:
            return False
        if m["v6"] is not None:
            name = _ip(m["v6"])
            if name is None or ":" not in m["v6"]:
                return False
        else:
            name = m["name"].rstrip(".") if _ip(m["name"]) is None else _ip(m["name"])
        return name is not None and self._known(name)

    def origin_ok(self, origin: str) -> bool:
        """True where ``origin`` (an ``Origin`` header) is this server's own: ``http://`` and a
        host and port :meth:`host_ok` accepts."""
        scheme, sep, rest = origin.strip().partition("://")
        return sep == "://" and scheme.lower() == "http" and "/" not in rest and self.host_ok(rest)

    # ------------------------------------------------------------------ ASGI
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            origin = _header(scope, b"origin")
            if not self.host_ok(_header(scope, b"host")) or (origin is not None and not self.origin_ok(origin)):
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})  # before accept: HTTP 403
                return
            client = scope.get("client")
            address = _ip(client[0]) or client[0] if client else None
            if address is not None and not self.sockets.admit(address):
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})  # a stranger's flood: HTTP 403
                return
            PEER.set(address)
            AGENT.set((_header(scope, b"user-agent") or "")[:400])
            await self.app(scope, filtered(receive, send), send)
        else:  # lifespan
            await self.app(scope, receive, send)

    def _headers(self, host: str | None, path: str = "") -> list[tuple[bytes, bytes]]:
        ws_host = host.strip().lower() if host and "[" not in host else None  # CSP sources have no IPv6 literal
        site = path == SITE or path.startswith(SITE + "/")
        return [*FIXED_HEADERS, (b"content-security-policy", csp(self._hashes, ws_host, site).encode())]

    async def _plain(self, send: Send, status: int, text: str, host: str | None) -> None:
        body = text.encode()
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
            *self._headers(host),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = _header(scope, b"host")
        if not self.host_ok(host):
            text = "unknown host: open the address 'scorekeeper web' printed (or serve with --allow-host NAME)\n"
            await self._plain(send, 400, text, None)
            return
        if scope["path"] in NOT_SERVED or scope["path"].startswith("/docs/"):
            await self._plain(send, 404, "not found\n", host)
            return
        if has_body(scope):
            await self._body(scope, receive, send, host)
            return
        await self._pass_on(scope, receive, send, host)

    async def _body(self, scope: Scope, receive: Receive, send: Send, host: str | None) -> None:
        """A request with a body: who sends, where, a slot, then the body in time (see
        :mod:`scorekeeper.ui.server.door`); the app gets it whole, and the sender's role in the
        scope (:data:`~scorekeeper.ui.server.door.SENDER`)."""
        until = time.monotonic() + self.deadline
        client = scope.get("client")
        address = (_ip(client[0]) or client[0]) if client else ""
        try:
            role = sender(self.gate, scope)  # from the headers: nothing of the body is read yet
            if not check(Act.IMPORT, role).allowed:  # a body is a match sent: the rules' one check
                raise Refused(403, WATCHING)
            taken = self.bodies.get(scope["path"])
            if taken is None:
                raise Refused(413, "this address takes no request body")
            if not await self.slots.take(address, until - time.monotonic()):
                raise Refused(503, "the table is busy taking other matches: send again in a moment")
        except Refused as r:
            await self._refuse(send, r, host)
            return
        try:
            limit, too_large = taken
            try:
                body = await read_body(receive, limit, until, too_large=too_large)
            except Refused as r:
                await self._refuse(send, r, host)
                return
            await self._pass_on({**scope, SENDER: role}, replay(body, receive), send, host)
        finally:
            self.slots.give_back(address)

    async def _refuse(self, send: Send, refused: Refused, host: str | None) -> None:
        """``refused`` as JSON, and the connection closed after it (what is left of the body is
        never read on it)."""
        extra = [(b"connection", b"close"), *self._headers(host)]
        await answer(send, refused.status, {"error": refused.words}, extra)

    async def _pass_on(self, scope: Scope, receive: Receive, send: Send, host: str | None) -> None:
        """The request to the app, its answer with this server's headers."""
        held: Message | None = None  # the start of an HTML page, sent with its body
        chunks: list[bytes] = []

        async def guarded_send(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _DROPPED]
                message = {**message, "headers": headers}
                ctype = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                if message["status"] == 200 and ctype.startswith(b"text/html"):
                    held = message
                    return
                message["headers"] = headers + self._headers(host, scope["path"])
            elif message["type"] == "http.response.body" and held is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                body = b"".join(chunks)
                self._hashes += [h for h in inline_script_hashes(body) if h not in self._hashes]
                await send({**held, "headers": held["headers"] + self._headers(host, scope["path"])})
                held = None
                message = {"type": "http.response.body", "body": body}
            await send(message)

        extensions = {k: v for k, v in (scope.get("extensions") or {}).items() if k != "http.response.pathsend"}
        await self.app({**scope, "extensions": extensions}, receive, guarded_send)  # bodies as bytes: see HTML


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", []):
        if k.lower() == name:
            return str(v.decode("latin-1"))
    return None
